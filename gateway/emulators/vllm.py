"""vLLM GPU node emulator: OpenAI chat completions (JSON and SSE) served by the simulated node of
gateway.emulators.gpu_node, and vLLM's `/metrics` (names, labels and text format of vLLM's V1
engine, plus the older `vllm:gpu_cache_usage_perc`).

A prompt's tokens are its words (role and content of every message); an answer is the
profile's reply words, `max_tokens` long (default 128). `time_scale` runs the simulated clock
faster than the wall clock (10 = ten simulated seconds per second) so a benchmark runs fast;
every figure the emulator reports (TTFT histogram, speeds) is in simulated seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gateway.emulators.base import DEFAULT_REPLY, EmulatorState, control_routes, log_request
from gateway.emulators.gpu_node import TTFT_BUCKETS, GpuNode, SimRequest, block_hashes
from gateway.emulators.gpu_profiles import PROFILES, GpuProfile

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
DEFAULT_MAX_TOKENS = 128


def prompt_words(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for m in body.get("messages") or []:
        out.append(f"<{m.get('role')}>")
        c = m.get("content")
        if isinstance(c, str):
            out.extend(c.split())
        elif isinstance(c, list):
            for part in c:
                if isinstance(part, dict):
                    out.extend(str(part.get("text") or "").split())
    return out


@dataclass
class _Waiter:
    queue: asyncio.Queue[int] = field(default_factory=asyncio.Queue)


class SimulatedEngine:
    """Drives a GpuNode with the wall clock (scaled) and hands each request its tokens."""

    def __init__(self, profile: GpuProfile, time_scale: float = 1.0) -> None:
        self.node = GpuNode(profile)
        self.time_scale = time_scale
        self._t0 = time.monotonic()
        self._waiters: dict[int, _Waiter] = {}
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._ids = 0

    def now(self) -> float:
        return (time.monotonic() - self._t0) * self.time_scale

    def submit(self, prompt: list[str], max_tokens: int) -> tuple[SimRequest, asyncio.Queue[int]]:
        self._ids += 1
        req = SimRequest(
            f"cmpl-{self._ids}",
            len(prompt),
            max_tokens,
            block_hashes(prompt, self.node.profile.block_size),
            self.now(),
        )
        self.node.submit(req)
        waiter = self._waiters[id(req)] = _Waiter()
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())
        assert self._wake is not None
        self._wake.set()
        return req, waiter.queue

    def forget(self, req: SimRequest) -> None:
        self._waiters.pop(id(req), None)

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            if not self.node.has_work():
                self._wake.clear()
                await self._wake.wait()
                continue
            start = self.now()
            duration = self.node.begin_step(start)
            if duration <= 0:  # waiting for KV blocks that no running request will free
                self._wake.clear()
                await self._wake.wait()
                continue
            await asyncio.sleep(duration / self.time_scale)
            for ev in self.node.end_step(start + duration):
                waiter = self._waiters.get(id(ev.request))
                if waiter is not None:
                    waiter.queue.put_nowait(-1 if ev.finished else ev.tokens)
                if ev.finished:
                    self._waiters.pop(id(ev.request), None)


def metrics_text(node: GpuNode, model: str = MODEL) -> str:
    """The node's state in vLLM's Prometheus text format."""
    c = node.counters
    lbl = f'engine="0",model_name="{model}"'
    lines: list[str] = []

    def metric(name: str, kind: str, doc: str, value: float) -> None:
        lines.extend(
            (f"# HELP {name} {doc}", f"# TYPE {name} {kind}", f"{name}{{{lbl}}} {float(value)}")
        )

    metric(
        "vllm:num_requests_running",
        "gauge",
        "Number of requests in model execution batches.",
        len(node.running),
    )
    metric(
        "vllm:num_requests_waiting",
        "gauge",
        "Number of requests waiting to be processed.",
        len(node.waiting),
    )
    metric(
        "vllm:kv_cache_usage_perc",
        "gauge",
        "KV-cache usage. 1 means 100 percent usage.",
        node.kv_usage,
    )
    metric(
        "vllm:gpu_cache_usage_perc",
        "gauge",
        "GPU KV-cache usage. 1 means 100 percent usage.",
        node.kv_usage,
    )
    metric(
        "vllm:prefix_cache_queries_total",
        "counter",
        "Prefix cache queries, in terms of number of queried tokens.",
        c.prefix_queries,
    )
    metric(
        "vllm:prefix_cache_hits_total",
        "counter",
        "Prefix cache hits, in terms of number of cached tokens.",
        c.prefix_hits,
    )
    metric(
        "vllm:prompt_tokens_total",
        "counter",
        "Number of prefill tokens processed.",
        c.prompt_tokens,
    )
    metric(
        "vllm:generation_tokens_total",
        "counter",
        "Number of generation tokens processed.",
        c.generation_tokens,
    )
    name = "vllm:time_to_first_token_seconds"
    lines.extend(
        (f"# HELP {name} Histogram of time to first token in seconds.", f"# TYPE {name} histogram")
    )
    for le, n in zip(TTFT_BUCKETS, c.ttft_buckets, strict=True):
        lines.append(f'{name}_bucket{{{lbl},le="{le}"}} {float(n)}')
    lines.append(f'{name}_bucket{{{lbl},le="+Inf"}} {float(c.ttft_count)}')
    lines.append(f"{name}_sum{{{lbl}}} {c.ttft_sum}")
    lines.append(f"{name}_count{{{lbl}}} {float(c.ttft_count)}")
    p = node.profile
    lines.extend(
        (
            "# HELP vllm:cache_config_info Information of the LLMEngine CacheConfig",
            "# TYPE vllm:cache_config_info gauge",
            f'vllm:cache_config_info{{block_size="{p.block_size}",enable_prefix_caching='
            f'"True",engine="0",num_gpu_blocks="{p.kv_blocks}"}} 1.0',
        )
    )
    return "\n".join(lines) + "\n"


def _frame(obj: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(obj) + b"\n\n"


def build_app(state: EmulatorState, profile: str = "l40s-8b", time_scale: float = 1.0) -> Starlette:
    engine = SimulatedEngine(PROFILES[profile], time_scale)
    reply = DEFAULT_REPLY.split()

    async def chat(request: Request) -> Response:
        entry = await log_request(state, request)
        try:
            body = entry.json()
        except orjson.JSONDecodeError:
            return Response(
                b'{"error":{"message":"bad json","type":"BadRequestError",'
                b'"param":null,"code":400}}',
                400,
                media_type="application/json",
            )
        prompt = prompt_words(body)
        max_tokens = int(
            body.get("max_tokens") or body.get("max_completion_tokens") or DEFAULT_MAX_TOKENS
        )
        if len(prompt) + max_tokens > engine.node.profile.max_model_len:
            return Response(
                orjson.dumps(
                    {
                        "error": {
                            "message": "prompt and max_tokens exceed the model's context length",
                            "type": "BadRequestError",
                            "param": None,
                            "code": 400,
                        }
                    }
                ),
                400,
                media_type="application/json",
            )
        req, tokens = engine.submit(prompt, max_tokens)
        head = {
            "id": req.rid,
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", MODEL),
        }
        if body.get("stream"):
            return StreamingResponse(
                _stream(engine, req, tokens, head, reply, body), media_type="text/event-stream"
            )
        n = 0
        while await tokens.get() != -1:
            n += 1
        n += 1
        state.served_prompt_tokens += req.prompt_tokens
        state.served_completion_tokens += n
        text = " ".join(reply[i % len(reply)] for i in range(n))
        return Response(
            orjson.dumps(
                {
                    **head,
                    "object": "chat.completion",
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": text},
                            "finish_reason": "length",
                        }
                    ],
                    "usage": _usage(req, n),
                }
            ),
            media_type="application/json",
        )

    async def metrics(_request: Request) -> Response:
        return Response(metrics_text(engine.node), media_type="text/plain; version=0.0.4")

    async def models(_request: Request) -> Response:
        data = [
            {
                "id": MODEL,
                "object": "model",
                "created": 0,
                "owned_by": "vllm",
                "max_model_len": engine.node.profile.max_model_len,
            }
        ]
        return Response(
            orjson.dumps({"object": "list", "data": data}), media_type="application/json"
        )

    async def health(_request: Request) -> Response:
        return Response(b"")

    app = Starlette(
        routes=[
            Route("/v1/chat/completions", chat, methods=["POST"]),
            Route("/metrics", metrics, methods=["GET"]),
            Route("/v1/models", models, methods=["GET"]),
            Route("/health", health, methods=["GET"]),
            *control_routes(state),
        ]
    )
    app.state.engine = engine
    return app


def _usage(req: SimRequest, completion: int) -> dict[str, Any]:
    return {
        "prompt_tokens": req.prompt_tokens,
        "completion_tokens": completion,
        "total_tokens": req.prompt_tokens + completion,
        "prompt_tokens_details": {"cached_tokens": req.cached_tokens},
    }


async def _stream(
    engine: SimulatedEngine,
    req: SimRequest,
    tokens: asyncio.Queue[int],
    head: dict[str, Any],
    reply: list[str],
    body: dict[str, Any],
) -> AsyncIterator[bytes]:
    n = 0
    try:
        while True:
            got = await tokens.get()
            delta: dict[str, Any] = {"content": reply[n % len(reply)] + " "}
            if n == 0:
                delta["role"] = "assistant"
            n += 1
            last = got == -1
            yield _frame(
                {
                    **head,
                    "choices": [
                        {"index": 0, "delta": delta, "finish_reason": "length" if last else None}
                    ],
                }
            )
            if last:
                break
    finally:
        engine.forget(req)
    if (body.get("stream_options") or {}).get("include_usage"):
        yield _frame({**head, "choices": [], "usage": _usage(req, n)})
    yield b"data: [DONE]\n\n"
