"""OpenAI chat emulator: JSON, SSE (usage in the last chunk), models, embeddings."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
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
    last_user_text,
    log_request,
    pieces_of,
    words,
)

MODEL = "emulated-model"


def prompt_tokens(body: dict[str, Any]) -> int:
    n = 0
    for m in body.get("messages") or []:
        c = m.get("content")
        if isinstance(c, str):
            n += count_tokens(c)
        elif isinstance(c, list):
            n += sum(count_tokens(p.get("text") or "") for p in c)
    return n + 3 * len(body.get("messages") or [])


def wants_tool_call(body: dict[str, Any]) -> dict[str, Any] | None:
    """Answer with a call to the first tool when tools are offered and the last message is the
    user's (so a tool result in the next turn gets a normal answer)."""
    tools = body.get("tools") or []
    msgs = body.get("messages") or []
    if tools and msgs and msgs[-1].get("role") == "user" and body.get("tool_choice") != "none":
        fn: dict[str, Any] = tools[0]["function"]
        return fn
    return None


def build_app(state: EmulatorState) -> Starlette:
    async def chat(request: Request) -> Response:
        admitted = await admit(
            state,
            request,
            apply_failure_mode,
            lambda: Response(
                b'{"error":{"message":"bad json"}}', 400, media_type="application/json"
            ),
        )
        if isinstance(admitted, Response):
            return admitted
        mode, body = admitted
        if body.get("stream"):
            return StreamingResponse(_stream(state, mode, body), media_type="text/event-stream")
        if mode.kind == "malformed":
            return Response(b'{"id": "x", "choices": [', media_type="application/json")
        return Response(orjson.dumps(_completion(state, mode, body)), media_type="application/json")

    async def models(request: Request) -> Response:
        await log_request(state, request)
        data = [{"id": MODEL, "object": "model", "created": 0, "owned_by": "emulator"}]
        return Response(
            orjson.dumps({"object": "list", "data": data}), media_type="application/json"
        )

    async def embeddings(request: Request) -> Response:
        entry = await log_request(state, request)
        mode = state.current_mode()
        failure = await apply_failure_mode(mode)
        if failure is not None:
            return failure
        body = entry.json()
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": i, "embedding": [float(len(t) % 7), 0.5, -0.25]}
            for i, t in enumerate(inputs)
        ]
        tokens = sum(count_tokens(str(t)) for t in inputs)
        state.served_prompt_tokens += tokens
        return Response(
            orjson.dumps(
                {
                    "object": "list",
                    "data": data,
                    "model": MODEL,
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                }
            ),
            media_type="application/json",
        )

    routes = [
        Route("/v1/chat/completions", chat, methods=["POST"]),
        Route("/v1/models", models, methods=["GET"]),
        Route("/v1/embeddings", embeddings, methods=["POST"]),
        *control_routes(state),
    ]
    return Starlette(routes=routes)


def _completion(state: EmulatorState, mode: Mode, body: dict[str, Any]) -> dict[str, Any]:
    pt = prompt_tokens(body)
    tool = wants_tool_call(body)
    if tool is not None:
        message: dict[str, Any] = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_emu_1",
                    "type": "function",
                    "function": {"name": tool["name"], "arguments": '{"city": "İstanbul"}'},
                }
            ],
        }
        finish, ct = "tool_calls", 12
    else:
        reply = last_user_text(body) if mode.echo else mode.reply
        message = {"role": "assistant", "content": reply}
        finish, ct = "stop", len(words(reply))
    state.served_prompt_tokens += pt
    state.served_completion_tokens += ct
    return {
        "id": "chatcmpl-emu",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", MODEL),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
    }


def _frame(obj: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(obj) + b"\n\n"


async def _stream(state: EmulatorState, mode: Mode, body: dict[str, Any]) -> AsyncIterator[bytes]:
    head = {
        "id": "chatcmpl-emu",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", MODEL),
    }
    pt = prompt_tokens(body)
    pieces = pieces_of(last_user_text(body), mode.echo_piece) if mode.echo else words(mode.reply)
    tool = wants_tool_call(body)
    if tool is not None:
        yield _frame(
            {
                **head,
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "role": "assistant",
                            "tool_calls": [
                                {
                                    "index": 0,
                                    "id": "call_emu_1",
                                    "type": "function",
                                    "function": {"name": tool["name"], "arguments": ""},
                                }
                            ],
                        },
                        "finish_reason": None,
                    }
                ],
            }
        )
        for part in ('{"city": ', '"İstanbul"}'):
            yield _frame(
                {
                    **head,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {
                                "tool_calls": [{"index": 0, "function": {"arguments": part}}]
                            },
                            "finish_reason": None,
                        }
                    ],
                }
            )
        finish, ct = "tool_calls", 12
    else:
        for i, piece in enumerate(pieces):
            if mode.kind == "cut" and i >= mode.cut_after:
                raise ConnectionResetError("emulated cut")  # uvicorn drops the connection
            if mode.kind == "unfinished" and i >= mode.cut_after:
                # what llama.cpp's server (llama-cpp-python, --interrupt_requests) sends when
                # another request interrupts a stream: [DONE] with no finish_reason before it
                yield b"data: [DONE]\n\n"
                return
            if mode.kind == "malformed" and i == 1:
                yield b"data: {not json\n\n"
                return
            delta: dict[str, Any] = {"content": piece}
            if i == 0:
                delta["role"] = "assistant"
            yield _frame({**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
            if mode.inter_chunk_s:
                await asyncio.sleep(mode.inter_chunk_s)
        finish, ct = "stop", len(pieces)
    yield _frame({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    state.served_prompt_tokens += pt
    state.served_completion_tokens += ct
    if (body.get("stream_options") or {}).get("include_usage"):
        yield _frame(
            {
                **head,
                "choices": [],
                "usage": {"prompt_tokens": pt, "completion_tokens": ct, "total_tokens": pt + ct},
            }
        )
    yield b"data: [DONE]\n\n"
