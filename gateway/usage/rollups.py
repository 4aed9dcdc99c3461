"""Daily usage rollups: one row per (day, tenant, app, backend, model, data_class, zone, currency).

Reports read these rows instead of the ledger, so a monthly report touches a few thousand rows
however large the ledger grows. Two ways keep the table current:

* incrementally: `RollupListener` is one of the recorder's batch listeners; it runs inside the
  ledger write transaction and upserts the batch's deltas, so ledger and rollups commit together;
* in bulk: `rollup_rebuild.rebuild()` recomputes a date range from the ledger (backfill,
  repair, benchmarks).

TTFT is kept as a small fixed-bucket histogram per row (`TTFT_BOUNDS_MS`), so a p95 can be taken
from the merged buckets of any group of rows. Days are UTC days.

A ledger row whose cost is unknown (NULL: no price for its backend) adds nothing to the cost sums
but is counted in `unpriced_requests` (with its tokens in `unpriced_prompt_tokens` /
`unpriced_completion_tokens`), so a report can tell a complete cost from one that leaves some
traffic out (an unknown cost is never a silent zero).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Date,
    String,
    Table,
    select,
)
from sqlalchemy.engine import Connection
from sqlmodel import Field, Session, SQLModel

from gateway.usage.bulk import upsert_sums
from gateway.usage.tables import RequestRow

# Upper bounds (ms) of the TTFT buckets; one more bucket holds everything above the last bound.
TTFT_BOUNDS_MS: tuple[int, ...] = (50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000)
N_BUCKETS = len(TTFT_BOUNDS_MS) + 1
BUCKET_COLUMNS: tuple[str, ...] = tuple(f"ttft_b{i:02d}" for i in range(N_BUCKETS))
KEY_COLUMNS: tuple[str, ...] = (
    "day",
    "tenant",
    "app",
    "backend",
    "model",
    "data_class",
    "zone",
    "currency",
)
UNPRICED_COLUMNS: tuple[str, ...] = (
    "unpriced_requests",
    "unpriced_prompt_tokens",
    "unpriced_completion_tokens",
)
SUM_COLUMNS: tuple[str, ...] = (
    "requests",
    "errors",
    "prompt_tokens",
    "completion_tokens",
    "cost_nanos",
    "cost_try_nanos",
    *BUCKET_COLUMNS,
    *UNPRICED_COLUMNS,
)

ZoneOf = Callable[[str], str | None]
"""backend name -> "on_prem" | "cloud" | None (unknown backend)."""


def _count_column(name: str | None = None, *, server_default: bool = False) -> Any:
    """A NOT NULL BIGINT sum column; the unpriced counts (migration 0005) also carry a server
    default of 0, which is how they were added to tables that already had rows."""
    args: tuple[Any, ...] = (BigInteger,) if name is None else (name, BigInteger)
    return Column(*args, nullable=False, default=0, server_default="0" if server_default else None)


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
    completion_tokens: int = Field(
        default=0, sa_column=Column(BigInteger, nullable=False, default=0)
    )
    # money as exact integer nano-units of `currency` (1e-9): exact sums on SQLite and PostgreSQL
    cost_nanos: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
    # the same traffic in TRY at the rate each ledger row was priced with
    cost_try_nanos: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, default=0))
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
    # requests whose cost is unknown (NULL in the ledger) and their tokens: not in the cost sums
    unpriced_requests: int = Field(default=0, sa_column=_count_column(server_default=True))
    unpriced_prompt_tokens: int = Field(default=0, sa_column=_count_column(server_default=True))
    unpriced_completion_tokens: int = Field(default=0, sa_column=_count_column(server_default=True))


MONTH_KEY_COLUMNS: tuple[str, ...] = ("month", *KEY_COLUMNS[1:])
_KEY_LENGTHS = {
    "tenant": 128,
    "app": 128,
    "backend": 128,
    "model": 256,
    "data_class": 16,
    "zone": 16,
    "currency": 3,
}
MONTHLY = Table(
    "usage_monthly",
    SQLModel.metadata,
    Column("month", Date, primary_key=True),  # the 1st of the UTC month
    *[Column(k, String(n), primary_key=True) for k, n in _KEY_LENGTHS.items()],
    *[_count_column(c, server_default=c in UNPRICED_COLUMNS) for c in SUM_COLUMNS],
)
"""The same sums per calendar month: a monthly report reads ~30x fewer rows than daily."""


def month_of(day: date) -> date:
    return day.replace(day=1)


def bucket_of(ttft_ms: float) -> int:
    """The first bucket whose bound is >= ttft_ms (a binary search); NaN: the last one."""
    if ttft_ms != ttft_ms:  # NaN compares false with every bound
        return N_BUCKETS - 1
    return bisect_left(TTFT_BOUNDS_MS, ttft_ms)


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
    unpriced_requests: int = 0
    unpriced_prompt_tokens: int = 0
    unpriced_completion_tokens: int = 0

    def add(self, other: Delta) -> None:
        self.requests += other.requests
        self.errors += other.errors
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost += other.cost
        self.cost_try += other.cost_try
        self.buckets = [a + b for a, b in zip(self.buckets, other.buckets, strict=True)]
        self.unpriced_requests += other.unpriced_requests
        self.unpriced_prompt_tokens += other.unpriced_prompt_tokens
        self.unpriced_completion_tokens += other.unpriced_completion_tokens

    def sums(self) -> tuple[int, ...]:
        """The SUM_COLUMNS values, in that order."""
        return (
            self.requests,
            self.errors,
            self.prompt_tokens,
            self.completion_tokens,
            to_nanos(self.cost),
            to_nanos(self.cost_try),
            *self.buckets,
            self.unpriced_requests,
            self.unpriced_prompt_tokens,
            self.unpriced_completion_tokens,
        )

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "requests": self.requests,
            "errors": self.errors,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_nanos": to_nanos(self.cost),
            "cost_try_nanos": to_nanos(self.cost_try),
        }
        out.update(zip(BUCKET_COLUMNS, self.buckets, strict=True))
        out.update(
            unpriced_requests=self.unpriced_requests,
            unpriced_prompt_tokens=self.unpriced_prompt_tokens,
            unpriced_completion_tokens=self.unpriced_completion_tokens,
        )
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


_ROW_FIELDS = (
    "created_at",
    "tenant",
    "app",
    "backend",
    "model",
    "data_class",
    "currency",
    "status",
    "error_kind",
    "prompt_tokens",
    "completion_tokens",
    "cost",
    "cost_try",
    "ttft_ms",
)


def aggregate(rows: Iterable[RequestRow], zone_of: ZoneOf) -> dict[Key, Delta]:
    """The deltas of ledger rows given as objects (RequestRow)."""
    return aggregate_rows(({f: getattr(r, f) for f in _ROW_FIELDS} for r in rows), zone_of)


def aggregate_rows(rows: Iterable[Mapping[str, Any]], zone_of: ZoneOf) -> dict[Key, Delta]:
    """The deltas of ledger rows given as dicts (the ledger writer's insert parameters): one
    Delta per distinct rollup key, so the upsert touches each key once per batch."""
    deltas: dict[Key, Delta] = {}
    zones: dict[str, str] = {"": ""}
    days: dict[datetime, date] = {}
    for r in rows:
        backend = r["backend"] or ""
        zone = zones.get(backend)
        if zone is None:
            zone = zones[backend] = zone_of(backend) or ""
        ts = r["created_at"]
        day = days.get(ts)
        if day is None:
            day = days[ts] = _utc_day(ts)
        key: Key = (
            day,
            r["tenant"] or "",
            r["app"] or "",
            backend,
            r["model"] or "",
            r["data_class"] or "",
            zone,
            r["currency"] or "USD",
        )
        d = deltas.get(key)
        if d is None:
            d = deltas[key] = Delta()
        d.requests += 1
        status, kind = r["status"], r["error_kind"]
        if status >= 400 or kind is not None:
            d.errors += 1
        prompt, completion = r["prompt_tokens"], r["completion_tokens"]
        d.prompt_tokens += prompt
        d.completion_tokens += completion
        cost = r["cost"]
        if cost is None:  # unknown, not zero: counted apart, never added to the cost
            d.unpriced_requests += 1
            d.unpriced_prompt_tokens += prompt
            d.unpriced_completion_tokens += completion
        else:
            d.cost += cost if isinstance(cost, Decimal) else Decimal(cost)
        cost_try = r["cost_try"]
        if cost_try is not None:
            d.cost_try += cost_try if isinstance(cost_try, Decimal) else Decimal(cost_try)
        ttft = r["ttft_ms"]
        if ttft is not None:
            d.buckets[bucket_of(ttft)] += 1
    return deltas


def _upsert(
    conn: Connection, table: Table, keys: tuple[str, ...], deltas: dict[Key, Delta]
) -> None:
    upsert_sums(conn, table, keys, SUM_COLUMNS, [(*k, *d.sums()) for k, d in deltas.items()])


def upsert(conn: Connection, deltas: dict[Key, Delta]) -> None:
    """Add `deltas` to the daily and monthly rollup rows (created when missing), in the
    caller's transaction."""
    if not deltas:
        return
    _upsert(conn, RollupRow.__table__, KEY_COLUMNS, deltas)  # type: ignore[attr-defined]
    months: dict[Key, Delta] = {}
    for k, d in deltas.items():
        m = months.setdefault((month_of(k[0]), *k[1:]), Delta())
        m.add(d)
    _upsert(conn, MONTHLY, MONTH_KEY_COLUMNS, months)


class RollupListener:
    """A recorder batch listener: runs inside the ledger transaction. The ledger writer calls
    `write_fresh` with only the batch's rows whose id is not in the ledger yet (a replayed
    journal, a retried batch that did commit are left out), so each request is counted once;
    `__call__` is the older form that finds the new rows itself."""

    def __init__(self, zone_of: ZoneOf) -> None:
        self._zone_of = zone_of

    def write_fresh(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        if rows:
            upsert(conn, aggregate_rows(rows, self._zone_of))

    def __call__(self, session: Session, rows: Sequence[RequestRow]) -> None:
        if not rows:
            return
        ids = [r.id for r in rows]
        req = RequestRow.__table__  # type: ignore[attr-defined]
        existing = set(session.execute(select(req.c.id).where(req.c.id.in_(ids))).scalars())
        fresh = [r for r in rows if r.id not in existing]
        upsert(session.connection(), aggregate(fresh, self._zone_of))


def zone_resolver(zones: dict[str, str]) -> ZoneOf:
    """A ZoneOf from a {backend: zone} mapping (e.g. built from the policy's backends)."""
    return zones.get
