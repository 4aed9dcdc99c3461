"""On-prem cost shared across the requests a node serves at once, over simulated time."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from gateway.usage.onprem_cost import NodeCostMeter

HOURLY = Decimal("3.60")  # 0.001 USD per second


def _stream_cost(concurrent: int) -> Decimal:
    """Cost per token of one of `concurrent` equal streams (100 tokens in 10 s each)."""
    meter = NodeCostMeter(HOURLY)
    for i in range(concurrent):
        meter.started(i, 0.0)
    costs = [meter.finished(i, 10.0) for i in range(concurrent)]
    return costs[0] / 100


@pytest.mark.parametrize("n", [2, 4, 16])
def test_n_concurrent_streams_cost_one_nth_per_token(n: int) -> None:
    assert _stream_cost(1) == Decimal("0.0001")
    assert _stream_cost(n) * n == _stream_cost(1)


def _simulated_hour(seed: int, charge_idle: bool) -> tuple[Decimal, NodeCostMeter]:
    """Random overlapping requests over one hour; the last ends at 3600 s."""
    rng = random.Random(seed)
    events: list[tuple[float, int, int]] = []  # (time, 0 = end / 1 = start, request)
    t = 0.0
    for i in range(400):
        t += rng.expovariate(1 / 8.0)
        dur = rng.uniform(0.5, 30.0)
        events += [(min(t, 3590.0), 1, i), (min(t + dur, 3600.0), 0, i)]
    events.append((3580.0, 1, -1))
    events.append((3600.0, 0, -1))
    events.sort()
    meter = NodeCostMeter(HOURLY, charge_idle=charge_idle)
    total = Decimal(0)
    for at, kind, key in events:
        if kind == 1:
            meter.started(key, at)
        else:
            total += meter.finished(key, at)
    return total, meter


@pytest.mark.parametrize("seed", [1, 2])
def test_an_hour_costs_the_utilised_share_or_the_whole_hour_to_the_cent(seed: int) -> None:
    total, meter = _simulated_hour(seed, charge_idle=False)
    share = meter.utilisation(3600.0)
    assert Decimal("0.2") < share < Decimal("1")  # really idle part of the hour
    assert total.quantize(Decimal("0.01")) == (HOURLY * share).quantize(Decimal("0.01"))
    charged, _ = _simulated_hour(seed, charge_idle=True)
    assert charged.quantize(Decimal("0.01")) == HOURLY


def test_time_going_backwards_is_refused() -> None:
    meter = NodeCostMeter(HOURLY)
    meter.started("a", 5.0)
    with pytest.raises(ValueError):
        meter.finished("a", 4.0)
