"""Per-node figures of every on-prem pool on `/metrics`, read at scrape time: Geçit's own
(requests in flight, output tokens served, seconds busy, requests waiting in its queue) and the
engine's (requests running and waiting, KV-cache use) as of the last fresh scrape.

A node's hourly cost is its share of the pool's `hourly_cost_usd` by capacity `weight`, so a
dashboard can show cost per million tokens (hourly cost x busy share / tokens per hour) and
compare it with the cheapest allowed cloud's price.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from gateway.fleet.provider import FleetProvider

NODE = ["backend", "node"]


class FleetCollector(Collector):
    def __init__(self, providers: Mapping[str, object], policy: Callable[[], Any]) -> None:
        self._providers = providers  # the pool's live mapping: a policy swap shows at once
        self._policy = policy

    def collect(self) -> Iterator[Metric]:
        in_flight = GaugeMetricFamily(
            "gecit_fleet_node_in_flight", "Geçit's requests on the node", labels=NODE
        )
        output = CounterMetricFamily(
            "gecit_fleet_node_output_tokens", "Output tokens the node served", labels=NODE
        )
        busy = CounterMetricFamily(
            "gecit_fleet_node_busy_seconds",
            "Seconds with at least one of Geçit's requests on the node",
            labels=NODE,
        )
        hourly = GaugeMetricFamily(
            "gecit_fleet_node_hourly_cost_usd",
            "The node's share of its pool's hourly cost (by weight)",
            labels=NODE,
        )
        running = GaugeMetricFamily(
            "gecit_fleet_node_engine_running", "Requests the engine runs", labels=NODE
        )
        waiting = GaugeMetricFamily(
            "gecit_fleet_node_engine_waiting", "Requests the engine queues", labels=NODE
        )
        kv = GaugeMetricFamily(
            "gecit_fleet_node_kv_usage", "KV-cache use the engine reports (0..1)", labels=NODE
        )
        queued = GaugeMetricFamily(
            "gecit_fleet_queue_waiting",
            "Requests waiting in Geçit for a node of the pool",
            labels=["backend", "data_class"],
        )
        for name, provider in list(self._providers.items()):
            if not isinstance(provider, FleetProvider):
                continue
            router = provider.router
            pool_hourly = self._hourly(name)
            total_weight = sum(router.weight(n) for n in router.names) or 1.0
            for node in router.names:
                labels = [name, node]
                tokens, seconds = router.served(node)
                in_flight.add_metric(labels, float(router.tracker.in_flight(node)))
                output.add_metric(labels, float(tokens))
                busy.add_metric(labels, seconds)
                if pool_hourly is not None:
                    hourly.add_metric(labels, pool_hourly * router.weight(node) / total_weight)
                sig = router.signals(node)
                for family, value in (
                    (running, sig.running if sig else None),
                    (waiting, sig.waiting if sig else None),
                    (kv, sig.kv_usage if sig else None),
                ):
                    if value is not None:
                        family.add_metric(labels, float(value))
            for klass in ("public", "personal", "special"):
                queued.add_metric([name, klass], float(provider.queue.waiting(klass)))
        yield from (in_flight, output, busy, hourly, running, waiting, kv, queued)

    def _hourly(self, backend: str) -> float | None:
        spec = self._policy().backends.get(backend)
        cost = getattr(spec, "hourly_cost_usd", None)
        return None if cost is None else float(cost)
