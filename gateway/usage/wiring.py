"""Build and start the ledger's parts for the composition root (app.py)."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from gateway.usage import budgets
from gateway.usage.journal import Journal
from gateway.usage.ledger import BatchListener
from gateway.usage.pricing import Pricer, load_catalog
from gateway.usage.quarantine import FILE_NAME as QUARANTINE_FILE
from gateway.usage.quarantine import Quarantine
from gateway.usage.recorder import Observer, Recorder


@dataclass
class Ledger:
    recorder: Recorder
    pricer: Pricer
    journal: Journal


def journal_dir(journal_path: str | None, database_url: str, port: int) -> Path:
    """The journal's directory: the setting, else beside a SQLite file, else one per port and
    database in the working directory (two gateways on one machine never share one)."""
    if journal_path:
        return Path(journal_path)
    if database_url.startswith("sqlite:///") and ":memory:" not in database_url:
        db = Path(database_url.removeprefix("sqlite:///"))
        return db.with_name(f".{db.name}.journal")
    tag = hashlib.sha256(database_url.encode()).hexdigest()[:8]
    return Path(f".gecit-{port}-{tag}.journal")


async def start_ledger(
    settings: Any,
    engine: Engine,
    policy: Callable[[], Any],
    stack: contextlib.AsyncExitStack,
    *,
    observers: Sequence[Observer] = (),
    listeners: Sequence[BatchListener] = (),
) -> Ledger:
    pricer = Pricer(policy, load_catalog())
    journal = Journal(journal_dir(settings.journal_path, settings.database_url, settings.port))
    recorder = Recorder(
        engine,
        pricer,
        journal,
        settle=budgets.settle,
        observers=observers,
        listeners=listeners,
        quarantine=Quarantine(journal.dir / QUARANTINE_FILE),
    )
    await recorder.start()
    stack.push_async_callback(recorder.stop)
    return Ledger(recorder, pricer, journal)


class PolicyView:
    """`() -> Policy` for pricing and budgets, over the running (hot-reloading) compiled
    policy `source` returns."""

    def __init__(self, source: Callable[[], Any]) -> None:
        self.source = source

    def __call__(self) -> Any:
        return self.source().policy
