"""`POST /v1/completions`: the legacy prompt -> text API as a thin translation onto the chat
path. The prompt becomes one user message (the backends behind the gateway are chat models);
options a chat backend cannot honour (`echo`, `suffix`, `logprobs`, `best_of` > 1, `n` > 1,
token-id prompts) are refused with a 400 rather than answered wrongly."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import orjson
from fastapi import APIRouter, Request
from pydantic import Field
from starlette.responses import Response

from gateway.core.types import ChatChunk, ChatRequest, ChatResult, RequestContext, Usage
from gateway.openai_api import served
from gateway.openai_api.handlers import JSON
from gateway.openai_api.strict import Strict, chat_request, unsupported
from gateway.openai_api.wire import ChunkEncoder, usage_json


class StreamOptions(Strict):
    include_usage: bool = False


class CompletionRequest(Strict):
    model: str = Field(min_length=1)
    prompt: str | list[str]
    max_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    stop: str | list[str] | None = None
    seed: int | None = None
    user: str | None = None
    stream: bool = False
    stream_options: StreamOptions | None = None
    n: int | None = Field(default=None, ge=1, le=1)
    best_of: int | None = Field(default=None, ge=1, le=1)
    echo: bool | None = None
    logprobs: int | None = None
    suffix: str | None = None


def to_chat(req: CompletionRequest) -> ChatRequest:
    if req.echo:
        raise unsupported("echo is not supported: the backends are chat models", "echo")
    if req.suffix:
        raise unsupported("suffix (fill-in-the-middle) is not supported", "suffix")
    if req.logprobs is not None:
        raise unsupported(
            "logprobs are not supported on this endpoint: the backends behind "
            "the gateway do not return them",
            "logprobs",
        )
    prompt = req.prompt
    if isinstance(prompt, list):
        if len(prompt) != 1:
            raise unsupported("exactly one prompt per request is supported", "prompt")
        prompt = prompt[0]
    fields: dict[str, Any] = {
        "model": req.model,
        "stream": req.stream,
        "messages": [{"role": "user", "content": prompt}],
    }
    for name, value in (
        ("max_tokens", req.max_tokens),
        ("temperature", req.temperature),
        ("top_p", req.top_p),
        ("stop", req.stop),
        ("seed", req.seed),
        ("user", req.user),
    ):
        if value is not None:
            fields[name] = value
    if req.stream:
        fields["stream_options"] = {"include_usage": True}
    return chat_request(fields)


def completion_json(cid: str, created: int, alias: str, result: ChatResult, usage: Usage) -> bytes:
    return orjson.dumps(
        {
            "id": cid,
            "object": "text_completion",
            "created": created,
            "model": alias,
            "choices": [
                {
                    "index": 0,
                    "text": result.text or "",
                    "logprobs": None,
                    "finish_reason": result.finish_reason,
                }
            ],
            "usage": usage_json(usage),
        }
    )


class TextChunks:
    """Encodes one stream as legacy `text_completion` SSE chunks, `[DONE]` at the end."""

    def __init__(self, cid: str, created: int, alias: str, include_usage: bool = False) -> None:
        self._head = {"id": cid, "object": "text_completion", "created": created, "model": alias}
        self._include_usage = include_usage

    def start(self) -> bytes:
        return b""

    def _frame(self, body: dict[str, Any]) -> bytes:
        return b"data: " + orjson.dumps({**self._head, **body}) + b"\n\n"

    def chunk(self, c: ChatChunk) -> bytes:
        if not c.text and c.finish_reason is None:
            return b""
        return self._frame(
            {
                "choices": [
                    {"index": 0, "text": c.text, "logprobs": None, "finish_reason": c.finish_reason}
                ]
            }
        )

    def usage(self, u: Usage, cost_usd: Decimal | None = None) -> bytes:
        return self._frame({"choices": [], "usage": usage_json(u, cost_usd)})

    def finish(self, usage: Usage, cost_usd: Decimal | None = None) -> bytes:
        tail = self.usage(usage, cost_usd) if self._include_usage else b""
        return tail + ChunkEncoder.DONE

    def error(self, message: str) -> bytes:
        return ChunkEncoder.error(message, "stream_interrupted")


def build_completions_router() -> APIRouter:
    router = APIRouter()

    @router.post("/v1/completions")
    async def completions(request: Request) -> Response:
        req, chat = await served.read(request, CompletionRequest, to_chat)
        created = served.created_at(request)
        if chat.stream:
            ctx, handle = await served.open_stream(request, chat)
            usage = bool(req.stream_options and req.stream_options.include_usage)
            return served.event_stream(
                handle, TextChunks(_completion_id(ctx), created, req.model, usage)
            )
        ctx, answer = await served.complete(request, chat)
        body = completion_json(_completion_id(ctx), created, req.model, answer.result, answer.usage)
        return Response(body, media_type=JSON, headers=served.headers_of(answer))

    return router


def _completion_id(ctx: RequestContext) -> str:
    return "cmpl-" + ctx.request_id.removeprefix("req_")
