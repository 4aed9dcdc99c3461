"""Per-node figures of pooled on-prem backends, from the ledger rows that name the node that
served them (`requests.node`; the daily rollups carry no node).

Per node over an inclusive range of UTC days: requests, errors, tokens, busy seconds (the sum
of its requests' latencies: concurrent requests each count, so it is request-seconds, not
wall-clock seconds), utilisation (busy seconds / the range's hours, as a fraction; above 1
when the node served requests concurrently), output tokens per busy second, the on-prem cost
the ledger holds, the cost per million output tokens, and the break-even against the cheapest
cloud backend the policy allows for each request's data class: what that cloud would have
charged for the same tokens, and per million output tokens. The node's cost per Mtok is the
cloud price per Mtok at which the two are equal.

Money is exact Decimal, summed in the database as integer nano-units like the rollups (so
SQLite's floating NUMERIC does not add up rounding). A request whose cost is unknown (NULL)
counts in requests, tokens and busy time but in no cost figure (`unpriced_requests`); the
cloud comparison covers only priced requests whose data class has an allowed cloud backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, localcontext
from typing import Any

from sqlalchemy import BigInteger, Float, case, cast, func, select
from sqlalchemy.engine import Engine

from gateway.usage.reports import (
    LAST_DAY,
    MTOK,
    QUOTIENT,
    CloudReference,
    ReportError,
)
from gateway.usage.rollup_rebuild import utc_midnight
from gateway.usage.rollups import NANOS_INT, from_nanos
from gateway.usage.tables import RequestRow

_REQUESTS = RequestRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class NodeQuery:
    start: date
    end: date  # inclusive
    tenant: str | None = None

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ReportError("the report range ends before it starts", param="from")
        if self.end > LAST_DAY:
            raise ReportError(f"the report range must end by {LAST_DAY.isoformat()}", param="to")

    @property
    def hours(self) -> int:
        return ((self.end - self.start).days + 1) * 24


@dataclass
class NodeRow:
    backend: str
    node: str
    requests: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    busy_ms: float = 0.0
    cost: Decimal = Decimal(0)  # USD, priced requests only
    unpriced_requests: int = 0
    cloud_equivalent: Decimal = Decimal(0)  # the cheapest allowed cloud, same tokens
    comparable_cost: Decimal = Decimal(0)  # what that same traffic cost on the node
    comparable_completion_tokens: int = 0
    priced_completion_tokens: int = 0

    @property
    def busy_seconds(self) -> Decimal:
        return Decimal(repr(self.busy_ms)) / 1000

    def utilisation(self, hours: int) -> Decimal:
        with localcontext(QUOTIENT):
            return self.busy_seconds / (hours * 3600)

    @property
    def tokens_per_s(self) -> Decimal | None:
        busy = self.busy_seconds
        with localcontext(QUOTIENT):
            return Decimal(self.completion_tokens) / busy if busy > 0 else None

    @property
    def cost_per_mtok(self) -> Decimal | None:
        """USD per million output tokens of its priced requests."""
        return _per_mtok(self.cost, self.priced_completion_tokens)

    @property
    def comparable_cost_per_mtok(self) -> Decimal | None:
        return _per_mtok(self.comparable_cost, self.comparable_completion_tokens)

    @property
    def cloud_per_mtok(self) -> Decimal | None:
        """The cheapest allowed cloud's USD per million output tokens of the same traffic
        (its input tokens priced in)."""
        return _per_mtok(self.cloud_equivalent, self.comparable_completion_tokens)

    @property
    def saving(self) -> Decimal:
        return self.cloud_equivalent - self.comparable_cost


def _per_mtok(cost: Decimal, completion_tokens: int) -> Decimal | None:
    if completion_tokens <= 0:
        return None
    with localcontext(QUOTIENT):
        return cost * MTOK / completion_tokens


@dataclass(frozen=True)
class NodeReport:
    query: NodeQuery
    rows: list[NodeRow]


def _aggregate(query: NodeQuery) -> Any:
    c = _REQUESTS.c
    err = case(((c.status >= 400) | c.error_kind.is_not(None), 1), else_=0)
    group = [c.backend, c.node, func.coalesce(c.data_class, ""), c.currency]
    stmt = (
        select(
            *group,
            func.count(),
            func.sum(err),
            func.sum(c.prompt_tokens),
            func.sum(c.completion_tokens),
            func.sum(cast(c.latency_ms, Float)),
            func.coalesce(func.sum(cast(func.round(c.cost * NANOS_INT), BigInteger)), 0),
        )
        .where(c.node.is_not(None))
        .where(c.created_at >= utc_midnight(query.start))
        .where(c.created_at < utc_midnight(query.end + timedelta(days=1)))
        .group_by(*group)
    )
    if query.tenant is not None:
        stmt = stmt.where(c.tenant == query.tenant)
    return stmt


def run_node_report(engine: Engine, query: NodeQuery, reference: CloudReference) -> NodeReport:
    """One GROUP BY over the range's ledger rows that carry a node."""
    rows: dict[tuple[str, str], NodeRow] = {}
    with engine.connect() as conn:
        found = conn.execute(_aggregate(query)).all()
    for backend, node, data_class, currency, n, errors, prompt, completion, busy, nanos in found:
        row = rows.setdefault((backend or "", node), NodeRow(backend or "", node))
        prompt, completion = int(prompt or 0), int(completion or 0)
        row.requests += int(n)
        row.errors += int(errors or 0)
        row.prompt_tokens += prompt
        row.completion_tokens += completion
        row.busy_ms += float(busy or 0.0)
        if currency != "USD":  # unknown cost (NULL), or a currency the comparison cannot use
            row.unpriced_requests += int(n)
            continue
        cost = from_nanos(int(nanos))
        row.cost += cost
        row.priced_completion_tokens += completion
        prices = reference.prices(str(data_class))
        if prices:
            row.cloud_equivalent += min(p.cost(prompt, completion) for p in prices)
            row.comparable_cost += cost
            row.comparable_completion_tokens += completion
    return NodeReport(query, sorted(rows.values(), key=lambda r: (r.backend, r.node)))
