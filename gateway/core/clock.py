"""Clock and id seams, injected wherever time or identity is read."""

from __future__ import annotations

import os
import time
from typing import Protocol


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
    """Random 96-bit hex ids; cheap and collision-safe for request ids."""

    def new_id(self, prefix: str = "") -> str:
        return prefix + os.urandom(12).hex()
