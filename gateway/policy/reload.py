"""Hot reload: the running policy is swapped atomically (one reference assignment) when the
file changes or an admin PUTs a new one. A bad policy is refused with its problems and the old
one keeps serving. Every change is recorded (who, when, hash) through an injected sink."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from gateway.policy.loader import (
    CompiledPolicy,
    PolicyError,
    PolicyLimits,
    decode_text,
    load_text,
)

log = logging.getLogger("gateway.policy")


@dataclass(frozen=True, slots=True)
class PolicyChange:
    actor: str  # "file-watch", "admin:<key id>", "startup"
    at: float  # epoch seconds
    sha256: str
    previous_sha256: str | None
    source: str
    # the accepted document (shared across replicas); not kept in the reloader's history
    text: str = field(default="", repr=False, compare=False)


class ChangeSink(Protocol):
    def __call__(self, change: PolicyChange) -> None: ...


SwapHook = Callable[[CompiledPolicy, CompiledPolicy], None]  # (old, new), before the swap


class PolicyReloader:
    """Holds the running policy. `current()` is what every request reads once, at its start."""

    def __init__(
        self,
        initial: CompiledPolicy,
        now: Callable[[], float],
        sink: ChangeSink | None = None,
        on_swap: SwapHook | None = None,
        path: str | Path | None = None,
        limits: PolicyLimits = PolicyLimits(),
        history: int = 100,
    ) -> None:
        self._current = initial
        self.limits = limits
        self._now = now
        self._sinks: list[ChangeSink] = [sink] if sink is not None else []
        self._on_swap = on_swap
        self.path = Path(path) if path is not None else None
        # the newest changes, without their documents: a long-running gateway swapped
        # hundreds of times must not keep every text it ever served
        self.changes: deque[PolicyChange] = deque(maxlen=history)
        self.accepted = 0  # hot reloads that swapped a new policy in (GET /metrics)
        self.rejected = 0  # and those refused: invalid, or the swap hook failed
        self._file_sha = _file_sha(self.path) if self.path else None

    def current(self) -> CompiledPolicy:
        return self._current

    def apply_text(self, text: str, actor: str, source: str = "<admin>") -> CompiledPolicy:
        """Validate and swap in. Raises PolicyError (nothing changes) when the text is bad."""
        return self.apply_compiled(self.compile(text, source), text, actor, source)

    def compile(self, text: str, source: str = "<admin>") -> CompiledPolicy:
        """Validate only (safe to run in a worker thread: it touches nothing shared but the
        rejection count)."""
        try:
            return load_text(text, source=source, limits=self.limits)
        except Exception:
            self.rejected += 1
            raise

    def apply_compiled(
        self, new: CompiledPolicy, text: str, actor: str, source: str = "<admin>"
    ) -> CompiledPolicy:
        """Swap in a policy `compile` accepted (on the event loop: the swap hook and the
        sinks run here)."""
        try:
            if new.sha256 == self._current.sha256:
                return self._current
            old = self._current
            if self._on_swap is not None:
                self._on_swap(old, new)  # e.g. build providers for new backends; may raise
        except Exception:
            self.rejected += 1
            raise
        self.accepted += 1
        self._current = new
        change = PolicyChange(
            actor=actor,
            at=self._now(),
            sha256=new.sha256,
            previous_sha256=old.sha256,
            source=source,
            text=text,
        )
        self.changes.append(dataclasses.replace(change, text=""))
        log.info(
            "policy changed by %s: %s -> %s (%s)", actor, old.sha256[:12], new.sha256[:12], source
        )
        for sink in self._sinks:
            try:
                sink(change)
            except Exception as exc:  # recording must not undo a valid change
                log.error("policy change sink failed: %s", type(exc).__name__)
        return new

    def decode(self, raw: bytes, source: str = "<admin>") -> str:
        """A document as it arrived, as text: too large or not UTF-8 is a PolicyError."""
        try:
            return decode_text(raw, source, self.limits)
        except PolicyError:
            self.rejected += 1
            raise

    def apply_bytes(self, raw: bytes, actor: str, source: str = "<admin>") -> CompiledPolicy:
        return self.apply_text(self.decode(raw, source), actor, source)

    def add_sink(self, sink: ChangeSink) -> None:
        """One more receiver of every accepted change (e.g. the ledger's policy_changes)."""
        self._sinks.append(sink)

    def check_file(self) -> CompiledPolicy | None:
        """Reload the watched file if its content changed. Returns the new policy, or None
        when unchanged or refused (the problems are logged; the old policy keeps serving)."""
        raw = self._changed_file()
        if raw is None:
            return None
        return self._guarded(lambda: self.apply_bytes(raw, "file-watch", str(self.path)))

    async def check_file_async(self) -> CompiledPolicy | None:
        """check_file with the reading, parsing and validation in a worker thread (a
        large document never holds the event loop); the swap itself runs on the loop."""
        raw = await asyncio.to_thread(self._changed_file)
        if raw is None:
            return None
        source = str(self.path)
        try:
            text = self.decode(raw, source)
            new = await asyncio.to_thread(self.compile, text, source)
        except PolicyError as exc:
            log.error("%s\nthe running policy (%s) keeps serving", exc, self._current.sha256[:12])
            return None
        return self._guarded(lambda: self.apply_compiled(new, text, "file-watch", source))

    def _changed_file(self) -> bytes | None:
        if self.path is None:
            return None
        try:
            with self.path.open("rb") as f:
                raw = f.read(self.limits.yaml.max_bytes + 1)
        except OSError as exc:
            log.warning(
                "policy file %s unreadable (%s); keeping the running policy",
                self.path,
                exc.strerror,
            )
            return None
        sha = hashlib.sha256(raw).hexdigest()
        if sha == self._file_sha:
            return None
        self._file_sha = sha
        return raw

    def _guarded(self, swap: Callable[[], CompiledPolicy]) -> CompiledPolicy | None:
        try:
            return swap()
        except PolicyError as exc:
            log.error("%s\nthe running policy (%s) keeps serving", exc, self._current.sha256[:12])
            return None
        except Exception as exc:
            log.error(
                "policy swap failed (%s); the running policy keeps serving", type(exc).__name__
            )
            return None

    async def watch(
        self, interval_s: float = 2.0, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    ) -> None:
        """Poll the file forever (cancel the task to stop). Polling works the same on every
        filesystem, including Kubernetes ConfigMap symlink swaps."""
        while True:
            await sleep(interval_s)
            await self.check_file_async()


def _file_sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
