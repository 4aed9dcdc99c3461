"""A policy's plan lives on the policy: built once, never shared with another policy."""

from __future__ import annotations

from gateway.policy.engine import decide
from gateway.policy.inputs import RequestInfo
from tests.unit.policy.helpers import SCC, backend, policy


def test_a_policy_builds_its_plan_once() -> None:
    p = policy({"l": backend()})
    assert p.plan is p.plan
    assert p.plan.policy is p


def test_an_equal_policy_has_its_own_plan() -> None:
    a, b = policy({"l": backend()}), policy({"l": backend()})
    assert a == b
    assert a.plan is not b.plan
    assert b.plan.policy is b


def test_a_copy_with_other_backends_is_decided_by_its_own_backends() -> None:
    # the copy carried the original's plan when the plan was a cached attribute copied along
    cloud_only = policy({"c": backend("cloud", transfer=SCC)})
    assert cloud_only.plan.aliases["a"][0].name == "c"
    local = policy({"l": backend()})
    moved = cloud_only.model_copy(update={"aliases": local.aliases, "backends": local.backends})
    assert moved.plan.policy is moved
    assert decide(moved, RequestInfo(alias="a", data_class="public")).candidates == ("l",)
    assert decide(cloud_only, RequestInfo(alias="a", data_class="public")).candidates == ("c",)
