"""`gateway emulate vllm`: an OpenAI-compatible server over the simulated node, with vLLM's
/metrics, read by the OpenAI SDK, prometheus_client's parser and Geçit's own scraper."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from functools import partial

import httpx
import openai
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gateway.emulators.base import EmulatorServer
from gateway.emulators.vllm import build_app
from gateway.fleet.scraper import EngineScraper, NodeTarget, ScraperConfig

SYSTEM = " ".join(f"kural{i}" for i in range(400))  # ~25 blocks of shared system prompt


def _chat(client: openai.OpenAI, user: str) -> tuple[str, int]:
    stream = client.chat.completions.create(
        model="m",
        max_tokens=6,
        stream=True,
        stream_options={"include_usage": True},
        messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
    )
    text, cached = "", -1
    for chunk in stream:
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
        if chunk.usage is not None:
            details = chunk.usage.prompt_tokens_details
            cached = details.cached_tokens if details and details.cached_tokens else 0
            assert chunk.usage.completion_tokens == 6
    return text, cached


def _samples(text: str) -> dict[str, float]:
    return {s.name: s.value for fam in text_string_to_metric_families(text) for s in fam.samples}


def test_streams_through_the_sdk_and_serves_vllm_metrics() -> None:
    with EmulatorServer(partial(build_app, profile="h100-8b", time_scale=20.0)) as server:
        client = openai.OpenAI(base_url=server.url + "/v1", api_key="x", max_retries=0)
        first, cached_first = _chat(client, "merhaba")
        second, cached_second = _chat(client, "nasılsın")
        assert len(first.split()) == 6 and len(second.split()) == 6
        assert cached_first == 0 and cached_second >= 384  # the system prompt's blocks
        body = httpx.get(server.url + "/metrics").text
    m = _samples(body)
    assert m["vllm:num_requests_running"] == 0 and m["vllm:num_requests_waiting"] == 0
    assert 0 <= m["vllm:kv_cache_usage_perc"] < 1
    assert m["vllm:gpu_cache_usage_perc"] == m["vllm:kv_cache_usage_perc"]
    assert m["vllm:prefix_cache_hits_total"] == cached_second
    assert m["vllm:prefix_cache_queries_total"] >= 2 * 400
    assert m["vllm:generation_tokens_total"] == 12
    assert m["vllm:time_to_first_token_seconds_count"] == 2
    assert m["vllm:time_to_first_token_seconds_bucket"] == 2  # the +Inf bucket, last read


def test_busy_node_reports_running_and_waiting_to_the_scraper() -> None:
    async def scenario(url: str) -> tuple[float | None, float | None, float | None]:
        async with httpx.AsyncClient() as http:
            body = {
                "model": "m",
                "max_tokens": 400,
                "messages": [{"role": "user", "content": " ".join(f"w{i}" for i in range(3000))}],
            }
            calls = [
                asyncio.create_task(http.post(url + "/v1/chat/completions", json=body, timeout=30))
                for _ in range(3)
            ]
            await asyncio.sleep(0.3)
            scraper = EngineScraper(
                [NodeTarget("n1", "vllm", url + "/v1")], http, clock=lambda: 0.0
            )
            await scraper.scrape_all()
            got = scraper.signals("n1")
            for c in calls:
                c.cancel()
            assert got is not None
            return got.running, got.waiting, got.kv_usage

    # 3 x (3,000 + 400) tokens on a 1,024-token KV cache: one runs at a time, two wait
    tiny = partial(build_app, profile="a100-8b", time_scale=1.0)
    with EmulatorServer(tiny) as server:
        server.app.state.engine.node.kv.total = 3600 // 16
        running, waiting, kv = asyncio.run(scenario(server.url))
    assert running == 1 and waiting == 2 and kv is not None and kv > 0.9


def test_cli_refuses_an_unknown_profile_in_one_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gateway", "emulate", "vllm", "--profile", "tpu-9000"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--profile" in proc.stderr


@pytest.mark.parametrize("stale_after", [2.0])
def test_scraper_ages_out_and_marks_a_silent_node_unhealthy(stale_after: float) -> None:
    now = [0.0]

    async def scenario(url: str) -> None:
        async with httpx.AsyncClient() as http:
            scraper = EngineScraper(
                [NodeTarget("up", "vllm", url), NodeTarget("down", "vllm", "http://127.0.0.1:9")],
                http,
                clock=lambda: now[0],
                config=ScraperConfig(max_age_s=stale_after, unhealthy_after=2, timeout_s=0.5),
            )
            await scraper.scrape_all()
            assert scraper.signals("up") is not None and scraper.signals("down") is None
            assert scraper.healthy("down")  # one failure is not yet a verdict
            await scraper.scrape_all()
            assert not scraper.healthy("down") and scraper.healthy("up")
            now[0] += stale_after + 0.1
            assert scraper.signals("up") is None  # too old to steer by

    with EmulatorServer(partial(build_app, profile="l40s-8b")) as server:
        asyncio.run(scenario(server.url))
