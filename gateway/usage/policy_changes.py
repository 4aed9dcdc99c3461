"""Policy changes into the ledger: every accepted policy (admin PUT, file watch, shared document,
start-up) becomes one `policy_changes` row (who, when, which digest) and one hash-chained audit
entry, written in ONE transaction off the request path.

`record` is the reloader's change sink: it only enqueues (never blocks, never raises). A worker
writes the queue in order and retries while the database is down, so a change is not lost to a
short outage; `stop()` drains what is left. No policy text is stored here (that is the policy
store's job); only the digest, the source and the actor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.engine import Engine

from gateway.core.clock import Clock
from gateway.usage.audit import AuditLog, PolicyChangeEntry
from gateway.usage.tables import PolicyChangeRow

log = logging.getLogger("gateway.ledger")

_T = PolicyChangeRow.__table__  # type: ignore[attr-defined]
STARTUP_ACTOR = "startup"


class ChangeLike(Protocol):
    """What the reloader reports (gateway.policy.reload.PolicyChange)."""

    @property
    def actor(self) -> str: ...
    @property
    def at(self) -> float: ...
    @property
    def sha256(self) -> str: ...
    @property
    def previous_sha256(self) -> str | None: ...
    @property
    def source(self) -> str: ...


@dataclass(frozen=True, slots=True)
class PolicyChangeItem:
    actor: str
    at: datetime
    sha256: str
    previous_sha256: str | None
    source: str
    accepted: bool = True
    problems: int = 0

    @classmethod
    def of(cls, change: ChangeLike) -> PolicyChangeItem:
        return cls(
            actor=change.actor[:128],
            at=datetime.fromtimestamp(change.at, UTC),
            sha256=change.sha256,
            previous_sha256=change.previous_sha256,
            source=change.source[:1024],
        )


def write_change(engine: Engine, audit: AuditLog, item: PolicyChangeItem) -> int:
    """The row and its audit entry in one transaction; returns the audit seq."""
    with engine.begin() as conn:
        conn.execute(
            _T.insert().values(
                changed_at=item.at,
                source=item.source,
                sha256=item.sha256,
                accepted=item.accepted,
                problems=item.problems,
                actor=item.actor,
            )
        )
        return audit.append_policy_change_in(
            conn,
            PolicyChangeEntry(
                policy_hash=item.sha256,
                previous_hash=item.previous_sha256,
                source=item.source,
                accepted=item.accepted,
                actor=item.actor,
                problems=item.problems,
                at=item.at,
            ),
        )


def last_recorded(engine: Engine) -> str | None:
    """The digest of the newest recorded accepted change, if any."""
    with engine.connect() as conn:
        row = conn.execute(
            select(_T.c.sha256).where(_T.c.accepted.is_(True)).order_by(_T.c.id.desc()).limit(1)
        ).first()
    return str(row[0]) if row is not None else None


class PolicyChangeLog:
    def __init__(
        self, engine: Engine, audit: AuditLog, *, retry_s: float = 0.5, max_retry_s: float = 30.0
    ) -> None:
        self._engine = engine
        self._audit = audit
        self._retry = retry_s
        self._max_retry = max_retry_s
        self._queue: asyncio.Queue[PolicyChangeItem] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def record(self, change: ChangeLike) -> None:
        """The reloader's ChangeSink: enqueue, from the event loop or any thread."""
        item = PolicyChangeItem.of(change)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if self._loop is not None and running is not self._loop:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)
        else:
            self._queue.put_nowait(item)

    async def start(self, current_sha256: str, source: str, now: float) -> None:
        """Start the writer; record the start-up policy when the ledger's last recorded change
        is another digest (a new deployment, or the first start)."""
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run(), name="policy-changes")
        try:
            last = await asyncio.to_thread(last_recorded, self._engine)
        except Exception as exc:  # the database may be down: serve, record later changes
            log.warning("policy_changes unreadable at start-up (%s)", type(exc).__name__)
            return
        if last != current_sha256:
            self._queue.put_nowait(
                PolicyChangeItem(
                    actor=STARTUP_ACTOR,
                    at=datetime.fromtimestamp(now, UTC),
                    sha256=current_sha256,
                    previous_sha256=last,
                    source=source[:1024],
                )
            )

    async def flush(self) -> None:
        """Wait until every queued change is written (tests, shutdown)."""
        await self._queue.join()

    async def stop(self, timeout_s: float = 5.0) -> None:
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), timeout_s)
        if not self._queue.empty():
            log.error(
                "%d policy change(s) not recorded in the ledger at shutdown", self._queue.qsize()
            )
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None

    async def _run(self) -> None:
        while True:
            item = await self._queue.get()
            delay = self._retry
            while True:
                try:
                    await asyncio.to_thread(write_change, self._engine, self._audit, item)
                    break
                except Exception as exc:
                    log.warning(
                        "policy change %s not recorded yet (%s); retrying in %.1f s",
                        item.sha256[:12],
                        type(exc).__name__,
                        delay,
                    )
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, self._max_retry)
            self._queue.task_done()


async def start_change_log(
    engine: Engine, clock: Clock, stack: contextlib.AsyncExitStack, sha256: str, source: str
) -> PolicyChangeLog:
    """For the composition root: started now, drained and stopped with the app."""
    changes = PolicyChangeLog(engine, AuditLog(engine, clock))
    await changes.start(sha256, source, clock.now())
    stack.push_async_callback(changes.stop)
    return changes
