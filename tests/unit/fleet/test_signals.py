"""Engine signal parsers, on expositions in each engine's own format."""

# ruff: noqa: E501 (the samples keep the engines' own long lines)

from __future__ import annotations

import pytest

from gateway.fleet.signals import (
    NodeSignals,
    SignalParseError,
    parse_llamacpp_metrics,
    parse_llamacpp_slots,
    parse_ollama_ps,
    parse_vllm_metrics,
)

# vLLM V1 engine (0.10+): `engine` and `model_name` labels, `_total` counters, the renamed
# KV gauge, the cache config as an info gauge
VLLM_V1 = """\
# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 7.0
# HELP vllm:num_requests_waiting Number of requests waiting to be processed.
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 3.0
# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.4375
# HELP vllm:prefix_cache_queries_total Prefix cache queries, in terms of number of queried tokens.
# TYPE vllm:prefix_cache_queries_total counter
vllm:prefix_cache_queries_total{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 52000.0
# HELP vllm:prefix_cache_hits_total Prefix cache hits, in terms of number of cached tokens.
# TYPE vllm:prefix_cache_hits_total counter
vllm:prefix_cache_hits_total{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 39000.0
# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="meta-llama/Llama-3.1-8B-Instruct"} 10.0
vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="meta-llama/Llama-3.1-8B-Instruct"} 12.0
vllm:time_to_first_token_seconds_count{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 12.0
vllm:time_to_first_token_seconds_sum{engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"} 1.8
# HELP vllm:cache_config_info Information of the LLMEngine CacheConfig
# TYPE vllm:cache_config_info gauge
vllm:cache_config_info{block_size="16",cache_dtype="auto",enable_prefix_caching="True",engine="0",gpu_memory_utilization="0.9",num_gpu_blocks="12207"} 1.0
"""

# vLLM before V1 (0.6.x): gpu_cache_usage_perc, no engine label, hit-rate gauge instead of
# counters
VLLM_V0 = """\
# HELP vllm:num_requests_running Number of requests currently running on GPU.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{model_name="meta-llama/Llama-3.1-8B-Instruct"} 2.0
# HELP vllm:num_requests_waiting Number of requests waiting to be processed.
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.0
# HELP vllm:num_requests_swapped Number of requests swapped to CPU.
# TYPE vllm:num_requests_swapped gauge
vllm:num_requests_swapped{model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.0
# HELP vllm:gpu_cache_usage_perc GPU KV-cache usage. 1 means 100 percent usage.
# TYPE vllm:gpu_cache_usage_perc gauge
vllm:gpu_cache_usage_perc{model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.91
# HELP vllm:gpu_prefix_cache_hit_rate GPU prefix cache block hit rate.
# TYPE vllm:gpu_prefix_cache_hit_rate gauge
vllm:gpu_prefix_cache_hit_rate{model_name="meta-llama/Llama-3.1-8B-Instruct"} 0.5
"""

# llama.cpp server (`llama-server --metrics`): unlabelled families
LLAMACPP_METRICS = """\
# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.
# TYPE llamacpp:prompt_tokens_total counter
llamacpp:prompt_tokens_total 4096
# HELP llamacpp:prompt_seconds_total Prompt process time
# TYPE llamacpp:prompt_seconds_total counter
llamacpp:prompt_seconds_total 2.1
# HELP llamacpp:tokens_predicted_total Number of generation tokens processed.
# TYPE llamacpp:tokens_predicted_total counter
llamacpp:tokens_predicted_total 812
# HELP llamacpp:prompt_tokens_seconds Average prompt throughput in tokens/s.
# TYPE llamacpp:prompt_tokens_seconds gauge
llamacpp:prompt_tokens_seconds 1950.4
# HELP llamacpp:predicted_tokens_seconds Average generation throughput in tokens/s.
# TYPE llamacpp:predicted_tokens_seconds gauge
llamacpp:predicted_tokens_seconds 38.2
# HELP llamacpp:kv_cache_usage_ratio KV-cache usage. 1 means 100 percent usage.
# TYPE llamacpp:kv_cache_usage_ratio gauge
llamacpp:kv_cache_usage_ratio 0.62
# HELP llamacpp:requests_processing Number of requests processing.
# TYPE llamacpp:requests_processing gauge
llamacpp:requests_processing 2
# HELP llamacpp:requests_deferred Number of requests deferred.
# TYPE llamacpp:requests_deferred gauge
llamacpp:requests_deferred 1
"""

# llama.cpp server /slots: current servers say `is_processing`; older ones `state` (0 idle)
SLOTS_NEW = [
    {
        "id": 0,
        "id_task": 17,
        "n_ctx": 8192,
        "speculative": False,
        "is_processing": True,
        "params": {"n_predict": -1, "temperature": 0.8},
        "next_token": {"has_next_token": True},
    },
    {
        "id": 1,
        "id_task": -1,
        "n_ctx": 8192,
        "speculative": False,
        "is_processing": False,
        "params": {"n_predict": -1, "temperature": 0.8},
        "next_token": {"has_next_token": True},
    },
]
SLOTS_OLD = [
    {"id": 0, "task_id": 3, "state": 1, "n_ctx": 4096, "model": "smollm2"},
    {"id": 1, "task_id": -1, "state": 0, "n_ctx": 4096, "model": "smollm2"},
    {"id": 2, "task_id": 9, "state": 1, "n_ctx": 4096, "model": "smollm2"},
    {"id": 3, "task_id": -1, "state": 0, "n_ctx": 4096, "model": "smollm2"},
]

# Ollama GET /api/ps
OLLAMA_PS = {
    "models": [
        {
            "name": "llama3.1:8b",
            "model": "llama3.1:8b",
            "size": 6654289920,
            "digest": "46e0c10c039e019119339687c3c1757cc81b9da49709a3b3924863ba87ca666e",
            "details": {
                "parent_model": "",
                "format": "gguf",
                "family": "llama",
                "families": ["llama"],
                "parameter_size": "8.0B",
                "quantization_level": "Q4_K_M",
            },
            "expires_at": "2025-06-04T14:38:31.83753-07:00",
            "size_vram": 6654289920,
            "context_length": 8192,
        }
    ]
}


def test_vllm_v1_exposition() -> None:
    s = parse_vllm_metrics(VLLM_V1)
    assert (s.running, s.waiting, s.kv_usage) == (7.0, 3.0, 0.4375)
    assert (s.prefix_queries, s.prefix_hits) == (52000.0, 39000.0)
    assert (s.ttft_count, s.ttft_sum_s) == (12.0, 1.8)
    assert s.kv_capacity_tokens == 12207 * 16


def test_vllm_older_gpu_cache_usage_name() -> None:
    s = parse_vllm_metrics(VLLM_V0)
    assert (s.running, s.waiting, s.kv_usage) == (2.0, 0.0, 0.91)
    assert s.prefix_hits is None and s.kv_capacity_tokens is None


def test_vllm_prefers_the_current_kv_name_when_both_are_served() -> None:
    both = VLLM_V1 + (
        "# TYPE vllm:gpu_cache_usage_perc gauge\n"
        'vllm:gpu_cache_usage_perc{engine="0",model_name="m"} 0.99\n'
    )
    assert parse_vllm_metrics(both).kv_usage == 0.4375


def test_vllm_without_scheduler_metrics_is_an_error() -> None:
    with pytest.raises(SignalParseError):
        parse_vllm_metrics(
            "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total 1.0\n"
        )
    with pytest.raises(SignalParseError):
        parse_vllm_metrics("this is { not prometheus\n")


def test_llamacpp_metrics() -> None:
    s = parse_llamacpp_metrics(LLAMACPP_METRICS)
    assert (s.running, s.waiting, s.kv_usage) == (2.0, 1.0, 0.62)
    assert (s.prompt_tok_s, s.decode_tok_s) == (1950.4, 38.2)


def test_llamacpp_slots_current_and_older_servers() -> None:
    new = parse_llamacpp_slots(SLOTS_NEW)
    assert (new.running, new.slots_total, new.context_length, new.kv_usage) == (1.0, 2, 8192, 0.5)
    old = parse_llamacpp_slots(SLOTS_OLD)
    assert (old.running, old.slots_total, old.context_length) == (2.0, 4, 4096)
    with pytest.raises(SignalParseError):
        parse_llamacpp_slots({"error": "slots endpoint disabled"})


def test_llamacpp_metrics_override_slot_estimates() -> None:
    merged = parse_llamacpp_slots(SLOTS_NEW).merged(parse_llamacpp_metrics(LLAMACPP_METRICS))
    assert (merged.running, merged.kv_usage, merged.context_length) == (2.0, 0.62, 8192)


def test_ollama_ps_loaded_model_and_tag() -> None:
    assert parse_ollama_ps(OLLAMA_PS, "llama3.1:8b") == NodeSignals(
        model_loaded=True, context_length=8192
    )
    assert parse_ollama_ps(OLLAMA_PS, "qwen2.5:7b").model_loaded is False
    assert (
        parse_ollama_ps(
            {"models": [{"name": "phi3:latest", "model": "phi3:latest"}]}, "phi3"
        ).model_loaded
        is True
    )
    with pytest.raises(SignalParseError):
        parse_ollama_ps([], "phi3")
