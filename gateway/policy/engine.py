"""The policy engine: a PURE function of (policy, request info, live backend stats, budget
state, runtime-disabled backends) -> RouteDecision. No I/O, no clock, no randomness (the
`weighted` draw and today's date come in with the request info).

Order of concerns: the data boundary first (zones, tenant locks, transfer basis, redaction),
then what the backend can do (capabilities, context), then health (circuit), then SLOs and cost.
Every candidate that is not kept gets a reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any

from gateway.policy.decision import Dropped, DropReason, RouteDecision
from gateway.policy.inputs import NO_BUDGET_LIMITS, BackendLive, BudgetState, RequestInfo
from gateway.policy.plan import Candidate, Effective, Plan, RulePlan
from gateway.policy.schema import SLO, BackendSpec, CapabilitySpec, Policy

MILLION = Decimal(1_000_000)
_UNMEASURED = BackendLive()


def decide(
    policy: Policy,
    req: RequestInfo,
    stats: Mapping[str, BackendLive] | None = None,
    budget: BudgetState = NO_BUDGET_LIMITS,
    disabled: Mapping[str, str] | None = None,
) -> RouteDecision:
    plan = policy.plan
    when_uncertain = policy.sensitivity.when_uncertain if req.band == "uncertain" else None
    if when_uncertain == "special" and req.data_class != "special":
        req = replace(req, data_class="special")
    if stats is None:
        stats = {}
    if disabled is None:
        disabled = {}
    cands = plan.aliases.get(req.alias)
    rp = plan.rule_for(req)
    eff = rp.eff
    rule_name = rp.name
    extra = _trace_extra(req, budget)
    base: dict[str, Any] = {
        "alias": req.alias,
        "data_class": req.data_class,
        "rule": rule_name,
        "objective": eff.objective,
        "extra": extra,
        "prompt_tokens": req.prompt_tokens,
    }
    if cands is None:
        return RouteDecision(candidates=(), blocked=f"unknown model '{req.alias}'", **base)
    if rp.block is not None:
        return RouteDecision(candidates=(), blocked=rp.block, **base)
    refusing = budget.refusing if budget.exhausted else None
    if refusing is not None:
        return RouteDecision(
            candidates=(), blocked=f"budget '{refusing.name}' is exhausted", **base
        )
    zones, zone_why = _allowed_zones(plan, req, rp, budget)
    kept: list[str] = []
    dropped: list[Dropped] = []
    estimates: dict[str, Decimal | None] = {}
    for c in cands:
        if c.spec is None:
            dropped.append(Dropped(c.name, "not defined in the policy", DropReason.UNKNOWN))
            continue
        live = stats.get(c.name, _UNMEASURED)
        est = _estimate(c, req, live, plan.default_output)
        why = _check(c, req, rp, zones, zone_why, live, est, disabled)
        if why is None:
            kept.append(c.name)
            estimates[c.name] = est
        else:
            dropped.append(why)
    if when_uncertain == "prefer_on_prem":
        kept = _prefer_on_prem(kept, plan, dropped)
    ordered = _order(kept, eff, estimates, stats, req.seed)
    return RouteDecision(
        candidates=tuple(ordered),
        dropped=tuple(dropped),
        redact=eff.redact and req.data_class == "personal",
        allowed_zones=zones,
        zones={n: plan.zone_of[n] for n in ordered},
        limits=plan.limits_for(rp, req.tenant),
        estimates=estimates,
        **base,
    )


def _prefer_on_prem(kept: list[str], plan: Plan, dropped: list[Dropped]) -> list[str]:
    """An uncertain classification is served on-prem when an on-prem candidate can serve it;
    otherwise it goes where its detected class allows."""
    on_prem = [n for n in kept if plan.zone_of[n] == "on_prem"]
    if not on_prem or len(on_prem) == len(kept):
        return kept
    dropped.extend(
        Dropped(
            n,
            "uncertain classification: served on-prem while an on-prem backend can",
            DropReason.UNCERTAIN,
        )
        for n in kept
        if plan.zone_of[n] != "on_prem"
    )
    return on_prem


def _allowed_zones(
    plan: Plan, req: RequestInfo, rp: RulePlan, budget: BudgetState
) -> tuple[frozenset[str], Dropped | None]:
    """The zones this request may go to, and why `cloud` is excluded (if it is)."""
    zones = rp.zones
    why: Dropped | None = None
    lock = plan.locks.get(req.tenant)
    if req.data_class == "special":
        why = Dropped(
            "", "special-category data (KVKK Art. 6) may not leave on-prem", DropReason.ZONE
        )
    elif lock is not None:
        why = Dropped(
            "", f"tenant '{req.tenant}' is locked to on-prem ({lock})", DropReason.TENANT_LOCK
        )
    elif budget.exhausted and (over := budget.on_prem_only) is not None:
        why = Dropped("", f"budget '{over.name}' is exhausted: on-prem only", DropReason.BUDGET)
    elif "cloud" not in zones:
        why = Dropped("", f"rule '{rp.name}' allows only on-prem", DropReason.NOT_IN_RULE)
    if why is not None and "cloud" in zones:
        zones = zones - {"cloud"}
    return zones, why


def _check(
    c: Candidate,
    req: RequestInfo,
    rp: RulePlan,
    zones: frozenset[str],
    zone_why: Dropped | None,
    live: BackendLive,
    est: Decimal | None,
    disabled: Mapping[str, str],
) -> Dropped | None:
    name, spec = c.name, c.spec
    assert spec is not None
    if rp.allow_backends is not None and name not in rp.allow_backends:
        return Dropped(name, f"rule '{rp.name}' does not list it", DropReason.NOT_IN_RULE)
    if name in rp.deny_backends:
        return Dropped(name, f"rule '{rp.name}' denies it", DropReason.NOT_IN_RULE)
    if c.zone not in zones:
        if zone_why is not None:
            return Dropped(name, zone_why.reason, zone_why.code)
        return Dropped(name, f"zone '{c.zone}' not allowed", DropReason.NOT_IN_RULE)
    boundary = _boundary(name, spec, req, rp.eff)
    if boundary is not None:
        return boundary
    if not spec.enabled:
        return Dropped(name, "disabled in the policy", DropReason.DISABLED)
    if name in disabled:
        return Dropped(name, f"disabled: {disabled[name]}", DropReason.DISABLED)
    fit = _fit(name, c.caps, req)
    if fit is not None:
        return fit
    if live.circuit == "open":
        return Dropped(name, "circuit open after consecutive failures", DropReason.CIRCUIT_OPEN)
    # a pool of on-prem nodes predicts each request's first token from its nodes' queues and
    # refuses (so the request spills) or queues it itself; its past figures say nothing of
    # the node a request would get now
    slo = None if getattr(spec, "endpoints", None) else _slo(name, rp.eff.slo, live)
    if slo is not None:
        return slo
    return _cost(name, spec, req, rp.eff, est)


def _boundary(name: str, spec: BackendSpec, req: RequestInfo, eff: Effective) -> Dropped | None:
    """KVKK Art. 9: non-public data goes to a cloud destination only under a recorded,
    current transfer basis that covers its class, and personal data only redacted."""
    if spec.zone != "cloud" or req.data_class == "public":
        return None
    basis = spec.transfer
    if req.data_class == "special":  # unreachable through zones; kept as a second wall
        return Dropped(name, "special-category data never goes to the cloud", DropReason.ZONE)
    if basis is None or basis.mechanism == "none":
        return Dropped(
            name,
            "no KVKK Art. 9 transfer basis recorded for this destination",
            DropReason.NO_TRANSFER_BASIS,
        )
    if req.data_class not in basis.classes:
        return Dropped(
            name,
            f"transfer basis ({basis.mechanism}) does not cover '{req.data_class}' data",
            DropReason.NO_TRANSFER_BASIS,
        )
    if basis.mechanism == "tr_scc" and (basis.signed is None or basis.notified is None):
        return Dropped(
            name, "standard contract not signed and notified", DropReason.NO_TRANSFER_BASIS
        )
    if req.today is not None and basis.expires is not None and req.today > basis.expires:
        return Dropped(
            name,
            f"transfer basis expired on {basis.expires.isoformat()}",
            DropReason.NO_TRANSFER_BASIS,
        )
    if not eff.redact:
        return Dropped(
            name,
            "personal data may go to the cloud only redacted, and redaction is off",
            DropReason.REDACTION_OFF,
        )
    return None


def _fit(name: str, caps: CapabilitySpec, req: RequestInfo) -> Dropped | None:
    missing = [
        label
        for need, have, label in (
            (req.needs_tools, caps.tools, "tools"),
            (req.stream, caps.streaming, "streaming"),
            (req.json_mode, caps.json_mode, "json_mode"),
        )
        if need and not have
    ]
    if missing:
        return Dropped(name, f"lacks {', '.join(missing)}", DropReason.CAPABILITY)
    if caps.context_length is not None:
        needed = req.prompt_tokens + (req.max_output_tokens or 0)
        if needed > caps.context_length:
            return Dropped(
                name,
                f"needs ~{needed} tokens, context is {caps.context_length}",
                DropReason.CONTEXT,
            )
    return None


def _slo(name: str, slo: SLO, live: BackendLive) -> Dropped | None:
    if (
        slo.ttft_p95_ms is not None
        and live.ttft_p95_ms is not None
        and live.ttft_p95_ms > slo.ttft_p95_ms
    ):
        return Dropped(
            name, f"TTFT p95 {live.ttft_p95_ms:.0f} ms > {slo.ttft_p95_ms:.0f} ms", DropReason.SLO
        )
    if (
        slo.total_p95_ms is not None
        and live.total_p95_ms is not None
        and live.total_p95_ms > slo.total_p95_ms
    ):
        return Dropped(
            name,
            f"latency p95 {live.total_p95_ms:.0f} ms > {slo.total_p95_ms:.0f} ms",
            DropReason.SLO,
        )
    if (
        slo.min_tokens_per_s is not None
        and live.tokens_per_s is not None
        and live.tokens_per_s < slo.min_tokens_per_s
    ):
        return Dropped(
            name, f"{live.tokens_per_s:.1f} tokens/s < {slo.min_tokens_per_s:g}", DropReason.SLO
        )
    return None


def _cost(
    name: str, spec: BackendSpec, req: RequestInfo, eff: Effective, est: Decimal | None
) -> Dropped | None:
    cap = eff.rule.cost_cap if eff.rule else None
    if cap is None or (cap.per_request_usd is None and cap.per_mtok_usd is None):
        return None
    if est is None:
        if spec.zone == "on_prem":
            return None  # a node we own with no measured cost yet
        return Dropped(name, "no price known, cannot keep the cost cap", DropReason.COST_CAP)
    if cap.per_request_usd is not None and est > cap.per_request_usd:
        return Dropped(
            name, f"estimated ${_fmt(est)} > cap ${_fmt(cap.per_request_usd)}", DropReason.COST_CAP
        )
    tokens = req.prompt_tokens + (req.max_output_tokens or 0)
    if cap.per_mtok_usd is not None and tokens > 0:
        per_mtok = est * MILLION / tokens
        if per_mtok > cap.per_mtok_usd:
            return Dropped(
                name,
                f"${_fmt(per_mtok)} per Mtok > cap ${_fmt(cap.per_mtok_usd)}",
                DropReason.COST_CAP,
            )
    return None


def estimate_cost(
    spec: BackendSpec, req: RequestInfo, live: BackendLive, default_output: int
) -> Decimal | None:
    """Estimated USD for this request on this backend; None when it cannot be known."""
    out = req.max_output_tokens or default_output
    if spec.price is not None:
        return (
            spec.price.input_per_mtok * req.prompt_tokens + spec.price.output_per_mtok * out
        ) / MILLION
    if spec.hourly_cost_usd is not None:
        if not live.tokens_per_s:
            return None
        seconds = Decimal(out) / Decimal(str(live.tokens_per_s))
        return spec.hourly_cost_usd * seconds / Decimal(3600)
    return Decimal(0) if spec.zone == "on_prem" else None


def _estimate(
    c: Candidate, req: RequestInfo, live: BackendLive, default_output: int
) -> Decimal | None:
    """`estimate_cost` with the candidate's price already looked up."""
    if c.input_per_mtok is not None and c.output_per_mtok is not None:
        out = req.max_output_tokens or default_output
        return (c.input_per_mtok * req.prompt_tokens + c.output_per_mtok * out) / MILLION
    assert c.spec is not None
    return estimate_cost(c.spec, req, live, default_output)


def _order(
    kept: list[str],
    eff: Effective,
    estimates: Mapping[str, Decimal | None],
    stats: Mapping[str, BackendLive],
    seed: float,
) -> list[str]:
    pos = {n: i for i, n in enumerate(kept)}
    if eff.objective == "cheapest":

        def by_cost(n: str) -> tuple[bool, Decimal, int]:
            e = estimates.get(n)
            return (e is None, e if e is not None else Decimal(0), pos[n])

        return sorted(kept, key=by_cost)
    if eff.objective == "fastest":

        def by_ttft(n: str) -> tuple[bool, float, int]:
            t = stats.get(n, _UNMEASURED).ttft_p95_ms
            return (t is None, t or 0.0, pos[n])

        return sorted(kept, key=by_ttft)
    if eff.objective == "weighted":
        return _weighted(kept, eff.rule.weights if eff.rule else None, seed)
    return kept


def _weighted(kept: list[str], weights: Mapping[str, float] | None, seed: float) -> list[str]:
    """The first candidate is drawn by weight with `seed`; the rest follow by weight."""
    w = {n: max(0.0, (weights or {}).get(n, 1.0)) for n in kept}
    total = sum(w.values())
    if not kept or total <= 0:
        return kept
    point, acc, first = min(max(seed, 0.0), 0.999999) * total, 0.0, kept[-1]
    for n in kept:
        acc += w[n]
        if point < acc:
            first = n
            break
    rest = sorted((n for n in kept if n != first), key=lambda n: -w[n])
    return [first, *rest]


def _trace_extra(req: RequestInfo, budget: BudgetState) -> dict[str, Any]:
    sens: dict[str, Any] = {
        "entities": [{"type": t, "count": c} for t, c in req.entities],
        "categories": list(req.categories),
    }
    sens["band"] = req.band
    if req.stage is not None:
        sens["stage"] = req.stage
    if req.classifier_note:
        sens["note"] = req.classifier_note
    out: dict[str, Any] = {"tenant": req.tenant, "app": req.app, "sensitivity": sens}
    if budget.exhausted:
        out["budgets_exhausted"] = [{"name": b.name, "action": b.action} for b in budget.exhausted]
    return out


def _fmt(v: Decimal) -> str:
    return format(v.quantize(Decimal("0.000001")).normalize(), "f")
