"""`prompt_steps` against the engine itself: on random policies (prices, hourly on-prem
backends, context lengths, per-request and per-Mtok cost caps, the `cheapest` and `ordered`
objectives) every prompt size from 0 to 6000 is decided, and between two consecutive steps the
decision (candidates in order, each dropped backend's reason code, the rule, a block) never
changes."""

from __future__ import annotations

import itertools
import random

import pytest

from gateway.policy.engine import decide
from gateway.policy.inputs import BackendLive, RequestInfo
from gateway.policy.loader import load_text
from gateway.policy.prompt_steps import prompt_steps
from gateway.policy.schema import Policy

SIZES = 6000
BLOCK = "action: block"


def _random_policy(rnd: random.Random) -> Policy:
    lines = ["version: 1", "backends:"]
    names = [f"b{i}" for i in range(rnd.randint(2, 5))]
    for name in names:
        lines.append(f"  {name}:")
        lines.append("    {kind: openai_compat, base_url: 'http://127.0.0.1:9', model: m,")
        if rnd.random() < 0.3:
            lines.append(f"     zone: on_prem, hourly_cost_usd: '{rnd.randint(1, 9)}',")
        else:
            zone = rnd.choice(["cloud", "on_prem"])
            price = f"{rnd.randint(1, 50) / 10}", f"{rnd.randint(1, 200) / 10}"
            lines.append(f"     zone: {zone}, price: {{input_per_mtok: '{price[0]}', ")
            lines.append(f"     output_per_mtok: '{price[1]}'}},")
        if rnd.random() < 0.4:
            lines.append(f"     capabilities: {{context_length: {rnd.randint(100, 5000)}}},")
        lines.append("    }")
    lines.append(f"aliases: {{chat: {{backends: [{', '.join(rnd.sample(names, len(names)))}]}}}}")
    objective = rnd.choice(["cheapest", "ordered"])
    lines.append(f"defaults: {{objective: {objective}, default_output_tokens: 512}}")
    caps = []
    if rnd.random() < 0.8:
        caps.append(f"per_request_usd: '{rnd.randint(2, 40) / 1000}'")
    if rnd.random() < 0.6:
        caps.append(f"per_mtok_usd: '{rnd.randint(5, 200) / 10}'")
    lines.append("rules:")
    lines.append(f"  - {{name: private, match: {{data_classes: [personal, special]}}, {BLOCK}}}")
    if caps:
        lines.append(f"  - {{name: capped, cost_cap: {{{', '.join(caps)}}}}}")
    return load_text("\n".join(lines) + "\n").policy


def _signature(policy: Policy, p: int, live: dict[str, BackendLive]) -> tuple[object, ...]:
    d = decide(policy, RequestInfo(alias="chat", data_class="public", prompt_tokens=p), live)
    return d.candidates, d.blocked, d.rule, tuple((x.backend, x.code) for x in d.dropped)


@pytest.mark.parametrize("seed", range(12))
def test_a_decision_never_changes_between_two_steps(seed: int) -> None:
    rnd = random.Random(seed)
    policy = _random_policy(rnd)
    live = {n: BackendLive(tokens_per_s=rnd.uniform(10, 120)) for n in policy.backends}
    steps = prompt_steps(policy, live)
    assert steps[0] == 0 and steps == sorted(set(steps))
    bounds = [s for s in steps if s < SIZES] + [SIZES]
    changes = 0
    for lo, hi in itertools.pairwise(bounds):
        first = _signature(policy, lo, live)
        for p in range(lo + 1, hi):
            assert _signature(policy, p, live) == first, (seed, lo, p, steps)
        changes += hi < SIZES and _signature(policy, hi, live) != first
    print(f"seed {seed}: {len(steps)} steps, {changes} real changes below {SIZES}")


def test_steps_find_the_edges_of_a_known_policy() -> None:
    policy = load_text(
        """
version: 1
backends:
  big: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: m,
        price: {input_per_mtok: "2", output_per_mtok: "10"}}
  small: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: m,
          price: {input_per_mtok: "1", output_per_mtok: "20"},
          capabilities: {context_length: 3000}}
aliases: {chat: {backends: [big, small]}}
defaults: {objective: cheapest, default_output_tokens: 100}
rules:
  - {name: private, match: {data_classes: [personal, special]}, action: block}
  - {name: capped, cost_cap: {per_request_usd: "0.01"}}
"""
    ).policy
    steps = prompt_steps(policy, {})
    # small's context; the estimates cross at 1000 (2p + 1000 = p + 2000); the cap drops big
    # past 4500 (2p + 1000 > 10000) and small past 8000
    for edge in (3001, 1000, 1001, 4500, 4501, 8000, 8001):
        assert edge in steps
