"""Helpers shared by the end-to-end (and API) tests that run a real gateway: an in-process app
under a real uvicorn in a thread, API keys in a fresh ledger, the budget policy the replica tests
use and a short-lived connection to their PostgreSQL ledger. Throwaway PostgreSQL databases come
from `tests.unit.usage.pg`; gateway subprocesses from `tests.e2e.test_ledger_crash.Gateway`."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

import uvicorn
from sqlalchemy import Connection

from gateway.app import create_app
from gateway.emulators.base import free_port
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.usage.db import create_schema, make_engine
from gateway.usage.keys import create_key


class ServedGateway:
    """`create_app` served by a real uvicorn (lifespan on) on a free loopback port, in a
    background thread. `key` and `db` are for the test's own bookkeeping."""

    def __init__(
        self,
        settings: Settings,
        policy: str,
        *,
        key: str | None = None,
        db: Path | None = None,
        graceful_s: int | None = None,
    ) -> None:
        self.port = free_port()
        self.key = key
        self.db = db
        self.app = create_app(settings, policy=load_text(policy))
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                access_log=False,
                lifespan="on",
                timeout_graceful_shutdown=graceful_s,
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ServedGateway:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "gateway not up"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def new_key(database_url: str, tenant: str, app: str) -> str:
    """Create the ledger schema at `database_url` (if needed) and an API key; the secret."""
    engine = make_engine(database_url)
    try:
        create_schema(engine)
        return create_key(engine, tenant, app, now=time.time())[1]
    finally:
        engine.dispose()


def cli_budget_key(db_url: str, budget: Decimal) -> str:
    """`gateway keys create` for tenant acme / app web with a monthly `budget` in USD, through
    the CLI as an operator would; the secret."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "gateway",
            "keys",
            "create",
            "--tenant",
            "acme",
            "--app",
            "web",
            "--budget",
            f"{budget} USD",
        ],
        env={**os.environ, "GECIT_DATABASE_URL": db_url},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return out.stdout.strip().splitlines()[-1]


def budget_policy(url: str, extra_alias: str = "") -> str:
    """One priced cloud backend at `url` behind alias `chat` (plus `extra_alias`), public data
    only, requests refused once a budget is exhausted."""
    return f"""
version: 1
backends:
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: {url}
    model: emulated-model
    price: {{input_per_mtok: "100", output_per_mtok: "1000"}}
aliases:
  chat: {{backends: [cloud]}}{extra_alias}
rules:
  - name: public-only
    match: {{data_classes: [personal, special]}}
    action: block
billing:
  on_budget_exhausted: refuse
"""


@contextmanager
def ledger(db_url: str) -> Iterator[Connection]:
    """A connection to the ledger at `db_url`, its engine disposed afterwards."""
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()
