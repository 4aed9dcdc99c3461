"""`POST /v1/messages` and `POST /v1/messages/count_tokens`: the Anthropic Messages API as a
thin translation onto the chat path. Callers authenticate with a Geçit key as `x-api-key` (what
Anthropic SDKs send) or as a bearer token; every error has Anthropic's shape."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import orjson
from fastapi import APIRouter, Request
from starlette.responses import Response

from gateway.core.errors import GatewayError, ProviderError
from gateway.core.tokens import estimate_text_tokens
from gateway.core.types import RequestContext
from gateway.openai_api import served
from gateway.openai_api.anthropic_out import MessageEvents, error_body, message_json
from gateway.openai_api.anthropic_wire import CountTokensRequest, MessagesRequest, to_chat
from gateway.openai_api.errors import from_provider
from gateway.openai_api.handlers import JSON
from gateway.openai_api.strict import json_text
from gateway.providers.tokens import estimate_prompt_tokens

log = logging.getLogger("gateway.api")


def build_anthropic_router() -> APIRouter:
    router = APIRouter()

    @router.post("/v1/messages")
    async def messages(request: Request) -> Response:
        return await _answer(lambda: _messages(request))

    @router.post("/v1/messages/count_tokens")
    async def count_tokens(request: Request) -> Response:
        return await _answer(lambda: _count_tokens(request))

    return router


async def _answer(handler: Callable[[], Awaitable[Response]]) -> Response:
    """The handler's response, or its failure in Anthropic's error shape."""
    try:
        return await handler()
    except GatewayError as exc:
        err = exc
    except ProviderError as exc:
        err = from_provider(exc)
    except Exception as exc:
        log.error("internal error: %s", type(exc).__name__)
        err = GatewayError("internal error", code="internal_error")
    return Response(
        error_body(err), status_code=err.status, media_type=JSON, headers=err.headers or None
    )


async def _messages(request: Request) -> Response:
    req, chat = await served.read(request, MessagesRequest, to_chat)
    if chat.stream:
        ctx, handle = await served.open_stream(request, chat)
        return served.event_stream(handle, MessageEvents(_message_id(ctx), req.model))
    ctx, answer = await served.complete(request, chat)
    body = message_json(_message_id(ctx), req.model, answer.result, answer.usage)
    return Response(body, media_type=JSON, headers=served.headers_of(answer))


def _message_id(ctx: RequestContext) -> str:
    return "msg_" + ctx.request_id.removeprefix("req_")


async def _count_tokens(request: Request) -> Response:
    """The gateway's own estimate (what budgets and the ledger use when a backend reports no
    usage); nothing is sent anywhere, so nothing is routed or recorded."""
    _, chat = await served.read(request, CountTokensRequest, to_chat, record=False)
    await served.context(request, chat)
    tools = json_text([t.model_dump() for t in chat.tools], "tools") if chat.tools else ""
    total = estimate_prompt_tokens(chat) + (estimate_text_tokens(tools) if tools else 0)
    return Response(orjson.dumps({"input_tokens": total}), media_type=JSON)
