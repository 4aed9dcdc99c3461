"""Semantic checks the schema cannot express. Each yields (yaml path, message)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from typing import get_args

from gateway.policy.engine import decide
from gateway.policy.inputs import RequestInfo
from gateway.policy.schema import DataClassName, Policy

PathT = tuple[str | int, ...]
Issue = tuple[PathT, str]
DATA_CLASSES: tuple[str, ...] = get_args(DataClassName)


def semantic_issues(policy: Policy) -> list[Issue]:
    out: list[Issue] = []
    out.extend(_references(policy))
    out.extend(_transfer(policy))
    out.extend(_special_routes(policy))
    out.extend(_rule_names(policy))
    if not out:  # reachability is only meaningful once references resolve
        out.extend(_reachability(policy))
    return out


def warnings(policy: Policy) -> list[Issue]:
    """Not errors, but an admin should know (KVKK.md 6.4: late SCC notification)."""
    out: list[Issue] = []
    for name, spec in policy.backends.items():
        b = spec.transfer
        if b is None or b.mechanism != "tr_scc" or b.signed is None or b.notified is None:
            continue
        if b.notified > _add_business_days(b.signed, 5):
            out.append(
                (
                    ("backends", name, "transfer", "notified"),
                    "notified more than 5 business days after signature",
                )
            )
    return out


def _references(policy: Policy) -> Iterator[Issue]:
    known = policy.backends
    for alias, spec in policy.aliases.items():
        for i, name in enumerate(spec.backends):
            if name not in known:
                yield ("aliases", alias, "backends", i), f"unknown backend '{name}'"
    for r, rule in enumerate(policy.rules):
        for key in ("allow_backends", "deny_backends"):
            for i, name in enumerate(getattr(rule, key) or ()):
                if name not in known:
                    yield ("rules", r, key, i), f"unknown backend '{name}'"
        for name in rule.weights or {}:
            if name not in known:
                yield ("rules", r, "weights", name), f"unknown backend '{name}'"
        for i, alias in enumerate(rule.match.aliases or ()):
            if alias not in policy.aliases:
                yield ("rules", r, "match", "aliases", i), f"unknown alias '{alias}'"
        if rule.action == "block" and (rule.allow_backends or rule.objective or rule.slo):
            yield ("rules", r, "action"), "a block rule takes only match and message"
    for alias in policy.rate_limits.aliases:
        if alias != "*" and alias not in policy.aliases:
            yield ("rate_limits", "aliases", alias), f"unknown alias '{alias}'"


def _transfer(policy: Policy) -> Iterator[Issue]:
    for name, spec in policy.backends.items():
        b = spec.transfer
        if b is None:
            continue
        path: PathT = ("backends", name, "transfer")
        if spec.zone == "on_prem":
            yield path, "a transfer basis applies only to cloud backends"
        if "special" in b.classes:
            yield (*path, "classes"), "special-category data may never go to a cloud backend"
        if b.mechanism == "none" and any(c != "public" for c in b.classes):
            yield (*path, "classes"), "without a transfer mechanism only 'public' is allowed"
        if b.mechanism == "tr_scc" and "personal" in b.classes:
            if b.signed is None:
                yield path, "a standard contract (tr_scc) needs its 'signed' date"
            if b.notified is None:
                yield path, "a standard contract (tr_scc) needs its 'notified' date"
        if b.signed and b.notified and b.notified < b.signed:
            yield (*path, "notified"), "notified before it was signed"


def _special_routes(policy: Policy) -> Iterator[Issue]:
    for r, rule in enumerate(policy.rules):
        if rule.action != "route" or "special" not in (rule.match.data_classes or ()):
            continue
        if rule.allow_zones and "cloud" in rule.allow_zones:
            yield ("rules", r, "allow_zones"), "a rule for 'special' data may not allow cloud"
        for i, name in enumerate(rule.allow_backends or ()):
            spec = policy.backends.get(name)
            if spec is not None and spec.zone == "cloud":
                yield (
                    ("rules", r, "allow_backends", i),
                    f"a rule for 'special' data lists cloud backend '{name}'",
                )


def _rule_names(policy: Policy) -> Iterator[Issue]:
    seen: set[str] = set()
    for r, rule in enumerate(policy.rules):
        if rule.name in seen:
            yield ("rules", r, "name"), f"duplicate rule name '{rule.name}'"
        seen.add(rule.name)


def _reachability(policy: Policy) -> Iterator[Issue]:
    """Every alias must serve every data class (for the default tenant and every declared
    tenant), or a rule must block it explicitly."""
    tenants = ["default", *(t for t in policy.tenants if t != "default")]
    for alias in policy.aliases:
        for cls in DATA_CLASSES:
            for tenant in tenants:
                d = decide(
                    policy,
                    RequestInfo(
                        alias=alias,
                        data_class=cls,  # type: ignore[arg-type]
                        tenant=tenant,
                    ),
                )
                if d.blocked is None and not d.candidates:
                    who = "" if tenant == "default" else f" for tenant '{tenant}'"
                    why = "; ".join(f"{x.backend}: {x.reason}" for x in d.dropped)
                    yield (
                        ("aliases", alias),
                        f"no backend can serve '{cls}' data{who} and no rule blocks it ({why})",
                    )
                    break


def _add_business_days(start: date, n: int) -> date:
    d = start
    while n > 0:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d
