"""Engine signal parsers on samples in each engine's real format (tests/unit/fleet/samples,
whose SOURCES.md says where each format was taken from), and the simulator's `/metrics` read
by prometheus_client's own text parser."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gateway.emulators.gpu_node import GpuNode, SimRequest
from gateway.emulators.gpu_profiles import PROFILES
from gateway.emulators.vllm import metrics_text
from gateway.fleet.scraper import EngineScraper, NodeTarget, ScraperConfig
from gateway.fleet.signals import (
    parse_llamacpp_metrics,
    parse_llamacpp_slots,
    parse_ollama_ps,
    parse_vllm_metrics,
)

SAMPLES = Path(__file__).parent / "samples"


def _text(name: str) -> str:
    return (SAMPLES / name).read_text()


def _json(name: str) -> Any:
    return json.loads(_text(name))


def test_every_sample_has_its_source_noted() -> None:
    sources = _text("SOURCES.md")
    for f in SAMPLES.iterdir():
        if f.name != "SOURCES.md":
            assert f"`{f.name}`" in sources, f.name


def test_vllm_0_10_reads_the_current_names_over_the_deprecated_ones() -> None:
    got = parse_vllm_metrics(_text("vllm-0.10.0.prom"))
    assert (got.running, got.waiting, got.kv_usage) == (5.0, 2.0, 0.31640625)
    assert (got.prefix_queries, got.prefix_hits) == (18432.0, 12288.0)
    assert (got.ttft_count, got.ttft_sum_s) == (16.0, 3.3125)
    assert got.kv_capacity_tokens == 4096 * 16


def test_vllm_0_7_v1_falls_back_to_gpu_cache_usage() -> None:
    got = parse_vllm_metrics(_text("vllm-0.7-v1.prom"))
    assert (got.running, got.waiting, got.kv_usage) == (3.0, 0.0, 0.0859375)
    # its prefix counters count blocks, not tokens: not mixed with the token counters
    assert got.prefix_queries is None and got.prefix_hits is None
    assert (got.ttft_count, got.ttft_sum_s) == (5.0, 0.9)
    assert got.kv_capacity_tokens is None


def test_vllm_0_6_v0_engine() -> None:
    got = parse_vllm_metrics(_text("vllm-0.6.3.prom"))
    assert (got.running, got.waiting) == (12.0, 4.0)
    assert got.kv_usage == pytest.approx(0.9733333333333334)
    assert got.kv_capacity_tokens == 9000 * 16


def test_vllm_data_parallel_engines_add_up_and_the_fullest_cache_counts() -> None:
    got = parse_vllm_metrics(_text("vllm-0.10-dp2.prom"))
    assert (got.running, got.waiting, got.kv_usage) == (10.0, 1.0, 0.5)


def test_llamacpp_mid_2024_metrics_with_kv_gauge() -> None:
    got = parse_llamacpp_metrics(_text("llamacpp-b3000-metrics.prom"))
    assert (got.running, got.waiting, got.kv_usage) == (1.0, 0.0, 0.361328)
    assert (got.prompt_tok_s, got.decode_tok_s) == (2116.38, 27.7733)


def test_llamacpp_current_metrics_without_kv_gauge() -> None:
    got = parse_llamacpp_metrics(_text("llamacpp-current-metrics.prom"))
    assert (got.running, got.waiting, got.kv_usage) == (2.0, 3.0, None)
    assert (got.prompt_tok_s, got.decode_tok_s) == (229.58, 46.87)


def test_llamacpp_slots_older_state_field() -> None:
    got = parse_llamacpp_slots(_json("llamacpp-b3000-slots.json"))
    assert (got.running, got.slots_total, got.context_length) == (1.0, 2, 2048)


def test_llamacpp_slots_current_is_processing_field() -> None:
    got = parse_llamacpp_slots(_json("llamacpp-current-slots.json"))
    assert (got.running, got.slots_total, got.context_length) == (2.0, 3, 65536)
    merged = got.merged(parse_llamacpp_metrics(_text("llamacpp-current-metrics.prom")))
    # the engine's own count wins; the slot estimate of KV use stays when it has no gauge
    assert merged.running == 2.0 and merged.waiting == 3.0
    assert merged.kv_usage == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("model", "loaded", "ctx"),
    [
        ("gemma3", True, 4096),  # listed without a tag
        ("gemma3:latest", True, 4096),
        ("qwen2.5:7b-instruct", True, 8192),
        ("qwen2.5", False, None),  # another tag of it is loaded, not :latest
        ("llama3.1:8b", False, None),
    ],
)
def test_ollama_ps(model: str, loaded: bool, ctx: int | None) -> None:
    got = parse_ollama_ps(_json("ollama-api-ps.json"), model)
    assert (got.model_loaded, got.context_length) == (loaded, ctx)


def test_ollama_ps_with_nothing_loaded() -> None:
    assert parse_ollama_ps(_json("ollama-api-ps-empty.json"), "gemma3").model_loaded is False


def test_simulator_metrics_parse_with_prometheus_client() -> None:
    node = GpuNode(PROFILES["l40s-8b"])
    for i in range(3):
        node.submit(SimRequest(f"r{i}", 900, 64, list(range(i, i + 56)), 0.0))
    t = 0.0
    for _ in range(5):
        t += node.begin_step(t)
        node.end_step(t)
    text = metrics_text(node)
    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name in (
        "vllm:num_requests_running",
        "vllm:num_requests_waiting",
        "vllm:kv_cache_usage_perc",
        "vllm:gpu_cache_usage_perc",
        "vllm:time_to_first_token_seconds",
        "vllm:cache_config_info",
    ):
        assert name in families, name
    assert families["vllm:time_to_first_token_seconds"].type == "histogram"
    running = families["vllm:num_requests_running"].samples[0]
    assert running.labels["model_name"] and running.value + len(node.waiting) == 3
    got = parse_vllm_metrics(text)
    assert got.kv_capacity_tokens == PROFILES["l40s-8b"].kv_tokens


def _llamacpp_server(slots: int, metrics: int, models: int = 200) -> httpx.MockTransport:
    """A llama.cpp-style server answering each endpoint with the given status (the sample
    bodies when 200)."""

    def answer(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/slots":
            return httpx.Response(slots, content=_text("llamacpp-current-slots.json"))
        if path == "/metrics":
            return httpx.Response(metrics, text=_text("llamacpp-current-metrics.prom"))
        return httpx.Response(models, json={"data": []})

    return httpx.MockTransport(answer)


@pytest.mark.parametrize(
    ("slots", "metrics", "models", "healthy", "running", "context"),
    [
        (200, 200, 200, True, 2.0, 65536),  # both served: the metrics' count wins
        (501, 200, 200, True, 2.0, None),  # started with --no-slots
        (200, 501, 200, True, 2.0, 65536),  # started without --metrics
        (404, 404, 200, True, None, None),  # llama-cpp-python's server: neither endpoint
        (404, 404, 404, False, None, None),  # not an OpenAI-style server at that address
        (503, 200, 200, False, None, None),  # the server is in trouble
    ],
)
def test_llamacpp_scrape_takes_what_the_server_serves(
    slots: int, metrics: int, models: int, healthy: bool, running: float | None, context: int | None
) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(transport=_llamacpp_server(slots, metrics, models)) as http:
            scraper = EngineScraper(
                [NodeTarget("n", "llamacpp", "http://node:8080/v1")],
                http,
                clock=lambda: 0.0,
                config=ScraperConfig(unhealthy_after=1),
            )
            await scraper.scrape_all()
            assert scraper.healthy("n") is healthy
            got = scraper.signals("n")
            if not healthy:
                assert got is None
                return
            assert got is not None and got.running == running and got.context_length == context

    asyncio.run(scenario())
