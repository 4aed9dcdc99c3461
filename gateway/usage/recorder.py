"""Record finished requests off the request path: price, journal, then batched database writes.

`record()` runs on the request path and must be cheap and never raise: it prices the request
(dictionary look-ups and Decimal arithmetic), appends the entry to the local journal (one
`os.write`, see journal.py for why that is durable against kill -9) and queues it. A background
task writes queued entries in batches; when the database is down it keeps retrying, and entries
beyond the in-memory bound stay only in the journal and are replayed from disk when the database
is back. Journal segments left by an earlier process are replayed at start-up.

A batch the database refuses for another reason than being away is retried row by row, and a
row refused on its own is quarantined (quarantine.py): one bad row never holds up the others,
at run time or in a replay after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Sequence
from decimal import Decimal
from pathlib import Path

from sqlalchemy import exc as sa_exc
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.usage.fit import fit_entry
from gateway.usage.journal import Journal, read_segment
from gateway.usage.ledger import BatchListener, Entry, Settle, make_entry, write_entries
from gateway.usage.pricing import Pricer
from gateway.usage.quarantine import Quarantine, reason_of
from gateway.usage.records import UsageRecord

log = logging.getLogger("gateway.usage")

__all__ = ["BatchListener", "Observer", "Recorder"]

Observer = Callable[[UsageRecord, Entry], None]


class Recorder:
    def __init__(
        self,
        engine: Engine,
        pricer: Pricer,
        journal: Journal | None = None,
        *,
        settle: Settle | None = None,
        observers: Sequence[Observer] = (),
        listeners: Sequence[BatchListener] = (),
        batch_size: int = 500,
        flush_interval: float = 0.2,
        sync_interval: float = 0.05,
        max_buffer: int = 100_000,
        quarantine: Quarantine | None = None,
    ) -> None:
        self._engine = engine
        self.quarantine = quarantine if quarantine is not None else Quarantine(None)
        self._pricer = pricer
        self._journal = journal
        self._settle = settle
        self._observers = tuple(observers)
        self._listeners = tuple(listeners)
        self._batch_size = batch_size
        self._interval = flush_interval
        self._sync_interval = sync_interval
        self._max_buffer = max_buffer
        self._buffer: deque[tuple[int | None, Entry]] = deque()
        self._leftovers: list[Path] = []
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: list[asyncio.Task[None]] = []
        self.written = 0
        self.replayed = 0

    # ---- request path ----------------------------------------------------------------
    def record(self, rec: UsageRecord) -> Decimal | None:
        """Queue the row; returns its cost in USD as the ledger keeps it (None: unknown), so
        the answer can carry the same figure."""
        try:
            return self._record(rec)
        except Exception as exc:  # a ledger problem must never fail a request
            log.error("usage record %s not queued: %s", rec.request_id, type(exc).__name__)
            return None

    def _record(self, rec: UsageRecord) -> Decimal | None:
        tps = self._measure(rec)
        if rec.onprem_cost_usd is not None:  # the node's hourly cost, shared (never per-tps)
            cost = self._pricer.shared_onprem(rec.onprem_cost_usd)
        else:
            cost = self._pricer.price(
                rec.backend, rec.prompt_tokens, rec.completion_tokens, rec.cached_tokens
            )
        entry = make_entry(rec, cost, tps)
        seq: int | None = None
        if self._journal is not None:
            try:
                seq = self._journal.append(entry)
            except OSError as exc:
                log.error("journal append failed (%s); entry kept in memory", exc.strerror)
        if len(self._buffer) < self._max_buffer:
            self._buffer.append((seq, entry))
            self._idle.clear()
            self._wake.set()
        elif seq is not None:
            self._journal.keep_for_replay(seq)  # type: ignore[union-attr]
        else:
            log.error("usage buffer full and no journal: record %s lost", rec.request_id)
        for observe in self._observers:
            try:
                observe(rec, entry)
            except Exception as exc:
                log.warning("usage observer failed: %s", type(exc).__name__)
        return cost.amount

    def _measure(self, rec: UsageRecord) -> float | None:
        """Generation tokens/s of this request (and feed the backend's on-prem cost meter)."""
        if rec.backend is None or rec.status != 200 or rec.completion_tokens <= 0:
            return None
        gen_ms = rec.latency_ms - (rec.ttft_ms or 0.0) if rec.streamed else rec.latency_ms
        return self._pricer.meter.observe(rec.backend, rec.completion_tokens, gen_ms / 1000)

    # ---- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        if self._journal is not None:
            self._leftovers = await asyncio.to_thread(self._journal.open)
            if self._leftovers:
                self._idle.clear()
                self._wake.set()
            self._tasks.append(asyncio.create_task(self._sync_loop(), name="usage-journal-sync"))
        self._tasks.append(asyncio.create_task(self._run(), name="usage-recorder"))

    async def drain(self, timeout: float = 10.0) -> bool:
        """Wait until everything recorded so far is in the database."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
            return True
        except TimeoutError:
            return False

    async def stop(self, timeout: float = 10.0) -> None:
        await self.drain(timeout)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._journal is not None:
            self._journal.sync()
            self._journal.close()

    @property
    def backlog(self) -> int:
        return len(self._buffer)

    # ---- background ------------------------------------------------------------------
    async def _sync_loop(self) -> None:
        assert self._journal is not None
        while True:
            await asyncio.sleep(self._sync_interval)
            await asyncio.to_thread(self._journal.sync)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            for path in self._leftovers:
                await self._replay(path)
            self._leftovers = []
            await asyncio.sleep(self._interval)
            while self._buffer:
                batch = [
                    self._buffer.popleft() for _ in range(min(self._batch_size, len(self._buffer)))
                ]
                self.written += await self._write_safely([e for _, e in batch])
                self._committed(batch)
            if self._journal is not None:
                self._journal.rotate_if_kept()
                for path in self._journal.closed_kept_segments():
                    await self._replay(path)
            if not self._buffer:
                self._idle.set()

    def _committed(self, batch: list[tuple[int | None, Entry]]) -> None:
        if self._journal is None:
            return
        counts: dict[int, int] = {}
        for seq, _ in batch:
            if seq is not None:
                counts[seq] = counts.get(seq, 0) + 1
        for seq, n in counts.items():
            self._journal.committed(seq, n)

    async def _write_safely(self, entries: list[Entry]) -> int:
        """Write a batch; returns how many rows were new. While the database is away, wait
        and retry; when it refuses the batch, retry row by row and quarantine each row it
        refuses on its own. Returns once every entry is written or quarantined."""
        new, refused = await self._until_not_away(entries)
        if refused is None:
            return new
        log.warning(
            "ledger batch of %d refused (%s); writing it row by row",
            len(entries),
            reason_of(refused),
        )
        for entry in entries:
            n, refused = await self._until_not_away([entry])
            new += n
            if refused is not None:
                await asyncio.to_thread(self.quarantine.add, entry, reason_of(refused))
        return new

    async def _until_not_away(self, entries: list[Entry]) -> tuple[int, Exception | None]:
        delay = 0.1
        while True:
            try:
                n = await asyncio.to_thread(
                    write_entries, self._engine, entries, self._settle, self._listeners
                )
                return n, None
            except Exception as exc:
                if not _database_away(exc) and await self._reachable():
                    return 0, exc
                log.warning(
                    "ledger write failed (%s); retrying in %.1fs", type(exc).__name__, delay
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)

    async def _reachable(self) -> bool:
        """Whether the database answers at all: a refusal while it does not (a restart
        mid-transaction can surface as any error) is a wait, never a quarantine."""

        def ping() -> None:
            with self._engine.connect() as conn:
                conn.execute(text("SELECT 1"))

        try:
            await asyncio.to_thread(ping)
            return True
        except Exception:
            return False

    async def _replay(self, path: Path) -> None:
        try:  # entries of an older build may predate fitting: fit them too
            entries = await asyncio.to_thread(lambda: [fit_entry(e) for e in read_segment(path)])
        except OSError as exc:
            log.error("journal segment %s unreadable (%s); left in place", path.name, exc.strerror)
            return
        for i in range(0, len(entries), self._batch_size):
            self.replayed += await self._write_safely(entries[i : i + self._batch_size])
        if self._journal is not None:
            self._journal.forget(path)
        log.info("journal segment %s replayed", path.name)


def _database_away(exc: Exception) -> bool:
    """The database cannot be reached or is restarting (retry the same rows later), as
    opposed to refusing these rows (DataError, IntegrityError, a value that cannot be
    converted, ...). Driver errors raised outside SQLAlchemy (the COPY path) are judged by
    their DB-API class names."""
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, sa_exc.DisconnectionError | sa_exc.TimeoutError | OSError):
        return True
    seen = [type(exc), *([type(exc.orig)] if isinstance(exc, sa_exc.DBAPIError) else [])]
    return any(k.__name__ in _AWAY for t in seen for k in t.__mro__)


_AWAY = frozenset({"OperationalError", "InterfaceError"})  # PEP 249 names
