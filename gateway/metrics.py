"""Prometheus metrics (`GET /metrics`): one registry per app, fed by the usage recorder.

The exact money is the ledger's (Decimal); the cost counter here is for dashboards and alerts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from fastapi import APIRouter, Request
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.responses import Response

from gateway.usage.records import UsageRecord

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120)
TTFT_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30)


class _BudgetCollector(Collector):
    def __init__(self, views: Callable[[], Iterable[Any]], backlog: Callable[[], int]) -> None:
        self._views = views
        self._backlog = backlog

    def collect(self) -> Iterator[Metric]:
        g = GaugeMetricFamily("gecit_budget_remaining",
                              "Money left in a monthly budget (limit - spent - reserved)",
                              labels=["budget", "currency"])
        for v in self._views():
            g.add_metric([v.id, v.currency], float(v.remaining))
        yield g
        b = GaugeMetricFamily("gecit_ledger_backlog", "Ledger entries not yet in the database")
        b.add_metric([], float(self._backlog()))
        yield b


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._children: dict[tuple[str, str, int], _Children] = {}
        labels = ["backend", "data_class"]
        self.requests = Counter("gecit_requests", "Requests served", [*labels, "status"],
                                registry=self.registry)
        self.tokens = Counter("gecit_tokens", "Tokens by kind", [*labels, "kind"],
                              registry=self.registry)
        self.cost = Counter("gecit_cost_usd", "Cost in USD of priced requests", labels,
                            registry=self.registry)
        self.unpriced = Counter("gecit_unpriced_requests", "Requests whose cost is unknown",
                                labels, registry=self.registry)
        self.latency = Histogram("gecit_request_latency_seconds", "Total request latency",
                                 labels, buckets=LATENCY_BUCKETS, registry=self.registry)
        self.ttft = Histogram("gecit_ttft_seconds", "Time to first token", labels,
                              buckets=TTFT_BUCKETS, registry=self.registry)

    def add_budget_source(self, views: Callable[[], Iterable[Any]],
                          backlog: Callable[[], int]) -> None:
        self.registry.register(_BudgetCollector(views, backlog))

    def observe(self, rec: UsageRecord, entry: dict[str, Any]) -> None:
        # runs on the event loop for every request: resolve the labelled children once per
        # (backend, data class, status) instead of prometheus' labels() lookup each time
        key = (rec.backend or "none", rec.data_class or "unknown", rec.status)
        c = self._children.get(key)
        if c is None:
            c = self._children[key] = self._resolve(key)
        c.requests.inc()
        if rec.prompt_tokens:
            c.prompt.inc(rec.prompt_tokens)
        if rec.completion_tokens:
            c.completion.inc(rec.completion_tokens)
        cost = entry.get("cost")
        if cost is not None:
            c.cost.inc(float(Decimal(cost)))
        elif rec.backend is not None:
            c.unpriced.inc()
        c.latency.observe(rec.latency_ms / 1000)
        if rec.ttft_ms is not None:
            c.ttft.observe(rec.ttft_ms / 1000)

    def _resolve(self, key: tuple[str, str, int]) -> _Children:
        backend, data_class, status = key
        lb = (backend, data_class)
        return _Children(
            requests=self.requests.labels(*lb, str(status)),
            prompt=self.tokens.labels(*lb, "prompt"),
            completion=self.tokens.labels(*lb, "completion"),
            cost=self.cost.labels(*lb), unpriced=self.unpriced.labels(*lb),
            latency=self.latency.labels(*lb), ttft=self.ttft.labels(*lb))

    def render(self) -> bytes:
        return bytes(generate_latest(self.registry))


@dataclass(frozen=True, slots=True)
class _Children:
    requests: Any
    prompt: Any
    completion: Any
    cost: Any
    unpriced: Any
    latency: Any
    ttft: Any


def build_metrics_router() -> APIRouter:
    router = APIRouter()

    @router.get("/metrics")
    async def metrics(request: Request) -> Response:
        rt = request.app.state.runtime
        m: Metrics | None = rt.extras.get("metrics")
        body = m.render() if m is not None else b""
        return Response(body, media_type=CONTENT_TYPE)

    return router
