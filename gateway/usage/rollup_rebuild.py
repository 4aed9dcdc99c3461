"""Rollups recomputed in bulk from the ledger, in the database (INSERT ... SELECT ... GROUP BY):
backfill, repair and benchmarks. The incremental path (`rollups.RollupListener`) keeps them
current between rebuilds; both write the same rows."""

from __future__ import annotations

from calendar import monthrange
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Date,
    Select,
    Table,
    and_,
    case,
    cast,
    delete,
    func,
    literal,
    select,
)
from sqlalchemy.engine import Connection, Engine

from gateway.usage.rollups import (
    KEY_COLUMNS,
    MONTH_KEY_COLUMNS,
    MONTHLY,
    NANOS_INT,
    SUM_COLUMNS,
    TTFT_BOUNDS_MS,
    RollupRow,
    ZoneOf,
    month_of,
)
from gateway.usage.tables import RequestRow
from gateway.usage.tag_rollups import rebuild_tags

__all__ = ["rebuild", "utc_midnight"]


def _tables() -> tuple[Table, Table]:
    return RequestRow.__table__, RollupRow.__table__  # type: ignore[attr-defined]


def _bucket_sums(ttft: Any) -> list[Any]:
    sums = []
    lo: int | None = None
    for bound in (*TTFT_BOUNDS_MS, None):
        conds = [ttft.is_not(None)]
        if lo is not None:
            conds.append(ttft > lo)
        if bound is not None:
            conds.append(ttft <= bound)
        sums.append(func.sum(case((and_(*conds), 1), else_=0)))
        lo = bound
    return sums


def _utc_date(col: Any, dialect: str) -> Any:
    """The UTC day of a timestamp column: PostgreSQL's timestamptz needs an explicit zone;
    SQLite holds the UTC wall-clock text the recorder wrote."""
    if dialect == "postgresql":
        return func.date(func.timezone("UTC", col))
    return func.date(col)


def _ledger_aggregate(req: Table, dialect: str, zones: dict[str, str]) -> Select[Any]:
    """GROUP BY the rollup key over the ledger, in rollup column order (KEY + SUM columns)."""
    c = req.c
    cur = func.coalesce(c.currency, "USD")
    cost = [
        func.coalesce(func.sum(cast(func.round(c[name] * NANOS_INT), BigInteger)), 0)
        for name in ("cost", "cost_try")
    ]
    backend = func.coalesce(c.backend, "")
    zone: Any = (
        case(*[(backend == b, z) for b, z in zones.items()], else_="") if zones else literal("")
    )
    group = [
        _utc_date(c.created_at, dialect),
        func.coalesce(c.tenant, ""),
        func.coalesce(c.app, ""),
        backend,
        func.coalesce(c.model, ""),
        func.coalesce(c.data_class, ""),
        zone,
        cur,
    ]
    err = case(((c.status >= 400) | c.error_kind.is_not(None), 1), else_=0)
    unknown = c.cost.is_(None)
    unpriced = [
        func.sum(case((unknown, v), else_=0)) for v in (1, c.prompt_tokens, c.completion_tokens)
    ]
    return select(
        *group,
        func.count(),
        func.sum(err),
        func.sum(c.prompt_tokens),
        func.sum(c.completion_tokens),
        *cost,
        *_bucket_sums(c.ttft_ms),
        *unpriced,
    ).group_by(*group)


def utc_midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _as_date(v: Any) -> date:
    if isinstance(v, datetime):
        return v.date()
    if isinstance(v, date):
        return v
    return date.fromisoformat(str(v)[:10])


def rebuild(
    engine: Engine, zone_of: ZoneOf, start: date | None = None, end: date | None = None
) -> int:
    """Recompute rollups for UTC days in [start, end] (all days when None) from the ledger,
    in the database (INSERT ... SELECT ... GROUP BY). One transaction, so readers see the old
    rows or the new ones. Returns the number of rollup rows written."""
    req, roll = _tables()
    where: list[Any] = []
    days: list[Any] = []
    if start is not None:
        where.append(req.c.created_at >= utc_midnight(start))
        days.append(roll.c.day >= start)
    if end is not None:
        where.append(req.c.created_at < utc_midnight(date.fromordinal(end.toordinal() + 1)))
        days.append(roll.c.day <= end)
    with engine.begin() as conn:
        names = conn.execute(select(req.c.backend).where(*where).distinct()).scalars()
        zones = {b: z for b in names if b and (z := zone_of(b))}
        agg = _ledger_aggregate(req, engine.dialect.name, zones).where(*where)
        conn.execute(delete(roll).where(*days))
        conn.execute(roll.insert().from_select(list(KEY_COLUMNS + SUM_COLUMNS), agg))
        _rebuild_months(conn, roll, start, end)
        rebuild_tags(conn, zones.get, where, start, end)
        return int(conn.execute(select(func.count()).select_from(roll).where(*days)).scalar_one())


def _month_expr(col: Any, dialect: str) -> Any:
    if dialect == "postgresql":
        return cast(func.date_trunc("month", col), Date)
    return func.date(col, "start of month")


def _rebuild_months(conn: Connection, roll: Table, start: date | None, end: date | None) -> None:
    """Recompute the months that [start, end] touches from the (complete) daily rows."""
    days: list[Any] = []
    months: list[Any] = []
    if start is not None:
        days.append(roll.c.day >= month_of(start))
        months.append(MONTHLY.c.month >= month_of(start))
    if end is not None:
        days.append(roll.c.day <= end.replace(day=monthrange(end.year, end.month)[1]))
        months.append(MONTHLY.c.month <= month_of(end))
    keys = [_month_expr(roll.c.day, conn.dialect.name), *[roll.c[k] for k in KEY_COLUMNS[1:]]]
    agg = select(*keys, *[func.sum(roll.c[c]) for c in SUM_COLUMNS]).where(*days).group_by(*keys)
    conn.execute(delete(MONTHLY).where(*months))
    conn.execute(MONTHLY.insert().from_select(list(MONTH_KEY_COLUMNS + SUM_COLUMNS), agg))
