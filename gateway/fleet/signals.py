"""What an inference engine says about its own load, read from its own endpoints.

- vLLM `/metrics`: requests running / waiting, KV-cache use (`vllm:kv_cache_usage_perc`, or
  `vllm:gpu_cache_usage_perc` on versions before the V1 engine), prefix-cache query and hit
  counters, the TTFT histogram and the cache size (`vllm:cache_config_info`).
- llama.cpp server `/metrics` (`llamacpp:requests_processing`, `llamacpp:requests_deferred`,
  `llamacpp:kv_cache_usage_ratio` where the version still has it, average prompt and
  generation speeds) and `/slots` (context size and busy slots; `is_processing`, or `state`
  on older servers).
- Ollama `/api/ps`: which models are loaded and with what context.

Parsers are pure: text or decoded JSON in, a `NodeSignals` out; absent figures stay None.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

EngineKind = str  # "vllm" | "llamacpp" | "ollama"
ENGINE_KINDS = ("vllm", "llamacpp", "ollama")


@dataclass(frozen=True, slots=True)
class NodeSignals:
    running: float | None = None
    waiting: float | None = None
    kv_usage: float | None = None  # 0..1
    prefix_queries: float | None = None  # tokens, cumulative
    prefix_hits: float | None = None
    ttft_count: float | None = None
    ttft_sum_s: float | None = None
    kv_capacity_tokens: int | None = None
    context_length: int | None = None
    slots_total: int | None = None
    prompt_tok_s: float | None = None  # engine-reported average prefill speed
    decode_tok_s: float | None = None  # engine-reported average generation speed
    model_loaded: bool | None = None

    def merged(self, other: NodeSignals) -> NodeSignals:
        """These signals with every figure `other` knows laid over them."""
        known = {k: getattr(other, k) for k in self.__slots__ if getattr(other, k) is not None}
        return replace(self, **known)


class SignalParseError(ValueError):
    pass


def _samples(text: str) -> dict[str, list[tuple[dict[str, str], float]]]:
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    try:
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                out.setdefault(s.name, []).append((dict(s.labels), float(s.value)))
    except (ValueError, TypeError, IndexError) as exc:
        raise SignalParseError(f"not a Prometheus text exposition: {exc}") from None
    return out


def _sum(samples: dict[str, list[tuple[dict[str, str], float]]], name: str) -> float | None:
    got = samples.get(name)
    return None if not got else sum(v for _, v in got)


def _max(samples: dict[str, list[tuple[dict[str, str], float]]], name: str) -> float | None:
    got = samples.get(name)
    return None if not got else max(v for _, v in got)


def parse_vllm_metrics(text: str) -> NodeSignals:
    s = _samples(text)
    kv = _max(s, "vllm:kv_cache_usage_perc")
    if kv is None:
        kv = _max(s, "vllm:gpu_cache_usage_perc")
    capacity = None
    for labels, _ in s.get("vllm:cache_config_info", []):
        try:
            capacity = int(labels["num_gpu_blocks"]) * int(labels.get("block_size", "16"))
        except (KeyError, ValueError):
            continue
    running = _sum(s, "vllm:num_requests_running")
    if running is None and kv is None:
        raise SignalParseError("no vLLM scheduler metrics in the exposition")
    return NodeSignals(
        running=running,
        waiting=_sum(s, "vllm:num_requests_waiting"),
        kv_usage=kv,
        prefix_queries=_sum(s, "vllm:prefix_cache_queries_total"),
        prefix_hits=_sum(s, "vllm:prefix_cache_hits_total"),
        ttft_count=_sum(s, "vllm:time_to_first_token_seconds_count"),
        ttft_sum_s=_sum(s, "vllm:time_to_first_token_seconds_sum"),
        kv_capacity_tokens=capacity,
        model_loaded=True,
    )


def parse_llamacpp_metrics(text: str) -> NodeSignals:
    s = _samples(text)
    running = _sum(s, "llamacpp:requests_processing")
    if running is None:
        raise SignalParseError("no llama.cpp server metrics in the exposition")
    return NodeSignals(
        running=running,
        waiting=_sum(s, "llamacpp:requests_deferred"),
        kv_usage=_max(s, "llamacpp:kv_cache_usage_ratio"),
        prompt_tok_s=_max(s, "llamacpp:prompt_tokens_seconds"),
        decode_tok_s=_max(s, "llamacpp:predicted_tokens_seconds"),
        model_loaded=True,
    )


def parse_llamacpp_slots(body: Any) -> NodeSignals:
    if not isinstance(body, list) or not all(isinstance(x, dict) for x in body) or not body:
        raise SignalParseError("llama.cpp /slots must be a non-empty list of slots")
    busy = 0
    for slot in body:
        if "is_processing" in slot:
            busy += bool(slot["is_processing"])
        else:  # servers before the field: state 0 idle, 1 processing
            busy += slot.get("state", 0) != 0
    contexts = [int(x["n_ctx"]) for x in body if isinstance(x.get("n_ctx"), int)]
    return NodeSignals(
        running=float(busy),
        slots_total=len(body),
        context_length=min(contexts) if contexts else None,
        kv_usage=busy / len(body),
        model_loaded=True,
    )


def parse_ollama_ps(body: Any, model: str) -> NodeSignals:
    """Whether `model` (with or without its `:tag`) is loaded, and its context if reported."""
    models = body.get("models") if isinstance(body, dict) else None
    if not isinstance(models, list):
        raise SignalParseError("Ollama /api/ps must have a 'models' list")
    # a name without a tag is the `:latest` tag, and Ollama lists it either way
    bare = model.removesuffix(":latest")
    want = {bare, f"{bare}:latest"} if ":" not in bare else {model}
    for m in models:
        if isinstance(m, dict) and (m.get("name") in want or m.get("model") in want):
            ctx = m.get("context_length")
            return NodeSignals(
                model_loaded=True, context_length=ctx if isinstance(ctx, int) else None
            )
    return NodeSignals(model_loaded=False)
