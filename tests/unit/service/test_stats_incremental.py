"""The incremental percentiles and the cached snapshot give what sorting the window would."""

from __future__ import annotations

import random

from gateway.core.errors import FailureKind
from gateway.service.stats import BackendStats, LiveStats, StatsConfig, percentile


class Plain:
    """The definition: keep (at, value) samples, age them out, sort on every read."""

    def __init__(self, size: int, window_s: float) -> None:
        self.size, self.window_s = size, window_s
        self.series: dict[str, list[tuple[float, float]]] = {
            k: [] for k in ("ttft", "total", "tps", "outcomes")
        }

    def add(self, key: str, at: float, value: float) -> None:
        s = self.series[key]
        s.append((at, value))
        del s[: -self.size]

    def values(self, key: str, now: float) -> list[float]:
        s = self.series[key]
        s[:] = [(a, v) for a, v in s if now - a <= self.window_s]
        return [v for _, v in s]


def test_random_traffic_matches_sorting_the_window() -> None:
    rng = random.Random(3)
    cfg = StatsConfig(window=20, window_s=30.0, failure_threshold=1000)
    live, plain = BackendStats(cfg), Plain(cfg.window, cfg.window_s)
    now = 0.0
    for _ in range(3000):
        now += rng.choice((0.0, 0.1, 1.0, 5.0, 40.0)) if rng.random() < 0.5 else 0.2
        op = rng.random()
        if op < 0.5:
            ttft = rng.choice((None, rng.uniform(1, 100), 7.0))
            total = rng.choice((None, rng.uniform(1, 500)))
            tps = rng.choice((None, 0.0, rng.uniform(1, 80)))
            live.success(now, ttft, total, tps)
            if ttft is not None:
                plain.add("ttft", now, ttft)
            if total is not None:
                plain.add("total", now, total)
            if tps is not None and tps > 0:
                plain.add("tps", now, tps)
            plain.add("outcomes", now, 0.0)
        elif op < 0.7:
            live.failure(now, FailureKind.CALLER)
            plain.add("outcomes", now, 1.0)
        snap = live.snapshot(now)
        outcomes = plain.values("outcomes", now)
        assert snap.ttft_p95_ms == percentile(plain.values("ttft", now), 0.95)
        assert snap.total_p95_ms == percentile(plain.values("total", now), 0.95)
        assert snap.tokens_per_s == percentile(plain.values("tps", now), 0.5)
        assert snap.samples == len(outcomes)
        assert snap.error_rate == (sum(outcomes) / len(outcomes) if outcomes else 0.0)


def test_snapshot_is_reused_until_something_changes() -> None:
    stats = LiveStats(StatsConfig(window_s=60, failure_threshold=1, cooldown_s=10))
    x = stats.of("x")
    x.success(0.0, 10.0, 20.0, 30.0)
    first = x.snapshot(1.0)
    assert x.snapshot(2.0) is first
    x.success(3.0, 50.0, 60.0, 70.0)
    assert x.snapshot(3.0) is not first and x.snapshot(3.0).ttft_p95_ms == 50.0
    x.failure(4.0, FailureKind.TIMEOUT)
    assert x.snapshot(5.0).circuit == "open"
    assert x.snapshot(15.0).circuit == "half_open"  # the circuit moves with time alone
    assert x.begin_attempt(15.0) and x.snapshot(15.0).circuit == "open"  # probe in flight
    assert x.snapshot(200.0).samples == 0  # aged out


def test_view_takes_only_what_is_asked_for() -> None:
    stats = LiveStats()
    stats.of("a").success(0.0, 5.0, None, None)
    view = stats.view(1.0)
    assert view.get("nope") is None and "nope" not in view
    assert view["a"].ttft_p95_ms == 5.0 and list(view) == ["a"] and len(view) == 1
    assert dict(view) == dict(stats.snapshot(1.0))
