"""The policy compiled for `decide`: what depends only on the policy (candidate lists with
capabilities and prices, rule match sets, effective settings and limits per rule, tenant
locks), worked out once per policy object (`Policy.plan`) and reused by every request under it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from gateway.policy.decision import Limits
from gateway.policy.inputs import RequestInfo
from gateway.policy.schema import SLO, BackendSpec, CapabilitySpec, Policy, Retry, Rule

DEFAULT_RULE = "default"
# capabilities assumed when a backend does not declare them (the adapter refuses at call time
# if it cannot serve; the engine only drops what it knows is impossible)
_LOCAL_CAPS = CapabilitySpec(streaming=True, tools=False, json_mode=False, context_length=2048)
_OPEN_CAPS = CapabilitySpec(streaming=True, tools=True, json_mode=True, context_length=None)


@dataclass(frozen=True, slots=True)
class Effective:
    rule: Rule | None
    objective: str
    slo: SLO
    redact: bool
    retry: Retry


@dataclass(frozen=True, slots=True)
class Candidate:
    """One backend of an alias, with what the engine reads of it on every request."""

    name: str
    spec: BackendSpec | None
    zone: str
    caps: CapabilitySpec
    input_per_mtok: Decimal | None  # price, when the policy sets one
    output_per_mtok: Decimal | None


@dataclass(frozen=True, slots=True)
class RulePlan:
    """A rule (or the defaults) with its match sets, effective settings and limits."""

    rule: Rule | None
    name: str
    eff: Effective
    limits: Limits
    block: str | None  # the message when the rule blocks
    tenants: frozenset[str] | None = None
    apps: frozenset[str] | None = None
    aliases: frozenset[str] | None = None
    data_classes: frozenset[str] | None = None
    headers: tuple[tuple[str, str], ...] | None = None  # (lower-case name, value)
    allow_backends: frozenset[str] | None = None
    deny_backends: frozenset[str] = frozenset()
    zones: frozenset[str] = frozenset({"on_prem", "cloud"})

    def matches(self, req: RequestInfo) -> bool:
        if self.tenants is not None and req.tenant not in self.tenants:
            return False
        if self.apps is not None and req.app not in self.apps:
            return False
        if self.aliases is not None and req.alias not in self.aliases:
            return False
        if self.data_classes is not None and req.data_class not in self.data_classes:
            return False
        if self.headers:
            have = {k.lower(): v for k, v in req.headers.items()}
            return all(have.get(k) == v for k, v in self.headers)
        return True


def _opt_set(values: list[str] | None) -> frozenset[str] | None:
    return None if values is None else frozenset(values)


def _rule_plan(policy: Policy, rule: Rule | None) -> RulePlan:
    d = policy.defaults
    if rule is None:
        eff = Effective(None, d.objective, d.slo, d.redact, d.retry)
        return RulePlan(None, DEFAULT_RULE, eff, _limits(eff), None)
    eff = Effective(
        rule,
        rule.objective or d.objective,
        rule.slo or d.slo,
        d.redact if rule.redact is None else rule.redact,
        rule.retry or d.retry,
    )
    m = rule.match
    return RulePlan(
        rule,
        rule.name,
        eff,
        _limits(eff),
        (rule.message or f"blocked by policy rule '{rule.name}'")
        if rule.action == "block"
        else None,
        tenants=_opt_set(m.tenants),
        apps=_opt_set(m.apps),
        aliases=_opt_set(m.aliases),
        data_classes=_opt_set(list(m.data_classes) if m.data_classes is not None else None),
        headers=tuple((k.lower(), v) for k, v in m.headers.items()) if m.headers else None,
        allow_backends=_opt_set(rule.allow_backends),
        deny_backends=frozenset(rule.deny_backends or ()),
        zones=frozenset(rule.allow_zones) if rule.allow_zones else frozenset({"on_prem", "cloud"}),
    )


class Plan:
    """What `decide` needs that depends only on the policy, worked out once per policy:
    candidate lists with capabilities and prices, rule match sets, effective settings and
    limits per rule, tenant locks."""

    __slots__ = (
        "aliases",
        "default",
        "default_output",
        "locks",
        "policy",
        "priorities",
        "rules",
        "zone_of",
    )

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        backends = policy.backends
        self.zone_of = {n: b.zone for n, b in backends.items()}
        self.aliases: dict[str, tuple[Candidate, ...]] = {}
        for alias, spec in policy.aliases.items():
            cands = []
            for name in spec.backends:
                b = backends.get(name)
                price = b.price if b is not None else None
                cands.append(
                    Candidate(
                        name,
                        b,
                        b.zone if b is not None else "",
                        capabilities_of(b) if b is not None else _OPEN_CAPS,
                        price.input_per_mtok if price is not None else None,
                        price.output_per_mtok if price is not None else None,
                    )
                )
            self.aliases[alias] = tuple(cands)
        self.rules = tuple(_rule_plan(policy, r) for r in policy.rules)
        self.default = _rule_plan(policy, None)
        self.default_output = policy.defaults.default_output_tokens
        self.locks = {
            name: t.preset or "on_prem_only" for name, t in policy.tenants.items() if t.locked
        }
        self.priorities = {name: t.priority for name, t in policy.tenants.items() if t.priority}

    def limits_for(self, rp: RulePlan, tenant: str) -> Limits:
        """The rule's limits, with the tenant's priority where it has one."""
        prio = self.priorities.get(tenant)
        if prio is None:
            return rp.limits
        return replace(rp.limits, priority=(prio, rp.limits.priority[1]))

    def rule_for(self, req: RequestInfo) -> RulePlan:
        for rp in self.rules:
            if rp.matches(req):
                return rp
        return self.default


def capabilities_of(spec: BackendSpec) -> CapabilitySpec:
    if spec.capabilities is not None:
        return spec.capabilities
    return _LOCAL_CAPS if spec.kind == "local" else _OPEN_CAPS


def _limits(eff: Effective) -> Limits:
    slo = eff.slo
    ttft = slo.ttft_p95_ms * slo.deadline_factor / 1000 if slo.ttft_p95_ms else None
    total = slo.total_p95_ms * slo.deadline_factor / 1000 if slo.total_p95_ms else None
    r = eff.retry
    return Limits(
        ttft_deadline_s=ttft,
        ttft_slo_s=slo.ttft_p95_ms / 1000 if slo.ttft_p95_ms else None,
        priority=(0, eff.rule.priority if eff.rule is not None else 0),
        total_deadline_s=total,
        retries=r.attempts,
        backoff_s=r.backoff_ms / 1000,
        max_backoff_s=r.max_backoff_ms / 1000,
    )
