"""Circuit breaker, rolling percentiles with ageing, and file-watch reload."""

from __future__ import annotations

from pathlib import Path

from gateway.core.errors import FailureKind
from gateway.policy.loader import load_file
from gateway.policy.reload import PolicyChange, PolicyReloader
from gateway.service.stats import LiveStats, StatsConfig

GOOD = "version: 1\nbackends:\n  l: {kind: local}\naliases:\n  NAME: {backends: [l]}\n"


def test_circuit_opens_after_consecutive_failures_then_half_opens_one_probe() -> None:
    s = LiveStats(StatsConfig(failure_threshold=3, cooldown_s=10)).of("x")
    for t in (0.0, 1.0):
        s.failure(t, FailureKind.TRANSIENT)
    s.failure(1.5, FailureKind.CALLER)  # the caller's fault says nothing about health
    assert s.circuit(2.0) == "closed"
    s.failure(2.0, FailureKind.TIMEOUT)
    assert s.circuit(3.0) == "open" and not s.begin_attempt(3.0)
    assert s.circuit(12.5) == "half_open"
    assert s.begin_attempt(12.5) and not s.begin_attempt(12.6)  # one probe at a time
    s.failure(13.0, FailureKind.TRANSIENT)
    assert s.circuit(13.0) == "open"
    assert s.begin_attempt(23.5)
    s.success(24.0, 100.0, 200.0, 50.0)
    assert s.circuit(24.0) == "closed"


def test_percentiles_age_out_of_the_window() -> None:
    stats = LiveStats(StatsConfig(window_s=60))
    x = stats.of("x")
    for i in range(20):
        x.success(float(i), ttft_ms=100.0 + i * 10, total_ms=1000.0, tokens_per_s=20.0)
    snap = stats.snapshot(20.0)["x"]
    assert snap.ttft_p95_ms == 280.0 and snap.tokens_per_s == 20.0 and snap.samples == 20
    assert stats.snapshot(200.0)["x"].ttft_p95_ms is None  # unmeasured again


def test_file_watch_swaps_valid_and_refuses_invalid(tmp_path: Path) -> None:
    f = tmp_path / "p.yaml"
    f.write_text(GOOD.replace("NAME", "one"))
    seen: list[PolicyChange] = []
    r = PolicyReloader(load_file(f), now=lambda: 1000.0, sink=seen.append, path=f)
    assert r.check_file() is None  # unchanged
    f.write_text(GOOD.replace("NAME", "two"))
    assert r.check_file() is not None and r.current().aliases == ["two"]
    f.write_text(GOOD.replace("NAME", "three").replace("kind: local", "kind: nope"))
    assert r.check_file() is None and r.current().aliases == ["two"]
    assert [c.actor for c in seen] == ["file-watch"] and seen[0].at == 1000.0
    assert seen[0].sha256 == r.current().sha256 and list(r.changes) == seen


def test_a_probe_that_never_reports_back_does_not_keep_the_circuit_open() -> None:
    from gateway.core.errors import FailureKind
    from gateway.service.stats import BackendStats, StatsConfig

    cfg = StatsConfig(failure_threshold=1, cooldown_s=10.0)
    s = BackendStats(cfg)
    s.failure(0.0, FailureKind.TRANSIENT)
    assert s.circuit(5.0) == "open" and not s.begin_attempt(5.0)
    assert s.begin_attempt(11.0), "half-open: one probe may go"
    assert not s.begin_attempt(12.0), "only one probe at a time"
    # the probe vanished (e.g. the client went away before it started): after another
    # cool-down a new probe is allowed instead of the circuit staying open for ever
    assert s.begin_attempt(22.0)
    s.failure(22.5, FailureKind.CALLER)  # a verdict that says nothing about health
    assert s.begin_attempt(23.0), "a probe ending without a health verdict frees the slot"
    s.success(23.5, 10.0, 20.0, None)
    assert s.circuit(24.0) == "closed"
