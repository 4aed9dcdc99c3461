"""Table-driven engine tests: every drop reason and every objective."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from gateway.policy.decision import DropReason
from gateway.policy.engine import decide
from gateway.policy.inputs import BackendLive, BudgetState, ExhaustedBudget, RequestInfo
from tests.unit.policy.helpers import SCC, backend, policy

CHEAP = {"input_per_mtok": "0.10", "output_per_mtok": "0.20"}
DEAR = {"input_per_mtok": "5", "output_per_mtok": "15"}


def req(cls: str = "public", **kw: Any) -> RequestInfo:
    return RequestInfo(alias="a", data_class=cls, **kw)  # type: ignore[arg-type]


# (id, backends, rules, extra policy keys, request, stats, budget, disabled, dropped, code)
DROPS: list[tuple[Any, ...]] = [
    (
        "special_in_cloud",
        {"c": backend("cloud", transfer=SCC), "l": backend()},
        [],
        {},
        req("special"),
        {},
        None,
        {},
        "c",
        DropReason.ZONE,
    ),
    (
        "tenant_lock",
        {"c": backend("cloud"), "l": backend()},
        [],
        {"tenants": {"bank": {"preset": "bank"}}},
        req(tenant="bank"),
        {},
        None,
        {},
        "c",
        DropReason.TENANT_LOCK,
    ),
    (
        "no_basis",
        {"c": backend("cloud"), "l": backend()},
        [],
        {},
        req("personal"),
        {},
        None,
        {},
        "c",
        DropReason.NO_TRANSFER_BASIS,
    ),
    (
        "basis_not_covering",
        {"c": backend("cloud", transfer={**SCC, "classes": ["public"]}), "l": backend()},
        [],
        {},
        req("personal"),
        {},
        None,
        {},
        "c",
        DropReason.NO_TRANSFER_BASIS,
    ),
    (
        "basis_expired",
        {"c": backend("cloud", transfer={**SCC, "expires": "2025-06-01"}), "l": backend()},
        [],
        {},
        req("personal", today=date(2026, 1, 1)),
        {},
        None,
        {},
        "c",
        DropReason.NO_TRANSFER_BASIS,
    ),
    (
        "redaction_off",
        {"c": backend("cloud", transfer=SCC), "l": backend()},
        [{"name": "r", "redact": False}],
        {},
        req("personal"),
        {},
        None,
        {},
        "c",
        DropReason.REDACTION_OFF,
    ),
    (
        "not_in_rule",
        {"x": backend(), "l": backend()},
        [{"name": "r", "allow_backends": ["l"]}],
        {},
        req(),
        {},
        None,
        {},
        "x",
        DropReason.NOT_IN_RULE,
    ),
    (
        "denied",
        {"x": backend(), "l": backend()},
        [{"name": "r", "deny_backends": ["x"]}],
        {},
        req(),
        {},
        None,
        {},
        "x",
        DropReason.NOT_IN_RULE,
    ),
    (
        "disabled_policy",
        {"x": backend(enabled=False), "l": backend()},
        [],
        {},
        req(),
        {},
        None,
        {},
        "x",
        DropReason.DISABLED,
    ),
    (
        "disabled_runtime",
        {"x": backend(), "l": backend()},
        [],
        {},
        req(),
        {},
        None,
        {"x": "no credentials"},
        "x",
        DropReason.DISABLED,
    ),
    (
        "no_tools",
        {"x": backend(capabilities={"tools": False}), "l": backend()},
        [],
        {},
        req(needs_tools=True),
        {},
        None,
        {},
        "x",
        DropReason.CAPABILITY,
    ),
    (
        "no_stream",
        {"x": backend(capabilities={"streaming": False}), "l": backend()},
        [],
        {},
        req(stream=True),
        {},
        None,
        {},
        "x",
        DropReason.CAPABILITY,
    ),
    (
        "context",
        {"x": backend(capabilities={"context_length": 100}), "l": backend()},
        [],
        {},
        req(prompt_tokens=80, max_output_tokens=50),
        {},
        None,
        {},
        "x",
        DropReason.CONTEXT,
    ),
    (
        "circuit",
        {"x": backend(), "l": backend()},
        [],
        {},
        req(),
        {"x": BackendLive(circuit="open")},
        None,
        {},
        "x",
        DropReason.CIRCUIT_OPEN,
    ),
    (
        "slo_ttft",
        {"x": backend(), "l": backend()},
        [{"name": "r", "slo": {"ttft_p95_ms": 500}}],
        {},
        req(),
        {"x": BackendLive(ttft_p95_ms=900, samples=5)},
        None,
        {},
        "x",
        DropReason.SLO,
    ),
    (
        "slo_total",
        {"x": backend(), "l": backend()},
        [{"name": "r", "slo": {"total_p95_ms": 1000}}],
        {},
        req(),
        {"x": BackendLive(total_p95_ms=5000, samples=5)},
        None,
        {},
        "x",
        DropReason.SLO,
    ),
    (
        "slo_tps",
        {"x": backend(), "l": backend()},
        [{"name": "r", "slo": {"min_tokens_per_s": 30}}],
        {},
        req(),
        {"x": BackendLive(tokens_per_s=10, samples=5)},
        None,
        {},
        "x",
        DropReason.SLO,
    ),
    (
        "cost_per_request",
        {"x": backend("cloud", price=DEAR), "l": backend()},
        [{"name": "r", "cost_cap": {"per_request_usd": "0.001"}}],
        {},
        req(prompt_tokens=1000, max_output_tokens=1000),
        {},
        None,
        {},
        "x",
        DropReason.COST_CAP,
    ),
    (
        "cost_per_mtok",
        {"x": backend("cloud", price=DEAR), "l": backend()},
        [{"name": "r", "cost_cap": {"per_mtok_usd": "1"}}],
        {},
        req(prompt_tokens=1000, max_output_tokens=1000),
        {},
        None,
        {},
        "x",
        DropReason.COST_CAP,
    ),
    (
        "cost_unknown_cloud",
        {"x": backend("cloud"), "l": backend()},
        [{"name": "r", "cost_cap": {"per_request_usd": "1"}}],
        {},
        req(),
        {},
        None,
        {},
        "x",
        DropReason.COST_CAP,
    ),
    (
        "budget_on_prem",
        {"x": backend("cloud"), "l": backend()},
        [],
        {},
        req(),
        {},
        BudgetState((ExhaustedBudget("monthly", "on_prem_only"),)),
        {},
        "x",
        DropReason.BUDGET,
    ),
]


@pytest.mark.parametrize("case", DROPS, ids=[c[0] for c in DROPS])
def test_every_drop_reason(case: tuple[Any, ...]) -> None:
    _id, backends, rules, extra, request, stats, budget, disabled, gone, code = case
    p = policy(backends, rules=rules, **extra)
    d = decide(p, request, stats, budget or BudgetState(), disabled)
    assert gone not in d.candidates
    assert "l" in d.candidates  # the other backend is unaffected
    reasons = {x.backend: x.code for x in d.dropped}
    assert reasons == {gone: code}
    assert set(d.candidates) | set(reasons) == set(backends)


def test_unmeasured_latency_meets_the_slo() -> None:
    p = policy({"x": backend()}, rules=[{"name": "r", "slo": {"ttft_p95_ms": 1}}])
    assert decide(p, req(), {"x": BackendLive()}).candidates == ("x",)


def test_personal_reaches_cloud_with_basis_and_redaction() -> None:
    p = policy({"c": backend("cloud", transfer=SCC)})
    d = decide(p, req("personal"))
    assert d.candidates == ("c",) and d.redact and d.needs_redaction("c")


def test_block_rule_and_refusing_budget() -> None:
    p = policy(
        {"l": backend()},
        rules=[
            {
                "name": "no-special",
                "action": "block",
                "match": {"data_classes": ["special"]},
                "message": "not here",
            }
        ],
    )
    d = decide(p, req("special"))
    assert d.blocked == "not here" and d.rule == "no-special" and d.candidates == ()
    d2 = decide(p, req(), budget=BudgetState((ExhaustedBudget("daily", "refuse"),)))
    assert d2.blocked is not None and "daily" in d2.blocked


OBJ = {
    "cheap": backend("cloud", price=CHEAP),
    "dear": backend("cloud", price=DEAR),
    "free": backend(),
    "unpriced": backend("cloud"),
}


@pytest.mark.parametrize(
    ("objective", "stats", "seed", "expected"),
    [
        ("ordered", {}, 0.0, ("dear", "unpriced", "cheap", "free")),
        ("cheapest", {}, 0.0, ("free", "cheap", "dear", "unpriced")),
        (
            "fastest",
            {
                "cheap": BackendLive(ttft_p95_ms=300),
                "free": BackendLive(ttft_p95_ms=100),
                "dear": BackendLive(ttft_p95_ms=200),
            },
            0.0,
            ("free", "dear", "cheap", "unpriced"),
        ),
        ("weighted", {}, 0.1, ("dear", "free", "unpriced", "cheap")),
        ("weighted", {}, 0.95, ("free", "dear", "unpriced", "cheap")),
    ],
)
def test_every_objective(
    objective: str, stats: dict[str, BackendLive], seed: float, expected: tuple[str, ...]
) -> None:
    rule: dict[str, Any] = {"name": "r", "objective": objective}
    if objective == "weighted":
        rule["weights"] = {"dear": 3, "free": 5, "cheap": 1, "unpriced": 1}
    p = policy(OBJ, alias=["dear", "unpriced", "cheap", "free"], rules=[rule])
    d = decide(p, req(seed=seed), stats)
    assert d.candidates == expected
    assert d.objective == objective


def test_cost_estimate_is_decimal_and_hourly_uses_measured_speed() -> None:
    p = policy({"c": backend("cloud", price=CHEAP), "g": backend(hourly_cost_usd="3.60")})
    d = decide(
        p, req(prompt_tokens=1_000_000, max_output_tokens=1000), {"g": BackendLive(tokens_per_s=10)}
    )
    assert d.estimates["c"] == Decimal("0.10") + Decimal("0.0002")
    assert d.estimates["g"] == Decimal("0.1")  # 100 s at $3.60/h


def test_first_matching_rule_wins_and_headers_match_case_insensitively() -> None:
    p = policy(
        {"l": backend()},
        rules=[
            {"name": "vip", "match": {"headers": {"X-Tier": "gold"}}, "objective": "fastest"},
            {"name": "all", "objective": "cheapest"},
        ],
    )
    assert decide(p, req(headers={"x-tier": "gold"})).rule == "vip"
    assert decide(p, req(headers={"x-tier": "silver"})).rule == "all"


def test_limits_come_from_the_slo() -> None:
    p = policy(
        {"l": backend()},
        rules=[
            {
                "name": "r",
                "slo": {"ttft_p95_ms": 500, "total_p95_ms": 4000, "deadline_factor": 2},
                "retry": {"attempts": 2},
            }
        ],
    )
    lim = decide(p, req()).limits
    assert (lim.ttft_deadline_s, lim.total_deadline_s, lim.retries) == (1.0, 8.0, 2)
