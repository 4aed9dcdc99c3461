"""Daily usage rollups: one row per (day, tenant, app, backend, model, data_class, zone, currency).

Reports read these rows instead of the ledger, so a monthly report touches a few thousand rows
however large the ledger grows. Two ways keep the table current:

* incrementally: `RollupListener` is one of the recorder's batch listeners; it runs inside the
  ledger write transaction and upserts the batch's deltas, so ledger and rollups commit together;
* in bulk: `rebuild()` recomputes a date range from the ledger (backfill, repair, benchmarks).

TTFT is kept as a small fixed-bucket histogram per row (`TTFT_BOUNDS_MS`), so a p95 can be taken
from the merged buckets of any group of rows. Days are UTC days.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
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
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Field, Session, SQLModel

from gateway.usage.tables import RequestRow

# Upper bounds (ms) of the TTFT buckets; one more bucket holds everything above the last bound.
TTFT_BOUNDS_MS: tuple[int, ...] = (50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000,
                                   10000)
N_BUCKETS = len(TTFT_BOUNDS_MS) + 1
BUCKET_COLUMNS: tuple[str, ...] = tuple(f"ttft_b{i:02d}" for i in range(N_BUCKETS))
KEY_COLUMNS: tuple[str, ...] = ("day", "tenant", "app", "backend", "model", "data_class", "zone",
                                "currency")
SUM_COLUMNS: tuple[str, ...] = ("requests", "errors", "prompt_tokens", "completion_tokens",
                                "cost_nanos", "cost_try_nanos", *BUCKET_COLUMNS)

ZoneOf = Callable[[str], str | None]
"""backend name -> "on_prem" | "cloud" | None (unknown backend)."""


class RollupRow(SQLModel, table=True):
    """Daily usage per key. Empty string, never NULL, for an unknown key part (keeps the PK)."""

    __tablename__ = "usage_daily"

    day: date = Field(primary_key=True)
    tenant: str = Field(primary_key=True, max_length=128)
    app: str = Field(primary_key=True, max_length=128)
    backend: str = Field(primary_key=True, max_length=128)
    model: str = Field(primary_key=True, max_length=256)
    data_class: str = Field(primary_key=True, max_length=16)
    zone: str = Field(primary_key=True, max_length=16)
    currency: str = Field(primary_key=True, max_length=3)
    requests: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    errors: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    prompt_tokens: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    completion_tokens: int = Field(default=0,
                                   sa_column=Column(BigInteger, nullable=False, default=0))
    # money as exact integer nano-units of `currency` (1e-9): exact sums on SQLite and PostgreSQL
    cost_nanos: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    # the same traffic in TRY at the rate each ledger row was priced with
    cost_try_nanos: int = Field(default=0,
                                sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b00: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b01: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b02: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b03: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b04: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b05: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b06: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b07: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b08: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b09: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b10: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b11: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    ttft_b12: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))


def bucket_of(ttft_ms: float) -> int:
    for i, bound in enumerate(TTFT_BOUNDS_MS):
        if ttft_ms <= bound:
            return i
    return N_BUCKETS - 1


def percentile_from_buckets(counts: Sequence[int], q: float = 0.95) -> float | None:
    """The upper bound of the bucket holding the q-quantile (the last bucket reports its lower
    bound, i.e. "at least"). None when no TTFT was recorded."""
    total = sum(counts)
    if total == 0:
        return None
    rank = q * total
    seen = 0
    for i, c in enumerate(counts):
        seen += c
        if seen >= rank and c > 0:
            return float(TTFT_BOUNDS_MS[min(i, len(TTFT_BOUNDS_MS) - 1)])
    return float(TTFT_BOUNDS_MS[-1])


@dataclass
class Delta:
    """Sums for one rollup key."""

    requests: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Decimal = Decimal(0)
    cost_try: Decimal = Decimal(0)
    buckets: list[int] = field(default_factory=lambda: [0] * N_BUCKETS)

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {"requests": self.requests, "errors": self.errors,
                               "prompt_tokens": self.prompt_tokens,
                               "completion_tokens": self.completion_tokens,
                               "cost_nanos": to_nanos(self.cost),
                               "cost_try_nanos": to_nanos(self.cost_try)}
        out.update(zip(BUCKET_COLUMNS, self.buckets, strict=True))
        return out


Key = tuple[date, str, str, str, str, str, str, str]


NANOS_INT = 1_000_000_000
NANOS = Decimal(NANOS_INT)


def to_nanos(amount: Decimal) -> int:
    return int((amount * NANOS).to_integral_value())


def from_nanos(nanos: int) -> Decimal:
    return Decimal(nanos) / NANOS


def is_error(status: int, error_kind: str | None) -> bool:
    return status >= 400 or error_kind is not None


def _utc_day(ts: datetime) -> date:
    if ts.tzinfo is not None:
        ts = ts.astimezone(UTC)
    return ts.date()


def _money(v: Decimal | None) -> Decimal:
    return Decimal(0) if v is None else Decimal(v)


def aggregate(rows: Iterable[RequestRow], zone_of: ZoneOf) -> dict[Key, Delta]:
    deltas: dict[Key, Delta] = {}
    for r in rows:
        backend = r.backend or ""
        zone = (zone_of(backend) or "") if backend else ""
        key: Key = (_utc_day(r.created_at), r.tenant or "", r.app or "", backend, r.model or "",
                    r.data_class or "", zone, r.currency or "USD")
        d = deltas.get(key)
        if d is None:
            d = deltas[key] = Delta()
        d.requests += 1
        d.errors += int(is_error(r.status, r.error_kind))
        d.prompt_tokens += r.prompt_tokens
        d.completion_tokens += r.completion_tokens
        d.cost += _money(r.cost)
        d.cost_try += _money(r.cost_try)
        if r.ttft_ms is not None:
            d.buckets[bucket_of(r.ttft_ms)] += 1
    return deltas


def _insert_for(conn: Connection) -> Any:
    name = conn.dialect.name
    if name == "postgresql":
        return postgresql.insert
    if name == "sqlite":
        return sqlite.insert
    raise NotImplementedError(f"rollups need SQLite or PostgreSQL, not {name}")


def upsert(conn: Connection, deltas: dict[Key, Delta]) -> None:
    """Add `deltas` to the rollup rows (created when missing), in the caller's transaction."""
    if not deltas:
        return
    table = RollupRow.__table__  # type: ignore[attr-defined]
    params = [dict(zip(KEY_COLUMNS, k, strict=True)) | d.values() for k, d in deltas.items()]
    stmt = _insert_for(conn)(table)
    stmt = stmt.on_conflict_do_update(
        index_elements=list(KEY_COLUMNS),
        set_={c: table.c[c] + stmt.excluded[c] for c in SUM_COLUMNS})
    conn.execute(stmt, params)


class RollupListener:
    """A recorder batch listener: called inside the ledger transaction, before the batch's
    request rows are added. Rows whose id is already in the ledger (a replayed journal, a
    retried batch that did commit) are skipped, so each request is counted once."""

    def __init__(self, zone_of: ZoneOf) -> None:
        self._zone_of = zone_of

    def __call__(self, session: Session, rows: Sequence[RequestRow]) -> None:
        if not rows:
            return
        ids = [r.id for r in rows]
        req, _ = _tables()
        existing = set(session.execute(select(req.c.id).where(req.c.id.in_(ids))).scalars())
        fresh = [r for r in rows if r.id not in existing]
        upsert(session.connection(), aggregate(fresh, self._zone_of))


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


def _ledger_aggregate(req: Table, dialect: str) -> Select[Any]:
    """GROUP BY the rollup key over the ledger."""
    c = req.c
    cur = func.coalesce(c.currency, "USD") if "currency" in c else literal("USD")
    cost = [func.sum(cast(func.round(c[name] * NANOS_INT), BigInteger)) if name in c
            else literal(0) for name in ("cost", "cost_try")]
    group = [_utc_date(c.created_at, dialect), func.coalesce(c.tenant, ""),
             func.coalesce(c.app, ""), func.coalesce(c.backend, ""), func.coalesce(c.model, ""),
             func.coalesce(c.data_class, ""), cur]
    err = case(((c.status >= 400) | c.error_kind.is_not(None), 1), else_=0)
    return select(*group, func.count(), func.sum(err), func.sum(c.prompt_tokens),
                  func.sum(c.completion_tokens), *cost, *_bucket_sums(c.ttft_ms)).group_by(*group)


def utc_midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _as_date(v: Any) -> date:
    if isinstance(v, datetime):
        return v.date()
    if isinstance(v, date):
        return v
    return date.fromisoformat(str(v)[:10])


def _delta_from(vals: Sequence[Any]) -> Delta:
    d = Delta(requests=int(vals[0]), errors=int(vals[1] or 0), prompt_tokens=int(vals[2] or 0),
              completion_tokens=int(vals[3] or 0), cost=from_nanos(int(vals[4] or 0)),
              cost_try=from_nanos(int(vals[5] or 0)))
    d.buckets = [int(v or 0) for v in vals[6:6 + N_BUCKETS]]
    return d


def rebuild(engine: Engine, zone_of: ZoneOf, start: date | None = None,
            end: date | None = None) -> int:
    """Recompute rollups for UTC days in [start, end] (all days when None) from the ledger.

    One transaction, so readers see the old rows or the new ones. Returns rows written."""
    req, roll = _tables()
    q = _ledger_aggregate(req, engine.dialect.name)
    rdel = delete(roll)
    if start is not None:
        q = q.where(req.c.created_at >= utc_midnight(start))
        rdel = rdel.where(roll.c.day >= start)
    if end is not None:
        q = q.where(req.c.created_at < utc_midnight(date.fromordinal(end.toordinal() + 1)))
        rdel = rdel.where(roll.c.day <= end)
    with engine.begin() as conn:
        deltas: dict[Key, Delta] = {}
        for rec in conn.execute(q):
            backend = str(rec[3])
            key: Key = (_as_date(rec[0]), str(rec[1]), str(rec[2]), backend, str(rec[4]),
                        str(rec[5]), (zone_of(backend) or "") if backend else "", str(rec[6]))
            deltas[key] = _delta_from(rec[7:])
        conn.execute(rdel)
        upsert(conn, deltas)
    return len(deltas)


def zone_resolver(zones: dict[str, str]) -> ZoneOf:
    """A ZoneOf from a {backend: zone} mapping (e.g. built from the policy's backends)."""
    return zones.get
