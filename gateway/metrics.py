"""Prometheus metrics (`GET /metrics`): one registry per app, fed by the usage recorder.

The exact money is the ledger's (Decimal); the cost counter here is for dashboards and alerts.

`observe()` runs for every request, so it only adds to plain per-label-key accumulators (one
small slotted object per (backend, data class, status)): no prometheus_client Counter or
Histogram, whose every inc/observe takes a threading lock (about 2.3% of the gateway's CPU at
1,500 req/s). The metric families are built from the accumulators at scrape time.

No locks, because there is one thread: `observe` is the recorder's observer, called only from
`Recorder.record()` (gateway/usage/recorder.py), which ChatService, EmbeddingsService and the
handlers' `record_rejected` call synchronously from their coroutines on the event loop (the
recorder's worker-thread work, database writes and journal syncs, calls no observer). The scrape
is an async route on that same loop, so a scrape never sees a half-made update.

The series are the contract with infra/grafana/dashboards/gecit-gateway.json and the table in
docs/deployment.md; tests/api/test_metrics_contract.py keeps the three in step.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol

from fastapi import APIRouter, Request
from prometheus_client import CollectorRegistry, ProcessCollector, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString
from starlette.responses import Response

from gateway.service.stats import LiveStats
from gateway.usage.records import AttemptRecord, UsageRecord

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120)
TTFT_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30)
BUDGET_REFUSAL = "budget_exhausted"  # the error code of a budget's `refuse` (a 429)
POLICY_BLOCK = "blocked_by_policy"  # the error code of a policy block (a 403)

BackendsUp = Callable[[], Mapping[str, bool]]
ReloadCounts = Callable[[], Mapping[str, int]]
_Key = tuple[str | None, str | None, int]  # (backend, data class, status) as recorded


class _Series:
    """Everything observed for one (backend, data class, status). Histogram buckets are
    per-bucket counts (the last one is +Inf), made cumulative at scrape time."""

    __slots__ = (
        "completion",
        "cost",
        "latency",
        "latency_sum",
        "prompt",
        "requests",
        "ttft",
        "ttft_sum",
        "unpriced",
    )

    def __init__(self) -> None:
        self.requests = 0
        self.prompt = 0
        self.completion = 0
        self.cost = 0.0
        self.unpriced = 0
        self.latency = [0] * (len(LATENCY_BUCKETS) + 1)
        self.latency_sum = 0.0
        self.ttft = [0] * (len(TTFT_BUCKETS) + 1)
        self.ttft_sum = 0.0

    def add(self, other: _Series) -> None:
        self.requests += other.requests
        self.prompt += other.prompt
        self.completion += other.completion
        self.cost += other.cost
        self.unpriced += other.unpriced
        self.latency = [a + b for a, b in zip(self.latency, other.latency, strict=True)]
        self.latency_sum += other.latency_sum
        self.ttft = [a + b for a, b in zip(self.ttft, other.ttft, strict=True)]
        self.ttft_sum += other.ttft_sum


class _BudgetCollector(Collector):
    def __init__(
        self,
        views: Callable[[], Iterable[Any]],
        backlog: Callable[[], int],
        quarantined: Callable[[], int] | None = None,
    ) -> None:
        self._views = views
        self._backlog = backlog
        self._quarantined = quarantined

    def collect(self) -> Iterator[Metric]:
        g = GaugeMetricFamily(
            "gecit_budget_remaining",
            "Money left in a budget's running period (limit - spent - reserved)",
            labels=["budget", "currency"],
        )
        for v in self._views():
            g.add_metric([v.id, v.currency], float(v.remaining))
        yield g
        b = GaugeMetricFamily("gecit_ledger_backlog", "Ledger entries not yet in the database")
        b.add_metric([], float(self._backlog()))
        yield b
        if self._quarantined is not None:
            q = GaugeMetricFamily(
                "gecit_ledger_quarantined",
                "Ledger entries the database refused, kept in quarantine",
            )
            q.add_metric([], float(self._quarantined()))
            yield q


class OffloadCounts(Protocol):
    """What a child-process pool counts (gateway.core.offload.ChildPool)."""

    workers: int
    done: int
    timed_out: int
    failed: int
    restarts: int

    @property
    def in_flight(self) -> int: ...

    @property
    def queued(self) -> int: ...


class _OffloadCollector(Collector):
    """The child processes that parse large bodies and classify long requests, at scrape
    time: a queue that grows, or timeouts, say the pool is too small for the large requests
    it is sent; restarts say a child died."""

    def __init__(self, pool: OffloadCounts) -> None:
        self._pool = pool

    def collect(self) -> Iterator[Metric]:
        pool = self._pool
        jobs = CounterMetricFamily(
            "gecit_offload_jobs",
            "Jobs sent to the child processes, by how they ended",
            labels=["result"],
        )
        for result, n in (
            ("done", pool.done),
            ("timed_out", pool.timed_out),
            ("failed", pool.failed),
        ):
            jobs.add_metric([result], n)
        yield jobs
        for name, help_text, value in (
            ("gecit_offload_workers", "Child processes in the pool", pool.workers),
            ("gecit_offload_in_flight", "Jobs running in a child or queued", pool.in_flight),
            ("gecit_offload_queued", "Jobs waiting for a free child", pool.queued),
        ):
            g = GaugeMetricFamily(name, help_text)
            g.add_metric([], float(value))
            yield g
        restarts = CounterMetricFamily(
            "gecit_offload_restarts", "Pools started again after a child died"
        )
        restarts.add_metric([], pool.restarts)
        yield restarts


class Metrics(Collector):
    """The app's registry, and the collector of the request series (registered on it)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._series: dict[_Key, _Series] = {}
        self._blocked: dict[str, int] = {}  # reason -> requests
        self._fallbacks: dict[tuple[str, str], int] = {}  # (from, to) -> requests
        self._backends_up: BackendsUp | None = None
        self._reloads: ReloadCounts | None = None
        self.registry.register(self)
        ProcessCollector(registry=self.registry)  # process_resident_memory_bytes, CPU, fds

    def add_budget_source(
        self,
        views: Callable[[], Iterable[Any]],
        backlog: Callable[[], int],
        quarantined: Callable[[], int] | None = None,
    ) -> None:
        self.registry.register(_BudgetCollector(views, backlog, quarantined))

    def add_offload_source(self, pool: OffloadCounts) -> None:
        """The child-process pool's counts (gecit_offload_*), read at scrape time."""
        self.registry.register(_OffloadCollector(pool))

    def add_runtime_source(self, backends_up: BackendsUp, reloads: ReloadCounts) -> None:
        """Gauges read at scrape time: backend name -> up, and hot reloads by result."""
        self._backends_up = backends_up
        self._reloads = reloads

    # ---- request path (event loop thread only, see the module docstring) -------------------
    def observe(self, rec: UsageRecord, entry: dict[str, Any]) -> None:
        key = (rec.backend, rec.data_class, rec.status)
        s = self._series.get(key)
        if s is None:
            s = self._series[key] = _Series()
        s.requests += 1
        s.prompt += rec.prompt_tokens
        s.completion += rec.completion_tokens
        cost = entry.get("cost")
        if cost is not None:
            s.cost += float(cost)  # the ledger's Decimal as a string: no Decimal on this path
        elif rec.backend is not None:
            s.unpriced += 1
        seconds = rec.latency_ms / 1000
        s.latency[bisect_left(LATENCY_BUCKETS, seconds)] += 1  # le is inclusive
        s.latency_sum += seconds
        if rec.ttft_ms is not None:
            seconds = rec.ttft_ms / 1000
            s.ttft[bisect_left(TTFT_BUCKETS, seconds)] += 1
            s.ttft_sum += seconds
        if rec.error_kind is not None:
            self._refused(rec, rec.error_kind)
        if len(rec.attempts) > 1 and rec.backend is not None:
            self._fell_back(rec.attempts, rec.backend)

    def _refused(self, rec: UsageRecord, code: str) -> None:
        """A policy block counts under the rule that refused it (bounded by the policy's
        rules), a budget refusal as `budget_exhausted`."""
        if code == POLICY_BLOCK:
            reason = f"rule:{rec.rule or 'default'}"
        elif code == BUDGET_REFUSAL:
            reason = BUDGET_REFUSAL
        else:
            return
        self._blocked[reason] = self._blocked.get(reason, 0) + 1

    def _fell_back(self, attempts: list[AttemptRecord], served_by: str) -> None:
        """Each backend that failed or was skipped before `served_by` served: once a request
        (retries on one backend are not fallbacks, nor is passing over a backend that lacks
        what the request needs: it could never have served it)."""
        for src in {
            a.backend
            for a in attempts
            if a.outcome != "ok"
            and a.backend != served_by
            and not (a.outcome == "skipped" and a.failure_kind == "unsupported")
        }:
            pair = (src, served_by)
            self._fallbacks[pair] = self._fallbacks.get(pair, 0) + 1

    # ---- scrape ------------------------------------------------------------------------
    def describe(self) -> Iterator[Metric]:
        return self._families(False)

    def collect(self) -> Iterator[Metric]:
        return self._families(True)

    def _families(self, with_samples: bool) -> Iterator[Metric]:
        lb = ["backend", "data_class"]
        requests = CounterMetricFamily("gecit_requests", "Requests served", labels=[*lb, "status"])
        tokens = CounterMetricFamily("gecit_tokens", "Tokens by kind", labels=[*lb, "kind"])
        cost = CounterMetricFamily("gecit_cost_usd", "Cost in USD of priced requests", labels=lb)
        unpriced = CounterMetricFamily(
            "gecit_unpriced_requests", "Requests whose cost is unknown", labels=lb
        )
        latency = HistogramMetricFamily(
            "gecit_request_latency_seconds", "Total request latency", labels=lb
        )
        ttft = HistogramMetricFamily("gecit_ttft_seconds", "Time to first token", labels=lb)
        blocked = CounterMetricFamily(
            "gecit_blocked", "Requests the policy or a budget refused", labels=["reason"]
        )
        fallbacks = CounterMetricFamily(
            "gecit_fallbacks",
            "Requests served by another backend after one failed or was skipped",
            labels=["from_backend", "to_backend"],
        )
        up = GaugeMetricFamily(
            "gecit_backend_up",
            "1 if the backend is enabled and its circuit is not open",
            labels=["backend"],
        )
        reloads = CounterMetricFamily(
            "gecit_policy_reloads", "Policy hot reloads by result", labels=["result"]
        )
        if with_samples:
            by_pair = self._by_backend_and_class()
            for (backend, data_class, status), s in self._series.items():
                requests.add_metric(
                    [backend or "none", data_class or "unknown", str(status)], s.requests
                )
            for (backend, data_class), s in by_pair.items():
                tokens.add_metric([backend, data_class, "prompt"], s.prompt)
                tokens.add_metric([backend, data_class, "completion"], s.completion)
                cost.add_metric([backend, data_class], s.cost)
                unpriced.add_metric([backend, data_class], s.unpriced)
                latency.add_metric(
                    [backend, data_class], _cumulative(LATENCY_BUCKETS, s.latency), s.latency_sum
                )
                ttft.add_metric(
                    [backend, data_class], _cumulative(TTFT_BUCKETS, s.ttft), s.ttft_sum
                )
            for reason, n in sorted(self._blocked.items()):
                blocked.add_metric([reason], n)
            for (src, dst), n in sorted(self._fallbacks.items()):
                fallbacks.add_metric([src, dst], n)
            for name, ok in sorted((self._backends_up or dict)().items()):
                up.add_metric([name], 1.0 if ok else 0.0)
            for result, n in sorted((self._reloads or dict)().items()):
                reloads.add_metric([result], n)
        yield from (
            requests,
            tokens,
            cost,
            unpriced,
            latency,
            ttft,
            blocked,
            fallbacks,
            up,
            reloads,
        )

    def _by_backend_and_class(self) -> dict[tuple[str, str], _Series]:
        """The accumulators summed over status, keyed by the exported label values."""
        out: dict[tuple[str, str], _Series] = {}
        for (backend, data_class, _), s in self._series.items():
            pair = (backend or "none", data_class or "unknown")
            t = out.get(pair)
            if t is None:
                t = out[pair] = _Series()
            t.add(s)
        return out

    def render(self) -> bytes:
        return bytes(generate_latest(self.registry))


def _cumulative(bounds: tuple[float, ...], counts: list[int]) -> list[tuple[str, float]]:
    out: list[tuple[str, float]] = []
    total = 0
    for le, n in zip([*map(floatToGoString, bounds), "+Inf"], counts, strict=True):
        total += n
        out.append((le, total))
    return out


def backends_up(
    providers: Mapping[str, object],
    disabled: Mapping[str, str],
    stats: LiveStats,
    now: Callable[[], float],
) -> BackendsUp:
    """At scrape time, each policy backend: up when its provider is built (not disabled) and
    the router would try it (its circuit is not open). The pool keeps `providers` and
    `disabled` as the very mappings it updates on a policy swap."""

    def up() -> dict[str, bool]:
        live = stats.view(now())
        out = dict.fromkeys(disabled, False)
        for name in providers:
            snap = live.get(name)
            out[name] = snap is None or snap.circuit != "open"
        return out

    return up


def build_metrics_router() -> APIRouter:
    router = APIRouter()

    @router.get("/metrics")
    async def metrics(request: Request) -> Response:
        rt = request.app.state.runtime
        auth = rt.auth  # gateway.openai_api.auth.Authenticator
        if auth is not None:
            await auth.authorize_metrics(request)
        m: Metrics | None = rt.metrics
        body = m.render() if m is not None else b""
        return Response(body, media_type=CONTENT_TYPE)

    return router
