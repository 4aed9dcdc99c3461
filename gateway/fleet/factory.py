"""Build a FleetProvider from an `openai_compat` backend that lists `endpoints`."""

from __future__ import annotations

import time
from typing import Any

import httpx

from gateway.fleet.admission import DEFAULT_QUEUE, AdmissionQueue
from gateway.fleet.picker import PickConfig
from gateway.fleet.provider import FleetProvider
from gateway.fleet.router import FleetRouter, PoolNode
from gateway.fleet.scraper import EngineScraper, NodeTarget, ScraperConfig
from gateway.providers.base import Capabilities, Provider
from gateway.providers.openai_compat.adapter import OpenAICompatProvider
from gateway.providers.registry import BuildContext


def build_pool(
    name: str, spec: Any, ctx: BuildContext, api_key: str | None, capabilities: Capabilities
) -> FleetProvider:
    tuning = spec.fleet
    nodes: dict[str, Provider] = {}
    pool: list[PoolNode] = []
    for e in spec.endpoints:
        nodes[e.name] = OpenAICompatProvider(
            f"{name}/{e.name}",
            e.base_url,
            spec.model,
            api_key=api_key,
            transport=ctx.transport,
            capabilities=capabilities,
        )
        pool.append(
            PoolNode(
                NodeTarget(e.name, e.engine, e.base_url, spec.model), e.weight, e.kv_capacity_tokens
            )
        )
    config = (
        ScraperConfig()
        if tuning is None
        else ScraperConfig(interval_s=tuning.scrape_interval_s, max_age_s=tuning.max_age_s)
    )
    scraper = EngineScraper(
        [p.target for p in pool], httpx.AsyncClient(transport=ctx.transport), time.monotonic, config
    )
    pick = (
        PickConfig()
        if tuning is None
        else PickConfig(kv_high=tuning.kv_high, load_factor=tuning.load_factor)
    )
    router = FleetRouter(pool, scraper, time.monotonic, pick)
    queue = (
        AdmissionQueue(name, DEFAULT_QUEUE, time.monotonic)
        if tuning is None
        else AdmissionQueue(name, tuning.queue, time.monotonic, tuning.queue_recheck_s)
    )
    return FleetProvider(name, nodes, router, scraper, capabilities, queue=queue)
