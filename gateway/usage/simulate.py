"""What-if: replay the ledger's recorded requests through another policy's engine.

Each recorded request (alias, tenant, app, data class and band, streamed, token counts,
measured latencies; no text is kept or needed) is decided again under the new policy, with
the backends' figures measured over the same range (p95 TTFT and total latency, tokens/s) as
the engine's live input. Against what happened it predicts: cost (USD; TRY and KDV at the new
policy's billing rates), the on-prem share, requests that would be refused, traffic per backend
and SLO misses.

How each predicted figure is made:

* the backend: the decision's first candidate (a fallback after a failure is not replayed);
* cost: the recorded tokens at the new backend's unit price (policy price, else the price
  catalog), the request's cost quantized as the ledger does; an hourly-priced on-prem backend
  keeps the recorded cost when the request stays on it, else its hourly cost over its measured
  tokens/s; unknown (never zero) when neither is known;
* SLO misses: the recorded TTFT / latency when the request stays on its backend, else the new
  backend's median, against the SLO of the rule the request now matches.

The backends' figures (the engine's p95s and tokens/s, the medians) are measured over the
range's newest `FIGURE_ROWS` served requests, so their cost is bounded however long the range.

Requests the ledger has no tokens for (refused before a call) that the new policy would serve
are counted apart (`served_without_tokens`): their cost cannot be predicted. The database sums
the requests per value of the fields the new policy can read (`shape_of`: the tenant only when
a lock or a rule names tenants, and so on; the prompt size only when a decision can depend on
it, and then by the steps where it can change: policy/prompt_steps.py) and recorded backend,
with the SLO misses of each threshold the policy sets, so a million rows become a few dozen to
a few thousand groups and as many engine calls. Cost is linear in
tokens at one price, so each group's token sums price it exactly. Not replayed: the request's
`max_tokens` (the ledger does not keep it; the policy's default output size stands in), headers
a rule matches on, and the `weighted` objective's draw (the middle draw, 0.5, for every
request).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import case, func, literal, literal_column, or_, select
from sqlalchemy.engine import Engine

from gateway.policy.engine import decide
from gateway.policy.inputs import RequestInfo
from gateway.policy.prompt_steps import prompt_steps
from gateway.policy.schema import Policy
from gateway.usage.pricing import SECONDS_PER_HOUR, Pricer, UnitPrice, cost_of, money
from gateway.usage.reports import Money, Rates, billing_figures
from gateway.usage.sim_figures import Measured, measure
from gateway.usage.tables import RequestRow

_REQ = RequestRow.__table__  # type: ignore[attr-defined]


class SimulationError(ValueError):
    """Bad simulation input (a reversed range); the message is one line."""


@dataclass(frozen=True, slots=True)
class SimQuery:
    start: date
    end: date  # inclusive
    tenant: str | None = None

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise SimulationError("the range ends before it starts")
        if (self.end - self.start).days > 3660:
            raise SimulationError("the range is longer than ten years")


@dataclass(slots=True)
class Side:
    """One side of the comparison: what happened, or what the new policy would do."""

    requests: int = 0
    refused: int = 0
    cost_usd: Decimal = Decimal(0)
    unpriced: int = 0
    on_prem: int = 0
    slo_misses: int = 0
    backends: Counter[str] = field(default_factory=Counter)

    def as_dict(self, rates: Rates) -> dict[str, Any]:
        served = self.requests - self.refused
        money_ = billing_figures(self.cost_usd, "USD", rates)
        return {
            "requests": self.requests,
            "refused": self.refused,
            "cost_usd": str(self.cost_usd),
            **{k: _text(v) for k, v in money_.as_dict().items()},
            "unpriced_requests": self.unpriced,
            "on_prem_share": round(self.on_prem / served, 6) if served else 0.0,
            "slo_misses": self.slo_misses,
            "backends": dict(sorted(self.backends.items())),
        }

    def billing(self, rates: Rates) -> Money:
        return billing_figures(self.cost_usd, "USD", rates)


@dataclass(slots=True)
class Simulation:
    query: SimQuery
    rows: int
    recorded: Side
    predicted: Side
    rates: Rates
    served_without_tokens: int = 0
    changed_backend: int = 0

    def as_dict(self) -> dict[str, Any]:
        moved = {
            b: self.predicted.backends.get(b, 0) - self.recorded.backends.get(b, 0)
            for b in sorted(set(self.predicted.backends) | set(self.recorded.backends))
        }
        return {
            "from": self.query.start.isoformat(),
            "to": self.query.end.isoformat(),
            "tenant": self.query.tenant,
            "rows": self.rows,
            "rates": {"usd_try": _text(self.rates.usd_try), "kdv_rate": _text(self.rates.kdv_rate)},
            "recorded": self.recorded.as_dict(self.rates),
            "predicted": self.predicted.as_dict(self.rates),
            "traffic_change": moved,
            "changed_backend": self.changed_backend,
            "served_without_tokens": self.served_without_tokens,
        }


def _text(v: Decimal | None) -> str | None:
    return None if v is None else str(v)


def _where(q: SimQuery) -> list[Any]:
    """The recorded requests of the range that reached routing (a data class was decided)."""
    c = _REQ.c
    lo = datetime.combine(q.start, time(), UTC)
    hi = datetime.combine(q.end + timedelta(days=1), time(), UTC)
    out = [c.created_at >= lo, c.created_at < hi, c.data_class.is_not(None)]
    if q.tenant is not None:
        out.append(c.tenant == q.tenant)
    return out


SHAPE = ("alias", "tenant", "app", "data_class", "sensitivity_band", "streamed")


def shape_of(policy: Policy) -> tuple[str, ...]:
    """The recorded request fields a decision under `policy` can depend on: the alias and
    the data class always; the tenant only under a tenant lock or a rule matching tenants,
    the app only under a rule matching apps, the band only when `when_uncertain` acts on it,
    `streamed` only when a backend cannot stream. The fewer the keys, the fewer the groups
    the database sums and the engine decides."""
    plan = policy.plan
    rules = [r.match for r in policy.rules]
    reads = {
        "alias": True,
        "tenant": bool(plan.locks) or any(m.tenants is not None for m in rules),
        "app": any(m.apps is not None for m in rules),
        "data_class": True,
        "sensitivity_band": policy.sensitivity.when_uncertain != "as_detected",
        "streamed": any(not c.caps.streaming for cs in plan.aliases.values() for c in cs),
    }
    return tuple(k for k in SHAPE if reads[k])


def read_groups(
    engine: Engine,
    q: SimQuery,
    shape: Sequence[str],
    by_tokens: bool,
    slos: Sequence[tuple[float | None, float | None]],
    steps: Sequence[int] | None = None,
) -> list[Sequence[Any]]:
    """The requests summed per `shape` (and prompt size, when decisions depend on it: the
    step of `steps` at or below it, else the size itself) and recorded backend: (shape...,
    [prompt,] backend, count, prompt, completion, cached, cost sum, priced count, then per SLO
    of `slos` the requests that missed it). The database does the per-row work; a million
    rows become as many groups as the policy can tell apart."""
    c = _REQ.c
    cached = case((c.cached_tokens < c.prompt_tokens, c.cached_tokens), else_=c.prompt_tokens)
    misses = [func.sum(case((_missed(c, ttft, total), 1), else_=0)) for ttft, total in slos]
    size = c.prompt_tokens if steps is None else _step_of(c.prompt_tokens, steps, 0, len(steps))
    keys = [*(c[k] for k in shape), *([size] if by_tokens else []), c.backend]
    stmt = (
        select(
            *keys,
            func.count(),
            func.sum(c.prompt_tokens),
            func.sum(c.completion_tokens),
            func.sum(cached),
            func.sum(c.cost),
            func.count(c.cost),
            *misses,
        )
        .where(*_where(q))
        .group_by(*keys)
    )
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            # the planner guesses the group count from each column's distinct values and
            # overshoots (a column of NULLs counts as 200), then sorts a million rows on
            # disk; a hash of the few real groups is several times faster, and spills by
            # itself if they do not fit in memory
            conn.exec_driver_sql("SET LOCAL enable_sort = off")
        return list(conn.execute(stmt))


def _step_of(size: Any, steps: Sequence[int], lo: int, hi: int) -> Any:
    """The greatest of `steps[lo:hi]` at or below `size`, as a balanced CASE (a few
    comparisons a row). The integers are written into the SQL, so PostgreSQL sees the same
    expression in the select list and the GROUP BY."""
    if hi - lo == 1:
        return literal_column(str(int(steps[lo])))
    mid = (lo + hi) // 2
    return case(
        (size < literal_column(str(int(steps[mid]))), _step_of(size, steps, lo, mid)),
        else_=_step_of(size, steps, mid, hi),
    )


def _missed(c: Any, ttft_ms: float | None, total_ms: float | None) -> Any:
    parts = []
    if ttft_ms is not None:
        parts.append(c.ttft_ms > ttft_ms)
    if total_ms is not None:
        parts.append(c.latency_ms > total_ms)
    return or_(*parts) if parts else literal(False)


FIGURE_ROWS = 100_000
# more steps than this (many backends crossing) and the prompt size is a key of its own
MAX_STEPS = 1024


def read_figures(engine: Engine, q: SimQuery, limit: int = FIGURE_ROWS) -> list[Sequence[Any]]:
    """(backend, ttft ms, latency ms, tokens/s) of the range's newest `limit` served
    requests: the backends' figures come from a bounded sample, whatever the range holds."""
    c = _REQ.c
    stmt = (
        select(c.backend, c.ttft_ms, c.latency_ms, c.tokens_per_s)
        .where(*_where(q), c.status == 200, c.backend.is_not(None))
        .order_by(c.created_at.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        return list(conn.execute(stmt))


@dataclass(frozen=True, slots=True)
class Group:
    """Recorded requests alike in what the new policy reads, on one recorded backend."""

    key: tuple[Any, ...]  # the shape's values (and the prompt size when it matters)
    backend: str | None
    n: int
    prompt: Any  # token sums: int, or Decimal from PostgreSQL's SUM of integers
    completion: Any
    cached: Any
    cost: Any  # the recorded cost sum (see `_decimal`)
    priced: int  # requests with a recorded cost
    misses: tuple[int, ...]  # per SLO of `Replay.slos`, requests that missed it


@dataclass(slots=True)
class _Spend:
    """What the requests predicted on one backend add up to."""

    prompt: int = 0  # uncached prompt tokens
    cached: int = 0
    completion: int = 0
    priced: int = 0  # requests priced from their tokens
    kept: Decimal = Decimal(0)  # recorded costs kept (hourly on-prem, same backend)
    unknown: int = 0  # requests whose recorded cost was unknown and is kept so


class Replay:
    """One policy's engine over the recorded request groups (see the module's notes)."""

    def __init__(self, policy: Policy, pricer: Pricer) -> None:
        self._policy = policy
        self._pricer = pricer
        self._plan = policy.plan
        self._zones = {n: s.zone for n, s in policy.backends.items()}
        self._hourly = {
            n: s.hourly_cost_usd
            for n, s in policy.backends.items()
            if s.price is None and s.hourly_cost_usd is not None
        }
        objectives: set[str | None] = {
            policy.defaults.objective,
            *(r.objective for r in policy.rules),
        }
        self.shape = shape_of(policy)
        self.by_tokens = _tokens_matter(policy, objectives)
        slos = [rp.eff.slo for rp in (*self._plan.rules, self._plan.default)]
        self.slos = sorted({(s.ttft_p95_ms, s.total_p95_ms) for s in slos}, key=repr)
        self._measured = Measured({}, {}, {}, {})
        self._memo: dict[tuple[Any, ...], tuple[str | None, int]] = {}

    def _decide(self, key: tuple[Any, ...]) -> tuple[str | None, int]:
        # a field the policy cannot read is not in the key: any value decides alike
        got = dict(zip(self.shape, key, strict=False))
        band = got.get("sensitivity_band")
        info = RequestInfo(
            alias=got["alias"],
            data_class=got["data_class"],
            tenant=got.get("tenant", "default"),
            app=got.get("app", "default"),
            prompt_tokens=key[-1] if self.by_tokens else 0,
            stream=bool(got.get("streamed", False)),
            band=band if band in ("confident", "uncertain") else "confident",
            seed=0.5,  # the middle draw for a `weighted` objective
        )
        decision = decide(self._policy, info, self._measured.live)
        slo = self._plan.rule_for(info).eff.slo
        served = decision.blocked is None and decision.candidates
        new = decision.candidates[0] if served else None
        return new, self.slos.index((slo.ttft_p95_ms, slo.total_p95_ms))

    def decision(self, key: tuple[Any, ...]) -> tuple[str | None, int]:
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._decide(key)
        return hit

    def groups(self, rows: Iterable[Sequence[Any]]) -> list[Group]:
        """`read_groups`' rows under this replay's shape."""
        w = len(self.shape) + self.by_tokens
        return [
            Group(
                tuple(r[:w]),
                r[w],
                r[w + 1],
                r[w + 2],
                r[w + 3],
                r[w + 4],
                r[w + 5],
                r[w + 6],
                tuple(r[w + 7 :]),
            )
            for r in rows
        ]

    def run(self, groups: Sequence[Group], measured: Measured, sim: Simulation) -> None:
        self._measured = measured
        rec, pred = sim.recorded, sim.predicted
        spend: dict[str, _Spend] = {}
        for g in groups:
            backend, n = g.backend, g.n
            new, slo = self.decision(g.key)
            missed = g.misses[slo]
            rec.requests += n
            pred.requests += n
            if backend is None:
                rec.refused += n
            else:
                rec.backends[backend] += n
                rec.on_prem += n if self._zones.get(backend) == "on_prem" else 0
                rec.unpriced += n - g.priced
                rec.cost_usd += _decimal(g.cost)
                rec.slo_misses += missed
            if new is None:
                pred.refused += n
                continue
            pred.backends[new] += n
            pred.on_prem += n if self._zones.get(new) == "on_prem" else 0
            if new != backend:
                sim.changed_backend += n
                missed = n if self._moved_misses(new, slo) else 0
            pred.slo_misses += missed
            if backend is None:
                sim.served_without_tokens += n
                pred.unpriced += n
                continue
            self._charge(spend, new, g, backend == new)
        self._price(spend, pred)

    def _moved_misses(self, backend: str, slo: int) -> bool:
        ttft, total = self.slos[slo]
        m = self._measured
        t, lat = m.ttft_ms.get(backend), m.latency_ms.get(backend)
        return (ttft is not None and t is not None and t > ttft) or (
            total is not None and lat is not None and lat > total
        )

    def _charge(self, spend: dict[str, _Spend], new: str, g: Group, same: bool) -> None:
        s = spend.get(new)
        if s is None:
            s = spend[new] = _Spend()
        if new in self._hourly and same:
            s.unknown += g.n - g.priced
            s.kept += _decimal(g.cost)
            return
        s.priced += g.n
        s.prompt += int(g.prompt) - int(g.cached)
        s.cached += int(g.cached)
        s.completion += int(g.completion)

    def _price(self, spend: dict[str, _Spend], pred: Side) -> None:
        for backend, s in spend.items():
            pred.cost_usd += s.kept
            pred.unpriced += s.unknown
            if not s.priced:
                continue
            unit = self._unit(backend)
            if unit is None:
                pred.unpriced += s.priced
            else:
                pred.cost_usd += money(cost_of(unit, s.prompt + s.cached, s.completion, s.cached))

    def _unit(self, backend: str) -> UnitPrice | None:
        hourly = self._hourly.get(backend)
        if hourly is None:
            return self._pricer.unit_price(backend)
        tps = self._measured.tokens_per_s.get(backend)
        if not tps:
            return None
        per_token = hourly / (SECONDS_PER_HOUR * Decimal(str(tps)))
        return UnitPrice(Decimal(0), per_token, None, "on_prem")


def _tokens_matter(policy: Policy, objectives: set[str | None]) -> bool:
    """Whether a decision can depend on the prompt's size: a cost cap, the `cheapest`
    objective (it orders by estimated cost) or a backend with a context length. When none
    applies the replay decides once per request shape, not once per prompt-size step."""
    if "cheapest" in objectives:
        return True
    if any(r.cost_cap is not None for r in policy.rules):
        return True
    plan = policy.plan
    return any(c.caps.context_length is not None for cs in plan.aliases.values() for c in cs)


def _decimal(value: Any) -> Decimal:
    """A money sum as the database returns it: Decimal (PostgreSQL), a float or None
    (SQLite's sum of its REAL values), kept at the ledger's scale."""
    if value is None:
        return Decimal(0)
    return value if isinstance(value, Decimal) else money(Decimal(repr(value)))


def simulate(engine: Engine, policy: Policy, pricer: Pricer, q: SimQuery) -> Simulation:
    """Replay the range's recorded requests under `policy` (priced by `pricer`, built on it)."""
    replay = Replay(policy, pricer)
    if replay.by_tokens:  # the prompt sizes' steps need the backends' measured speeds
        measured = measure(read_figures(engine, q))
        steps = prompt_steps(policy, measured.live)
        fine = steps if len(steps) <= MAX_STEPS else None
        rows = read_groups(engine, q, replay.shape, True, replay.slos, fine)
        groups = replay.groups(rows)
    else:  # the figures' query runs beside the groups' (the drivers release the GIL)
        with ThreadPoolExecutor(max_workers=1) as pool:
            figures = pool.submit(read_figures, engine, q)
            rows = read_groups(engine, q, replay.shape, False, replay.slos)
            groups = replay.groups(rows)
            measured = measure(figures.result())
    sim = Simulation(q, sum(g.n for g in groups), Side(), Side(), Rates.of(policy.billing))
    replay.run(groups, measured, sim)
    return sim
