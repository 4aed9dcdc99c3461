"""Rollups kept incrementally from the recorder's batches equal a rebuild from the ledger."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlmodel import Session

from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import (
    MONTHLY,
    RollupListener,
    RollupRow,
    bucket_of,
    percentile_from_buckets,
    zone_resolver,
)
from gateway.usage.tables import RequestRow
from tests.unit.reports.helpers import ZONES, make_rows

ROLL = RollupRow.__table__  # type: ignore[attr-defined]


def _snapshot(engine: Engine) -> list[tuple[object, ...]]:
    with engine.connect() as conn:
        return [
            tuple(r)
            for t in (ROLL, MONTHLY)
            for r in conn.execute(select(t).order_by(*t.primary_key))
        ]


def _write_like_recorder(engine: Engine, rows: list[RequestRow]) -> None:
    listener = RollupListener(zone_resolver(ZONES))
    with Session(engine) as session:
        listener(session, rows)
        for r in rows:
            session.merge(r)
        session.commit()


def test_incremental_equals_rebuild(engine: Engine) -> None:
    rows = make_rows(240)
    for i in range(0, 240, 50):  # several batches hitting the same keys
        _write_like_recorder(engine, [r.model_copy() for r in rows[i : i + 50]])
    incremental = _snapshot(engine)
    n = ROLL.c.keys().index("requests")
    assert sum(r[n] for r in incremental) == 2 * 240  # daily + monthly
    written = rebuild(engine, zone_resolver(ZONES))
    assert _snapshot(engine) == incremental
    assert written < len(incremental)  # daily rows only; the rest are monthly


def test_replayed_batch_is_counted_once(engine: Engine) -> None:
    rows = make_rows(30)
    _write_like_recorder(engine, [r.model_copy() for r in rows])
    _write_like_recorder(engine, [r.model_copy() for r in rows[:10]])  # journal replay
    with engine.connect() as conn:
        total = conn.execute(select(ROLL.c.requests)).scalars().all()
        cost = sum(conn.execute(select(ROLL.c.cost_nanos)).scalars().all())
    assert sum(total) == 30
    assert Decimal(cost) / 10**9 == sum(r.cost or 0 for r in rows)


def test_buckets_and_p95() -> None:
    assert bucket_of(0) == 0 and bucket_of(50) == 0 and bucket_of(50.1) == 1
    assert bucket_of(99_999) == 12
    counts = [0] * 13
    for ms in range(1, 101):  # 1..100 ms, then 5 slow requests at 2 s
        counts[bucket_of(ms)] += 1
    assert percentile_from_buckets(counts) == 100.0
    counts[bucket_of(2000)] += 10
    assert percentile_from_buckets(counts) == 2000.0
    assert percentile_from_buckets([0] * 13) is None
