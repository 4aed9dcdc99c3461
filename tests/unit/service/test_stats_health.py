"""A passed health check ends an open circuit's cool-down at once: the on-prem node that came
back serves the next special-category request (the probe), instead of 503s for the rest of the
30 s cool-down. A failed one keeps it open; the probe's outcome decides."""

from __future__ import annotations

from gateway.core.errors import FailureKind
from gateway.policy.engine import decide
from gateway.policy.inputs import RequestInfo
from gateway.policy.loader import load_text
from gateway.service.stats import LiveStats, StatsConfig, probe_once

POLICY = load_text("""
version: 1
backends:
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://10.0.0.20:8000/v1", model: m}
aliases:
  chat: {backends: [gpu]}
""").policy
SPECIAL = RequestInfo(alias="chat", data_class="special")


class Node:
    """A health check whose answer the test sets (the node is up or down)."""

    def __init__(self) -> None:
        self.up = False

    async def check(self) -> bool:
        return self.up


def opened(stats: LiveStats, at: float) -> None:
    for i in range(3):
        stats.of("gpu").failure(at + i * 0.1, FailureKind.UNREACHABLE)


async def test_passed_health_check_lets_the_next_request_through_at_once() -> None:
    stats = LiveStats(StatsConfig(failure_threshold=3, cooldown_s=30))
    opened(stats, 0.0)
    node = Node()
    await probe_once(stats, {"gpu": node.check}, lambda: 1.0)  # still down
    assert decide(POLICY, SPECIAL, stats.view(1.0)).candidates == ()
    node.up = True
    await probe_once(stats, {"gpu": node.check}, lambda: 2.0)  # back, 28 s before cool-down
    assert decide(POLICY, SPECIAL, stats.view(2.0)).candidates == ("gpu",)
    gpu = stats.of("gpu")
    assert gpu.begin_attempt(2.0), "the next request is the probe"
    assert not gpu.begin_attempt(2.1), "one probe at a time"
    gpu.success(2.5, 100.0, 300.0, 20.0)
    assert gpu.circuit(2.5) == "closed" and gpu.begin_attempt(2.6)


async def test_a_failed_probe_after_a_passed_check_opens_the_circuit_again() -> None:
    stats = LiveStats(StatsConfig(failure_threshold=3, cooldown_s=30))
    opened(stats, 0.0)
    node = Node()
    node.up = True
    await probe_once(stats, {"gpu": node.check}, lambda: 5.0)
    gpu = stats.of("gpu")
    assert gpu.begin_attempt(5.0)
    gpu.failure(5.5, FailureKind.TRANSIENT)
    assert gpu.circuit(6.0) == "open" and not gpu.begin_attempt(6.0)
    assert decide(POLICY, SPECIAL, stats.view(6.0)).candidates == ()
