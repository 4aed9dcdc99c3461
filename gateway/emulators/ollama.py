"""Ollama native API emulator: `/api/chat` (JSON or NDJSON), `/api/tags`, `/api/embed`.

Speaks the wire format the `ollama` Python client reads: streaming is the default (one JSON
object per line, the last with `done: true`, `done_reason`, token counts and nanosecond
durations); errors are `{"error": "..."}` bodies. Chat bodies are checked against Ollama's
documented fields (`ollama_validation`): anything else gets a 400.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gateway.emulators.base import (
    EmulatorState,
    Mode,
    admit,
    apply_failure_mode,
    control_routes,
    count_tokens,
    log_request,
    words,
)
from gateway.emulators.ollama_validation import chat_findings
from gateway.emulators.openai import prompt_tokens, wants_tool_call

MODEL = "emulated-model:latest"
NDJSON = "application/x-ndjson"


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return Response(
        orjson.dumps({"error": message}),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


async def _failure(mode: Mode) -> Response | None:
    """Failures before any byte of the answer, shaped as Ollama sends them."""
    return await apply_failure_mode(
        mode,
        lambda status: _error(status, "emulated failure"),
        lambda _m, headers: _error(
            429, "server busy, please try again. maximum pending requests exceeded", headers
        ),
    )


def known_model(name: str) -> bool:
    return name in (MODEL, MODEL.split(":")[0])


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _answer_pieces(mode: Mode, body: dict[str, Any]) -> tuple[list[str], str]:
    """The reply pieces and done_reason, honouring options.num_predict (one piece = one
    token here)."""
    pieces = words(mode.reply)
    limit = (body.get("options") or {}).get("num_predict")
    if isinstance(limit, int) and 0 < limit < len(pieces):
        return pieces[:limit], "length"
    return pieces, "stop"


def _final(body: dict[str, Any], pt: int, ct: int, started_ns: int) -> dict[str, Any]:
    total = max(time.perf_counter_ns() - started_ns, 1000)
    return {
        "model": body.get("model", MODEL),
        "created_at": _now(),
        "done": True,
        "total_duration": total + 2_000_000,
        "load_duration": 2_000_000,
        "prompt_eval_count": pt,
        "prompt_eval_duration": total // 3,
        "eval_count": ct,
        "eval_duration": total - total // 3,
    }


def _tool_message(tool: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"function": {"name": tool["name"], "arguments": {"city": "İstanbul"}}}],
    }


def build_app(state: EmulatorState) -> Starlette:
    async def chat(request: Request) -> Response:
        admitted = await admit(
            state, request, _failure, lambda: _error(400, "invalid character in request body")
        )
        if isinstance(admitted, Response):
            return admitted
        mode, body = admitted
        findings = chat_findings(body) if isinstance(body, dict) else ["must be an object"]
        if findings:
            return _error(400, "; ".join(findings[:10]))
        if not known_model(str(body.get("model"))):
            return _error(404, f'model "{body.get("model")}" not found, try pulling it first')
        started = time.perf_counter_ns()
        if body.get("stream", True):
            return StreamingResponse(_stream(state, mode, body, started), media_type=NDJSON)
        if mode.kind == "malformed":
            return Response(b'{"model": "x", "message": {', media_type="application/json")
        return Response(
            orjson.dumps(_whole(state, mode, body, started)), media_type="application/json"
        )

    async def tags(request: Request) -> Response:
        await log_request(state, request)
        model = {
            "name": MODEL,
            "model": MODEL,
            "modified_at": _now(),
            "size": 1_000_000,
            "digest": "0" * 64,
            "details": {
                "format": "gguf",
                "family": "emulated",
                "families": ["emulated"],
                "parameter_size": "135M",
                "quantization_level": "Q8_0",
            },
        }
        return Response(orjson.dumps({"models": [model]}), media_type="application/json")

    async def embed(request: Request) -> Response:
        entry = await log_request(state, request)
        failure = await _failure(state.current_mode())
        if failure is not None:
            return failure
        body = entry.json()
        if not known_model(str(body.get("model"))):
            return _error(404, f'model "{body.get("model")}" not found, try pulling it first')
        raw = body.get("input")
        inputs = raw if isinstance(raw, list) else [raw]
        vectors = [[float(len(str(t)) % 7), 0.5, -0.25] for t in inputs]
        tokens = sum(count_tokens(str(t)) for t in inputs)
        state.served_prompt_tokens += tokens
        return Response(
            orjson.dumps(
                {
                    "model": body["model"],
                    "embeddings": vectors,
                    "total_duration": 1_000_000,
                    "load_duration": 100_000,
                    "prompt_eval_count": tokens,
                }
            ),
            media_type="application/json",
        )

    async def root(request: Request) -> Response:
        return Response(b"Ollama is running", media_type="text/plain")

    routes = [
        Route("/api/chat", chat, methods=["POST"]),
        Route("/api/tags", tags, methods=["GET"]),
        Route("/api/embed", embed, methods=["POST"]),
        Route("/", root, methods=["GET", "HEAD"]),
        *control_routes(state),
    ]
    return Starlette(routes=routes)


def _whole(
    state: EmulatorState, mode: Mode, body: dict[str, Any], started_ns: int
) -> dict[str, Any]:
    pt = prompt_tokens(body)
    tool = wants_tool_call(body)
    if tool is not None:
        message, reason, ct = _tool_message(tool), "stop", 12
    else:
        pieces, reason = _answer_pieces(mode, body)
        message, ct = {"role": "assistant", "content": "".join(pieces)}, len(pieces)
    state.served_prompt_tokens += pt
    state.served_completion_tokens += ct
    return {**_final(body, pt, ct, started_ns), "message": message, "done_reason": reason}


def _line(obj: dict[str, Any]) -> bytes:
    return orjson.dumps(obj) + b"\n"


async def _stream(
    state: EmulatorState, mode: Mode, body: dict[str, Any], started_ns: int
) -> AsyncIterator[bytes]:
    head = {"model": body.get("model", MODEL)}
    pt = prompt_tokens(body)
    tool = wants_tool_call(body)
    if tool is not None:
        yield _line({**head, "created_at": _now(), "message": _tool_message(tool), "done": False})
        reason, ct = "stop", 12
    else:
        pieces, reason = _answer_pieces(mode, body)
        for i, piece in enumerate(pieces):
            if mode.kind == "cut" and i >= mode.cut_after:
                raise ConnectionResetError("emulated cut")  # uvicorn drops the connection
            if mode.kind == "malformed" and i == 1:
                yield b"{not json\n"
                return
            yield _line(
                {
                    **head,
                    "created_at": _now(),
                    "message": {"role": "assistant", "content": piece},
                    "done": False,
                }
            )
            if mode.inter_chunk_s:
                await asyncio.sleep(mode.inter_chunk_s)
        ct = len(pieces)
    state.served_prompt_tokens += pt
    state.served_completion_tokens += ct
    yield _line(
        {
            **_final(body, pt, ct, started_ns),
            "message": {"role": "assistant", "content": ""},
            "done_reason": reason,
        }
    )
