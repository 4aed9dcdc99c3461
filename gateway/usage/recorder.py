"""Write usage records off the request path, in batches, without ever raising into a request."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session

from gateway.usage.records import UsageRecord
from gateway.usage.tables import AttemptRow, RequestRow

log = logging.getLogger("gateway.usage")

BatchListener = Callable[[Session, Sequence[RequestRow]], None]
"""Called inside the ledger write transaction, before the batch's rows are added (so it can
tell new request ids from replayed ones); e.g. the daily rollups. It must not commit."""


def to_rows(rec: UsageRecord) -> list[RequestRow | AttemptRow]:
    rows: list[RequestRow | AttemptRow] = [RequestRow(
        id=rec.request_id, created_at=datetime.fromtimestamp(rec.created_at, UTC),
        tenant=rec.tenant, app=rec.app, key_id=rec.key_id, alias=rec.alias,
        backend=rec.backend, model=rec.model, data_class=rec.data_class, rule=rec.rule,
        status=rec.status, error_kind=rec.error_kind, prompt_tokens=rec.prompt_tokens,
        completion_tokens=rec.completion_tokens, cached_tokens=rec.cached_tokens,
        estimated=rec.estimated, streamed=rec.streamed, latency_ms=rec.latency_ms,
        ttft_ms=rec.ttft_ms, attempts=len(rec.attempts), trace=rec.trace,
    )]
    for a in rec.attempts:
        rows.append(AttemptRow(request_id=rec.request_id, ordinal=a.ordinal, backend=a.backend,
                               outcome=a.outcome, failure_kind=a.failure_kind, status=a.status,
                               latency_ms=a.latency_ms))
    return rows


class Recorder:
    """Queue records; a background task writes them in batches in a worker thread."""

    def __init__(self, engine: Engine, *, batch_size: int = 500, flush_interval: float = 0.2,
                 max_queue: int = 100_000, listeners: Sequence[BatchListener] = ()) -> None:
        self._engine = engine
        self._listeners = tuple(listeners)
        self._batch_size = batch_size
        self._interval = flush_interval
        self._queue: asyncio.Queue[UsageRecord] = asyncio.Queue(max_queue)
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()
        self.written = 0

    def record(self, rec: UsageRecord) -> None:
        try:
            self._queue.put_nowait(rec)
            self._idle.clear()
        except asyncio.QueueFull:
            log.error("usage queue full; record %s dropped", rec.request_id)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="usage-recorder")

    async def _run(self) -> None:
        while True:
            first = await self._queue.get()
            await asyncio.sleep(self._interval)
            batch = [first]
            while len(batch) < self._batch_size and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._write_with_retry(batch)
            if self._queue.empty():
                self._idle.set()

    async def _write_with_retry(self, batch: list[UsageRecord]) -> None:
        delay = 0.2
        while True:
            try:
                await asyncio.to_thread(self._write, batch)
                self.written += len(batch)
                return
            except Exception as exc:  # the database may be down; keep the batch and retry
                log.warning("ledger write failed (%s); retrying in %.1fs", type(exc).__name__,
                            delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _write(self, batch: list[UsageRecord]) -> None:
        with Session(self._engine) as session:
            rows = [row for rec in batch for row in to_rows(rec)]
            requests = [r for r in rows if isinstance(r, RequestRow)]
            for listener in self._listeners:
                listener(session, requests)
            for row in rows:
                session.merge(row)
            session.commit()

    async def drain(self, timeout: float = 10.0) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    async def stop(self, timeout: float = 10.0) -> None:
        await self.drain(timeout)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
