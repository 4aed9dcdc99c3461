"""A node whose metrics do not answer is dropped, unless it answered a request of Geçit's
within the figures' freshness window (an engine serving one request at a time, such as
llama-cpp-python's server, does not answer its metrics while it generates)."""

from __future__ import annotations

import asyncio

import httpx

from gateway.fleet.prefix import prefix_blocks
from gateway.fleet.router import FleetRouter, PoolNode
from gateway.fleet.scraper import EngineScraper, NodeTarget, ScraperConfig


def _busy(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("generating", request=request)


def test_a_node_that_just_answered_stays_in_while_its_metrics_time_out() -> None:
    now = [0.0]
    targets = [NodeTarget("a", "llamacpp", "http://a:8080/v1"), NodeTarget("b", "vllm", "http://b")]

    async def scenario() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(_busy)) as http:
            scraper = EngineScraper(
                targets, http, lambda: now[0], ScraperConfig(max_age_s=2.0, unhealthy_after=1)
            )
            router = FleetRouter([PoolNode(t) for t in targets], scraper, lambda: now[0])
            blocks = prefix_blocks([("user", "merhaba " * 200)])
            await scraper.scrape_all()
            assert router.choose(blocks, 400, 16).node is None  # neither answers anything
            router.answered("a")
            now[0] += 1.5
            got = router.choose(blocks, 400, 16)
            assert got.node == "a" and dict(got.dropped)["b"].startswith("unhealthy")
            now[0] += 1.0  # its answer is older than the figures may be
            assert router.choose(blocks, 400, 16).node is None

    asyncio.run(scenario())
