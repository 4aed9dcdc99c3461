"""Ledger entries the database refused for good, kept beside the journal.

The writer retries a failed batch row by row; a row that fails for a reason that is not the
database being away (a value it refuses, a constraint, a row the code cannot convert) lands
here instead of blocking every later row. One JSON line per entry: when, why (the error's
class and SQLSTATE, never its message, which may quote values), and the entry itself (the
same metadata the ledger holds; never prompt text). `gateway ledger quarantine` lists them
and `--replay` tries them again once the cause is fixed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

log = logging.getLogger("gateway.usage")

FILE_NAME = "quarantine.jsonl"


def reason_of(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    name = type(orig).__name__ if orig is not None else type(exc).__name__
    return f"{name} (SQLSTATE {code})" if code else name


class Quarantine:
    """An append-only JSONL file (or, without a path, a list in memory for tests)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._memory: list[dict[str, Any]] = []
        self.count = _count_lines(path) if path is not None else 0

    def add(self, entry: dict[str, Any], reason: str) -> None:
        line = {"at": time.time(), "reason": reason, "entry": entry}
        self.count += 1
        log.error("ledger row %s quarantined (%s)", str(entry.get("id"))[:64], reason)
        if self.path is None:
            self._memory.append(line)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, orjson.dumps(line, default=str) + b"\n")
            os.fdatasync(fd)
        finally:
            os.close(fd)

    def lines(self) -> Iterator[dict[str, Any]]:
        if self.path is None:
            yield from self._memory
            return
        with contextlib.suppress(FileNotFoundError), self.path.open("rb") as f:
            for raw in f:
                with contextlib.suppress(orjson.JSONDecodeError):
                    obj = orjson.loads(raw)
                    if isinstance(obj, dict):
                        yield obj

    def replace(self, keep: list[dict[str, Any]]) -> None:
        """Rewrite with only `keep` (after a replay wrote the others)."""
        self.count = len(keep)
        if self.path is None:
            self._memory = list(keep)
            return
        tmp = self.path.with_suffix(".tmp")
        tmp.write_bytes(b"".join(orjson.dumps(x, default=str) + b"\n" for x in keep))
        os.replace(tmp, self.path)


def _count_lines(path: Path) -> int:
    try:
        with path.open("rb") as f:
            return sum(1 for _ in f)
    except FileNotFoundError:
        return 0
