"""The one call every client API makes once it has a ChatRequest: authenticate the caller,
then the chat service (classification, policy, redaction, budgets, dispatch, ledger) serves
it, whole or streamed. A body that cannot be read still gets its ledger row."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol, TypeVar

from fastapi import Request
from pydantic import BaseModel
from starlette.responses import StreamingResponse

from gateway.core.errors import GatewayError, ProviderError, ServiceUnavailable
from gateway.core.types import ChatChunk, ChatRequest, RequestContext, Usage
from gateway.openai_api.handlers import cost_header, limits_of, route_headers
from gateway.openai_api.intake import Refusal, parse_body, translated
from gateway.service.chat import Served, StreamHandle

if TYPE_CHECKING:
    from gateway.runtime import Runtime

M = TypeVar("M", bound=BaseModel)
C = TypeVar("C", bound=ChatRequest | None)


def runtime_of(request: Request) -> Runtime:
    rt: Runtime = request.app.state.runtime
    return rt


def record_unreadable(request: Request, exc: GatewayError) -> None:
    """The ledger row of a request refused before it had a model alias."""
    rt = runtime_of(request)
    state = request.scope.get("state", {})
    ctx = RequestContext(
        request_id=state.get("request_id", ""),
        received_at=state.get("received_at", rt.clock.monotonic()),
    )
    rt.chat.record_rejected(ctx, "", exc)


async def read(
    request: Request,
    wire: type[M],
    translate: Callable[[M], C],
    *,
    record: bool = True,
) -> tuple[M, C]:
    """The body as `wire` and its chat translation, through the intake seam (a large body
    parsed, translated and checked against the limits in a child process). A refusal, or a
    busy pool, gets its ledger row (unless `record` is off: nothing is served) and is raised."""
    rt = runtime_of(request)
    body = await request.body()
    try:
        found = await parse_body(body, rt.body_offload, translated, limits_of(rt), wire, translate)
    except ServiceUnavailable as exc:
        if record:
            record_unreadable(request, exc)
        raise
    if isinstance(found, Refusal):
        error = found.error()
        if record:
            record_unreadable(request, error)
        raise error
    return found


async def context(request: Request, chat: ChatRequest) -> RequestContext:
    ctx: RequestContext = await runtime_of(request).authenticate(request, chat)
    return ctx


async def complete(request: Request, chat: ChatRequest) -> tuple[RequestContext, Served]:
    ctx = await context(request, chat)
    return ctx, await runtime_of(request).chat.complete(ctx, chat)


async def open_stream(request: Request, chat: ChatRequest) -> tuple[RequestContext, StreamHandle]:
    ctx = await context(request, chat)
    return ctx, await runtime_of(request).chat.open_stream(ctx, chat)


def created_at(request: Request) -> int:
    return int(runtime_of(request).clock.now())


class Events(Protocol):
    """One stream's encoder in a client API's event format."""

    def start(self) -> bytes: ...

    def chunk(self, c: ChatChunk) -> bytes: ...

    def finish(self, usage: Usage, cost_usd: Decimal | None = None) -> bytes:
        """The closing events; `cost_usd` (the ledger's, None when unknown) joins the final
        usage as `gecit_cost_usd`."""
        ...

    def error(self, message: str) -> bytes: ...


def headers_of(answer: Served | StreamHandle) -> dict[str, str]:
    out = route_headers(answer.decision, answer.outcome.backend, len(answer.outcome.attempts))
    if isinstance(answer, Served):
        out.update(cost_header(answer.cost_usd))
    return out


def event_stream(handle: StreamHandle, enc: Events) -> StreamingResponse:
    return StreamingResponse(
        _events(handle, enc),
        media_type="text/event-stream",
        headers={**headers_of(handle), "cache-control": "no-cache", "x-accel-buffering": "no"},
    )


async def _events(handle: StreamHandle, enc: Events) -> AsyncGenerator[bytes, None]:
    head = enc.start()
    if head:
        yield head
    try:
        async for chunk in handle.chunks:
            data = enc.chunk(chunk)
            if data:
                yield data
    except ProviderError as exc:
        # the first event already went out: no fallback is possible; say so and stop
        yield enc.error(f"the stream was interrupted: {exc.message}")
        return
    assert handle.usage is not None  # set by the chat service when the chunks end
    yield enc.finish(handle.usage, handle.cost_usd)
