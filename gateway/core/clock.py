"""Clock and id seams, injected wherever time or identity is read."""

from __future__ import annotations

import os
import threading
import time
from typing import Protocol

_IDS_PER_READ = 256
_fork_generation = 0  # bumped in a forked child: a batch read before the fork is never reused


def _forked() -> None:
    global _fork_generation
    _fork_generation += 1


os.register_at_fork(after_in_child=_forked)


class Clock(Protocol):
    def now(self) -> float:
        """Wall-clock seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Monotonic seconds, for durations."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.perf_counter()


class IdGenerator(Protocol):
    def new_id(self, prefix: str = "") -> str: ...


class RandomIds:
    """Random 96-bit hex ids; cheap and collision-safe for request ids. The bytes come from
    os.urandom 256 ids at a time: its system call releases the GIL, and on a busy gateway a
    background thread (the ledger writer) then holds it for up to a switch interval before the
    request can go on; one read per 256 requests instead of one each."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hex = ""
        self._at = 0
        self._generation = -1

    def new_id(self, prefix: str = "") -> str:
        with self._lock:
            at = self._at
            if at >= len(self._hex) or self._generation != _fork_generation:
                self._hex = os.urandom(12 * _IDS_PER_READ).hex()
                self._generation = _fork_generation
                at = 0
            self._at = at + 24
            return prefix + self._hex[at:at + 24]
