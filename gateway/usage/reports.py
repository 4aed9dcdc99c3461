"""Cost reports over the daily rollups (never over the raw ledger, so they stay fast).

A report groups rollup rows by any of `GROUP_KEYS` (and at most one `tag:NAME`, from the rollups per
cost-attribution tag) over an inclusive range of UTC days and gives,
per group: requests, tokens, cost (in the ledger's currency, USD, and in TRY at each row's
rate), error rate, p95 TTFT, the share served on-prem, and what the same tokens would have cost
on the cheapest cloud backend allowed for their data class (`CloudReference`) and so the saving.

Billing figures (`Money`): cost before tax in USD and TRY, KDV and the total with KDV, at the
policy's `billing.usd_try` and `billing.kdv_rate` (`Rates`). They are exact Decimals (no
rounding anywhere: the products are computed in a context that raises rather than rounds);
only the renderers quantize, for display. A rate the policy does not set gives None for the
figures that need it, never a zero.

Unpriced traffic (an unknown cost is never a silent zero): a request whose cost is unknown (NULL in
the ledger) is not in any cost figure; each row and total counts such requests (`unpriced_requests`,
with their tokens), and a row with any is `cost_complete = False`: its cost, TRY and billing figures
cover only the priced requests. `cloud_equivalent` and `saving` compare the priced requests only
(their cloud price is known, but what they actually cost is not).

p95 TTFT comes from the merged fixed-bucket histograms (`rollups.TTFT_BOUNDS_MS`): it is the
upper bound of the bucket holding the 95th percentile, so it is exact to bucket resolution.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import (
    ROUND_HALF_UP,
    Context,
    Decimal,
    DivisionByZero,
    Inexact,
    InvalidOperation,
    Overflow,
    localcontext,
)
from typing import Any, Protocol

from sqlalchemy import Table, func, select
from sqlalchemy.engine import Engine

from gateway.policy.tags import KEY_PATTERN
from gateway.usage.rollups import (
    BUCKET_COLUMNS,
    MONTHLY,
    N_BUCKETS,
    UNPRICED_COLUMNS,
    RollupRow,
    from_nanos,
    percentile_from_buckets,
)
from gateway.usage.tag_rollups import TAG_DAILY

GROUP_KEYS: tuple[str, ...] = ("tenant", "app", "backend", "model", "data_class", "day")
MTOK = Decimal(1_000_000)


# Products of rollup sums (9 decimals) and policy rates are exact well inside 100 digits; the
# Inexact trap turns any rounding into an error instead of a silently wrong figure.
EXACT = Context(
    prec=100, rounding=ROUND_HALF_UP, traps=[Inexact, InvalidOperation, DivisionByZero, Overflow]
)
QUOTIENT = Context(prec=34, rounding=ROUND_HALF_UP, traps=[InvalidOperation, DivisionByZero])


class ReportError(ValueError):
    """A bad report request (unknown group key, reversed range); `param` names the input."""

    def __init__(self, message: str, param: str = "group_by") -> None:
        super().__init__(message)
        self.param = param


# the month arithmetic (whole months from the monthly rollups) needs the month after `end`
LAST_DAY = date(9999, 11, 30)


@dataclass(frozen=True, slots=True)
class Rates:
    """The policy's billing rates a report converts and taxes with; None = not set."""

    usd_try: Decimal | None = None  # TRY per 1 USD
    kdv_rate: Decimal | None = None  # e.g. 0.20

    @classmethod
    def of(cls, billing: Any) -> Rates:
        """From a policy's `billing:` section (or None)."""
        return cls(getattr(billing, "usd_try", None), getattr(billing, "kdv_rate", None))


@dataclass(frozen=True, slots=True)
class Money:
    """Cost before tax (net), KDV and total with KDV (gross), in USD and TRY. Exact; None where
    a needed rate is not set (or the ledger currency is neither USD nor TRY)."""

    net_usd: Decimal | None
    net_try: Decimal | None
    kdv_usd: Decimal | None
    kdv_try: Decimal | None
    gross_usd: Decimal | None
    gross_try: Decimal | None

    FIELDS = ("net_usd", "net_try", "kdv_usd", "kdv_try", "gross_usd", "gross_try")

    def as_dict(self) -> dict[str, Decimal | None]:
        return {f: getattr(self, f) for f in self.FIELDS}


def billing_figures(cost: Decimal, currency: str, rates: Rates) -> Money:
    """`cost` (in the ledger `currency`) as net / KDV / gross in USD and TRY."""
    fx, kdv = rates.usd_try, rates.kdv_rate
    net_usd: Decimal | None
    net_try: Decimal | None
    with localcontext(EXACT):
        if currency == "USD":
            net_usd, net_try = cost, (cost * fx if fx is not None else None)
        elif currency == "TRY":
            net_try = cost
            with localcontext(QUOTIENT):  # the one inexact step: TRY -> USD (34 digits)
                net_usd = cost / fx if fx is not None else None
        else:
            net_usd = net_try = None
        kdv_usd = net_usd * kdv if net_usd is not None and kdv is not None else None
        kdv_try = net_try * kdv if net_try is not None and kdv is not None else None
        gross_usd = net_usd + kdv_usd if net_usd is not None and kdv_usd is not None else None
        gross_try = net_try + kdv_try if net_try is not None and kdv_try is not None else None
    return Money(net_usd, net_try, kdv_usd, kdv_try, gross_usd, gross_try)


@dataclass(frozen=True, slots=True)
class RefPrice:
    backend: str
    input_per_mtok: Decimal
    output_per_mtok: Decimal

    def cost(self, prompt_tokens: int, completion_tokens: int) -> Decimal:
        return (
            prompt_tokens * self.input_per_mtok + completion_tokens * self.output_per_mtok
        ) / MTOK


class CloudReference(Protocol):
    """The priced cloud backends (USD) that may receive `data_class` data under the policy."""

    def prices(self, data_class: str) -> Sequence[RefPrice]: ...


@dataclass(frozen=True, slots=True)
class ReportQuery:
    start: date
    end: date  # inclusive
    group_by: tuple[str, ...] = ("tenant",)
    tenant: str | None = None  # restrict to one tenant (a tenant key's own report)

    def __post_init__(self) -> None:
        bad = [g for g in self.group_by if g not in GROUP_KEYS and not _is_tag(g)]
        if bad:
            raise ReportError(
                f"unknown group-by key(s) {', '.join(bad)}; choose from "
                f"{', '.join(GROUP_KEYS)} or tag:NAME"
            )
        if len([g for g in self.group_by if _is_tag(g)]) > 1:
            raise ReportError("group by at most one tag")
        if not self.group_by:
            raise ReportError("group by at least one of " + ", ".join(GROUP_KEYS))
        if len(set(self.group_by)) != len(self.group_by):
            raise ReportError("a group-by key is repeated")
        if self.end < self.start:
            raise ReportError("the report range ends before it starts", param="from")
        if self.end > LAST_DAY:
            raise ReportError(f"the report range must end by {LAST_DAY.isoformat()}", param="to")


@dataclass
class ReportRow:
    group: dict[str, str]
    currency: str
    requests: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Decimal = Decimal(0)
    cost_try: Decimal = Decimal(0)
    on_prem_requests: int = 0
    cloud_equivalent: Decimal = Decimal(0)  # of the traffic that had an allowed cloud backend
    comparable_cost: Decimal = Decimal(0)  # what that same traffic actually cost
    buckets: list[int] = field(default_factory=lambda: [0] * N_BUCKETS)
    # requests with an unknown cost (NULL in the ledger), not in any cost figure, and their tokens
    unpriced_requests: int = 0
    unpriced_prompt_tokens: int = 0
    unpriced_completion_tokens: int = 0

    SUMS = (
        "requests",
        "errors",
        "prompt_tokens",
        "completion_tokens",
        "cost",
        "cost_try",
        "on_prem_requests",
        "cloud_equivalent",
        "comparable_cost",
        *UNPRICED_COLUMNS,
    )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def error_rate(self) -> float:
        return self.errors / self.requests if self.requests else 0.0

    @property
    def on_prem_share(self) -> float:
        return self.on_prem_requests / self.requests if self.requests else 0.0

    @property
    def p95_ttft_ms(self) -> float | None:
        return percentile_from_buckets(self.buckets, 0.95)

    @property
    def cost_complete(self) -> bool:
        """False when some requests had no known price: the cost figures leave them out."""
        return self.unpriced_requests == 0

    @property
    def priced_requests(self) -> int:
        return self.requests - self.unpriced_requests

    @property
    def saving(self) -> Decimal:
        return self.cloud_equivalent - self.comparable_cost

    def billing(self, rates: Rates) -> Money:
        return billing_figures(self.cost, self.currency, rates)

    def merge(self, other: ReportRow) -> None:
        for name in self.SUMS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.buckets = [a + b for a, b in zip(self.buckets, other.buckets, strict=True)]


@dataclass
class Report:
    query: ReportQuery
    rows: list[ReportRow]
    totals: list[ReportRow]  # one per currency
    rates: Rates = Rates()  # the policy's rates the billing figures use


class NoReference:
    def prices(self, data_class: str) -> Sequence[RefPrice]:
        return ()


def _is_tag(group: str) -> bool:
    """`tag:project`: the rollups per cost-attribution tag, grouped by that tag's value."""
    name = group.removeprefix("tag:")
    return name != group and re.fullmatch(KEY_PATTERN, name) is not None


def _tag_of(q: ReportQuery) -> str | None:
    return next((g for g in q.group_by if _is_tag(g)), None)


def _segments(q: ReportQuery) -> list[tuple[Table, str, date, date]]:
    """Whole calendar months come from the monthly rollups, the days around them from the
    daily ones (a grouping by day always reads the daily rollups; by a tag, the daily
    rollups per tag)."""
    daily: Table = RollupRow.__table__  # type: ignore[attr-defined]
    if _tag_of(q) is not None:
        return [(TAG_DAILY, "day", q.start, q.end)]
    if "day" in q.group_by:
        return [(daily, "day", q.start, q.end)]
    first = q.start if q.start.day == 1 else _next_month(q.start)
    after = _next_month(q.end) if _is_month_end(q.end) else q.end.replace(day=1)
    if first >= after:
        return [(daily, "day", q.start, q.end)]
    out = [(MONTHLY, "month", first, _prev_day(after))]
    if q.start < first:
        out.append((daily, "day", q.start, _prev_day(first)))
    if after <= q.end:
        out.append((daily, "day", after, q.end))
    return out


def _next_month(d: date) -> date:
    return date(d.year + d.month // 12, d.month % 12 + 1, 1)


def _prev_day(d: date) -> date:
    return date.fromordinal(d.toordinal() - 1)


def _is_month_end(d: date) -> bool:
    return _next_month(d) == date.fromordinal(d.toordinal() + 1)


SUMMED: tuple[str, ...] = (
    "requests",
    "errors",
    "prompt_tokens",
    "completion_tokens",
    "cost_nanos",
    "cost_try_nanos",
    *UNPRICED_COLUMNS,
    *BUCKET_COLUMNS,
)


def _select(roll: Table, q: ReportQuery, day_col: str, lo: date, hi: date) -> Any:
    c = roll.c
    keys = [c.tag_value if _is_tag(g) else c[g] for g in q.group_by]
    extra = [c[k] for k in ("zone", "data_class", "currency") if k not in q.group_by]
    sums = [func.sum(c[n]) for n in SUMMED]
    stmt = (
        select(*keys, *extra, *sums)
        .where(c[day_col] >= lo, c[day_col] <= hi)
        .group_by(*keys, *extra)
    )
    if q.tenant is not None:
        stmt = stmt.where(c.tenant == q.tenant)
    tag = _tag_of(q)
    if tag is not None:
        stmt = stmt.where(c.tag_key == tag.removeprefix("tag:"))
    return stmt


def _part(q: ReportQuery, rec: Sequence[Any], reference: CloudReference) -> ReportRow:
    cols = list(q.group_by) + [k for k in ("zone", "data_class", "currency") if k not in q.group_by]
    named = dict(zip(cols, rec[: len(cols)], strict=True))
    v = dict(zip(SUMMED, (int(x or 0) for x in rec[len(cols) :]), strict=True))
    row = ReportRow(
        group={g: _text(named[g]) for g in q.group_by},
        currency=str(named["currency"]),
        requests=v["requests"],
        errors=v["errors"],
        prompt_tokens=v["prompt_tokens"],
        completion_tokens=v["completion_tokens"],
        cost=from_nanos(v["cost_nanos"]),
        cost_try=from_nanos(v["cost_try_nanos"]),
        buckets=[v[b] for b in BUCKET_COLUMNS],
        unpriced_requests=v["unpriced_requests"],
        unpriced_prompt_tokens=v["unpriced_prompt_tokens"],
        unpriced_completion_tokens=v["unpriced_completion_tokens"],
    )
    if named["zone"] == "on_prem":
        row.on_prem_requests = row.requests
    prices = reference.prices(str(named["data_class"])) if row.currency == "USD" else ()
    if prices:  # the priced requests only: what the unpriced ones cost is not known
        prompt = row.prompt_tokens - row.unpriced_prompt_tokens
        completion = row.completion_tokens - row.unpriced_completion_tokens
        row.cloud_equivalent = min(p.cost(prompt, completion) for p in prices)
        row.comparable_cost = row.cost
    return row


def _text(v: Any) -> str:
    return v.isoformat() if isinstance(v, date) else str(v)


def run_report(
    engine: Engine,
    q: ReportQuery,
    reference: CloudReference | None = None,
    rates: Rates | None = None,
) -> Report:
    ref = reference or NoReference()
    groups: dict[tuple[Any, ...], ReportRow] = {}
    totals: dict[str, ReportRow] = {}
    with engine.connect() as conn:
        records = [
            rec
            for table, col, lo, hi in _segments(q)
            for rec in conn.execute(_select(table, q, col, lo, hi))
        ]
        for rec in records:
            part = _part(q, rec, ref)
            key = (*part.group.values(), part.currency)
            if key in groups:
                groups[key].merge(part)
            else:
                groups[key] = part
            total = totals.setdefault(part.currency, ReportRow(group={}, currency=part.currency))
            total.merge(part)
    rows = sorted(groups.values(), key=lambda r: (*r.group.values(), r.currency))
    return Report(q, rows, [totals[c] for c in sorted(totals)], rates or Rates())
