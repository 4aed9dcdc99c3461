"""The prompt sizes at which the engine's answer can change, for requests without
`max_tokens` (the ledger's replay decides them so).

A decision reads the prompt size in three places (engine.py), each linear in it: a backend's
context length (dropped past it), a rule's cost cap (the estimated cost per request rises with
the prompt, the cost per million tokens falls), and the `cheapest` order (two backends' estimated
costs cross once). Between two consecutive steps every one of those comparisons comes out the
same, so one decision stands for every prompt size in between; a replay decides once per
step instead of once per size. A change to how the engine reads the prompt size changes
this module too (tests/unit/policy/test_prompt_steps.py checks the two against each other).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from decimal import Decimal
from itertools import combinations

from gateway.policy.engine import MILLION, estimate_cost
from gateway.policy.inputs import BackendLive, RequestInfo
from gateway.policy.plan import Candidate
from gateway.policy.schema import Policy

Line = tuple[Decimal, Decimal]  # estimated USD x 1e6 = slope * prompt + intercept


def prompt_steps(policy: Policy, live: Mapping[str, BackendLive]) -> list[int]:
    """The sorted prompt sizes (0 first) where a decision may differ from the size before."""
    plan = policy.plan
    out = plan.default_output
    steps = {0, 1}  # 0 tokens skips the per-Mtok cap
    lines: dict[str, Line | None] = {}
    for cands in plan.aliases.values():
        for c in cands:
            if c.caps.context_length is not None:
                steps.add(c.caps.context_length + 1)
            lines[c.name] = _line(c, live, out)
    for rule in policy.rules:
        cap = rule.cost_cap
        if cap is None:
            continue
        for line in lines.values():
            if line is not None:
                steps.update(_cap_steps(line, cap.per_request_usd, cap.per_mtok_usd))
    for cands in plan.aliases.values():
        for a, b in combinations(cands, 2):
            steps.update(_crossing(lines[a.name], lines[b.name]))
    return sorted(s for s in steps if s >= 0)


def _line(c: Candidate, live: Mapping[str, BackendLive], out: int) -> Line | None:
    """The candidate's estimate as the engine makes it (`_estimate`), None when unknown."""
    if c.input_per_mtok is not None and c.output_per_mtok is not None:
        return c.input_per_mtok, c.output_per_mtok * out
    if c.spec is None:
        return None
    fixed = estimate_cost(
        c.spec, RequestInfo(alias="", data_class="public"), live.get(c.name, BackendLive()), out
    )
    return None if fixed is None else (Decimal(0), fixed * MILLION)


def _cap_steps(line: Line, per_request: Decimal | None, per_mtok: Decimal | None) -> Iterable[int]:
    """Where a cap starts or stops dropping the backend; the size at the edge gets a step of
    its own, so a rounding of the engine's division there cannot stand for its neighbours."""
    slope, base = line
    if per_request is not None and slope > 0:  # dropped when slope * p + base > cap
        edge = math.floor((per_request * MILLION - base) / slope)
        yield from (edge, edge + 1)
    if per_mtok is not None and per_mtok > slope:  # dropped when p * (cap - slope) < base
        edge = math.floor(base / (per_mtok - slope))
        yield from (edge, edge + 1)


def _crossing(a: Line | None, b: Line | None) -> Iterable[int]:
    """Where two estimates meet: their order (and a tie's) holds on each side."""
    if a is None or b is None or a[0] == b[0]:
        return ()
    at = (b[1] - a[1]) / (a[0] - b[0])
    return (math.floor(at), math.floor(at) + 1)
