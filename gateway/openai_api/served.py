"""The one call every client API makes once it has a ChatRequest: authenticate the caller,
then the chat service (classification, policy, redaction, budgets, dispatch, ledger) serves
it, whole or streamed. A body that cannot be read still gets its ledger row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import Request

from gateway.core.errors import GatewayError
from gateway.core.types import ChatRequest, RequestContext
from gateway.service.chat import Served, StreamHandle

if TYPE_CHECKING:
    from gateway.runtime import Runtime


def runtime_of(request: Request) -> Runtime:
    rt: Runtime = request.app.state.runtime
    return rt


def record_unreadable(request: Request, exc: GatewayError) -> None:
    """The ledger row of a request refused before it had a model alias."""
    rt = runtime_of(request)
    state = request.scope.get("state", {})
    ctx = RequestContext(request_id=state.get("request_id", ""),
                         received_at=state.get("received_at", rt.clock.monotonic()))
    rt.chat.record_rejected(ctx, "", exc)


async def context(request: Request, chat: ChatRequest) -> RequestContext:
    ctx: RequestContext = await runtime_of(request).authenticate(request, chat)
    return ctx


async def complete(request: Request, chat: ChatRequest) -> tuple[RequestContext, Served]:
    ctx = await context(request, chat)
    return ctx, await runtime_of(request).chat.complete(ctx, chat)


async def open_stream(request: Request, chat: ChatRequest
                      ) -> tuple[RequestContext, StreamHandle]:
    ctx = await context(request, chat)
    return ctx, await runtime_of(request).chat.open_stream(ctx, chat)


def created_at(request: Request) -> int:
    return int(runtime_of(request).clock.now())
