"""gateway.metrics: the per-key accumulators and what the scrape makes of them."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from gateway.core.errors import FailureKind
from gateway.core.offload import ChildPool, OffloadFailed
from gateway.metrics import LATENCY_BUCKETS, Metrics, backends_up
from gateway.policy.loader import PolicyError, load_text
from gateway.policy.reload import PolicyReloader
from gateway.service.stats import LiveStats, StatsConfig
from gateway.usage.records import AttemptRecord, UsageRecord

POLICY = """
version: 1
backends:
  a: {{kind: openai_compat, zone: on_prem, base_url: "http://x", model: {model}}}
aliases:
  chat: {{backends: [a]}}
"""


def _rec(
    status: int = 200, backend: str | None = "cloud", latency_ms: float = 100.0, **kw: Any
) -> UsageRecord:
    return UsageRecord(
        request_id="r",
        created_at=0.0,
        alias="chat",
        status=status,
        backend=backend,
        data_class=kw.pop("data_class", "public"),
        latency_ms=latency_ms,
        **kw,
    )


def _samples(m: Metrics, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    out = {}
    for family in text_string_to_metric_families(m.render().decode()):
        for s in family.samples:
            if s.name == name:
                out[tuple(sorted(s.labels.items()))] = s.value
    return out


def _one(m: Metrics, name: str, **labels: str) -> float | None:
    return _samples(m, name).get(tuple(sorted(labels.items())))


def test_histogram_buckets_are_inclusive_and_cumulative() -> None:
    m = Metrics()
    for ms in (50.0, 50.001, 120_000.0, 500_000.0):  # on a bound, just past, last, beyond
        m.observe(_rec(latency_ms=ms, ttft_ms=ms), {"cost": None})
    lb = {"backend": "cloud", "data_class": "public"}
    name = "gecit_request_latency_seconds_bucket"
    assert _one(m, name, le="0.05", **lb) == 1
    assert _one(m, name, le="0.1", **lb) == 2
    assert _one(m, name, le="60.0", **lb) == 2
    assert _one(m, name, le="120.0", **lb) == 3
    assert _one(m, name, le="+Inf", **lb) == 4
    assert len([k for k in _samples(m, name)]) == len(LATENCY_BUCKETS) + 1
    assert _one(m, "gecit_request_latency_seconds_count", **lb) == 4
    assert _one(m, "gecit_request_latency_seconds_sum", **lb) == pytest.approx(620.100001)
    assert _one(m, "gecit_ttft_seconds_bucket", le="0.05", **lb) == 1
    assert _one(m, "gecit_ttft_seconds_count", **lb) == 4


def test_tokens_cost_and_unpriced_sum_over_statuses() -> None:
    m = Metrics()
    m.observe(_rec(prompt_tokens=10, completion_tokens=5), {"cost": "0.25"})
    m.observe(_rec(status=502, prompt_tokens=3), {"cost": "1E-1"})
    m.observe(_rec(status=502), {"cost": None})
    m.observe(_rec(status=400, backend=None, data_class=None), {"cost": None})
    lb = {"backend": "cloud", "data_class": "public"}
    assert _one(m, "gecit_requests_total", status="200", **lb) == 1
    assert _one(m, "gecit_requests_total", status="502", **lb) == 2
    assert _one(m, "gecit_requests_total", backend="none", data_class="unknown", status="400") == 1
    assert _one(m, "gecit_tokens_total", kind="prompt", **lb) == 13
    assert _one(m, "gecit_tokens_total", kind="completion", **lb) == 5
    assert _one(m, "gecit_cost_usd_total", **lb) == pytest.approx(0.35)
    assert _one(m, "gecit_unpriced_requests_total", **lb) == 1  # not the backend-less one
    assert _one(m, "gecit_unpriced_requests_total", backend="none", data_class="unknown") == 0


def test_blocked_by_rule_and_by_budget_only() -> None:
    m = Metrics()
    for _ in range(2):
        m.observe(_rec(403, None, rule="no-special", error_kind="blocked_by_policy"), {})
    m.observe(_rec(429, None, error_kind="budget_exhausted"), {})
    m.observe(_rec(429, "cloud", error_kind="rate_limit_exceeded"), {})  # the upstream's
    m.observe(_rec(502, "cloud", error_kind="transient"), {})
    assert _samples(m, "gecit_blocked_total") == {
        (("reason", "budget_exhausted"),): 1,
        (("reason", "rule:no-special"),): 2,
    }


def test_fallbacks_count_each_backend_left_once_per_request() -> None:
    m = Metrics()
    att = [
        AttemptRecord(1, "cloud", "failed", "transient", 500),
        AttemptRecord(2, "cloud", "failed", "transient", 500),
        AttemptRecord(3, "other", "skipped", "circuit_open"),
        AttemptRecord(4, "local", "ok"),
    ]
    m.observe(_rec(backend="local", attempts=att), {})
    retried = [
        AttemptRecord(1, "cloud", "failed", "transient", 500),
        AttemptRecord(2, "cloud", "ok"),
    ]
    m.observe(_rec(backend="cloud", attempts=retried), {})  # a retry is not a fallback
    m.observe(_rec(502, None, attempts=att[:3]), {})  # nobody served: nothing to fall back to
    assert _samples(m, "gecit_fallbacks_total") == {
        (("from_backend", "cloud"), ("to_backend", "local")): 1,
        (("from_backend", "other"), ("to_backend", "local")): 1,
    }


def test_backend_up_reads_the_pool_and_the_circuits_at_scrape_time() -> None:
    now = [0.0]
    stats = LiveStats(StatsConfig(failure_threshold=2, cooldown_s=30))
    providers: dict[str, object] = {"cloud": object(), "local": object()}
    disabled = {"bedrock": "no credentials"}
    m = Metrics()
    m.add_runtime_source(
        backends_up(providers, disabled, stats, lambda: now[0]),
        lambda: {"accepted": 0, "rejected": 0},
    )
    up = {k[0][1]: v for k, v in _samples(m, "gecit_backend_up").items()}
    assert up == {"cloud": 1.0, "local": 1.0, "bedrock": 0.0}
    for _ in range(2):
        stats.of("cloud").failure(now[0], FailureKind.TRANSIENT)
    assert _one(m, "gecit_backend_up", backend="cloud") == 0.0
    now[0] = 31.0  # half-open: the router would send it a probe
    assert _one(m, "gecit_backend_up", backend="cloud") == 1.0
    del providers["local"]
    disabled["local"] = "replaced by a policy swap"
    assert _one(m, "gecit_backend_up", backend="local") == 0.0


def test_the_reloader_counts_accepted_and_rejected_reloads() -> None:
    r = PolicyReloader(load_text(POLICY.format(model="m1")), now=lambda: 0.0)
    r.apply_text(POLICY.format(model="m2"), "admin")
    r.apply_text(POLICY.format(model="m2"), "admin")  # unchanged: not a reload
    with pytest.raises(PolicyError):
        r.apply_text("version: 1\nbackends: 3\n", "admin")

    def refuse(_old: object, _new: object) -> None:
        raise RuntimeError("provider build failed")

    r2 = PolicyReloader(load_text(POLICY.format(model="m1")), now=lambda: 0.0, on_swap=refuse)
    with pytest.raises(RuntimeError):
        r2.apply_text(POLICY.format(model="m2"), "admin")
    assert (r.accepted, r.rejected) == (1, 1)
    assert (r2.accepted, r2.rejected) == (0, 1)
    m = Metrics()
    m.add_runtime_source(dict, lambda: {"accepted": r.accepted, "rejected": r.rejected})
    assert _one(m, "gecit_policy_reloads_total", result="accepted") == 1
    assert _one(m, "gecit_policy_reloads_total", result="rejected") == 1


def test_process_metrics_are_registered() -> None:
    assert (_one(Metrics(), "process_resident_memory_bytes") or 0) > 0


def test_the_child_pool_counts_are_exported_at_scrape_time() -> None:
    pool = ChildPool(1)
    try:
        m = Metrics()
        m.add_offload_source(pool)
        assert _one(m, "gecit_offload_workers") == 1
        assert _one(m, "gecit_offload_jobs_total", result="done") == 0
        assert asyncio.run(pool.run(30, os.getpid)) != os.getpid()
        with pytest.raises(OffloadFailed):
            asyncio.run(pool.run(30, os._exit, 3))  # the child dies
        with pytest.raises(TimeoutError):
            asyncio.run(pool.run(0, os.getpid))  # a deadline already spent
        assert _one(m, "gecit_offload_jobs_total", result="done") == 1
        assert _one(m, "gecit_offload_jobs_total", result="failed") == 1
        assert _one(m, "gecit_offload_jobs_total", result="timed_out") == 1
        assert _one(m, "gecit_offload_restarts_total") == 1  # a new pool for the last job
        assert _one(m, "gecit_offload_in_flight") == pool.in_flight
        assert _one(m, "gecit_offload_queued") == 0
    finally:
        pool.close()
