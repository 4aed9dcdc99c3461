"""Thin HTTP handlers: parse, build the context, call the service, serialise."""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator
from decimal import Decimal
from typing import Any

import orjson
from fastapi import APIRouter, Request
from starlette.requests import ClientDisconnect
from starlette.responses import Response, StreamingResponse

from gateway.core.errors import ProviderError
from gateway.core.types import RequestContext
from gateway.fleet.choice import node_for
from gateway.openai_api.intake import parse_limited
from gateway.openai_api.limits import BodyTooLarge, EdgeLimits, read_body
from gateway.openai_api.wire import ChunkEncoder, completion_json
from gateway.service.chat import ChatService, StreamHandle
from gateway.service.decision import RouteDecision

log = logging.getLogger("gateway.api")

JSON = "application/json"


def route_headers(decision: RouteDecision, backend: str | None, attempts: int) -> dict[str, str]:
    h = {"x-gecit-attempts": str(attempts)}
    if backend:
        h["x-gecit-backend"] = backend
    if decision.data_class:
        h["x-gecit-data-class"] = decision.data_class
    if decision.rule:
        h["x-gecit-rule"] = decision.rule
    node = node_for(backend)
    if node is not None:
        h["x-gecit-node"] = node.node
    h.update(decision.headers)
    return h


def cost_header(cost_usd: Decimal | None) -> dict[str, str]:
    """`x-gecit-cost-usd`: a whole answer's cost as the ledger keeps it (absent: unknown)."""
    return {} if cost_usd is None else {"x-gecit-cost-usd": str(cost_usd)}


def build_router() -> APIRouter:
    router = APIRouter()

    @router.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
        rt = request.app.state.runtime
        service: ChatService = rt.chat
        ctx: RequestContext = await rt.authenticate(request, None)  # before the body
        limits = limits_of(rt)
        try:
            body = await read_body(request.scope, request.receive, limits)
        except BodyTooLarge as exc:
            service.record_rejected(ctx, "", exc)
            raise
        if body is None:
            raise ClientDisconnect
        chat = await parse_limited(body, limits, ctx, service, rt.body_offload)
        created = int(rt.clock.now())
        rid = "chatcmpl-" + ctx.request_id.removeprefix("req_")
        if chat.stream:
            handle = await service.open_stream(ctx, chat)
            headers = route_headers(handle.decision, handle.outcome.backend, handle.outcome.tried)
            return StreamingResponse(
                sse_events(
                    handle, ChunkEncoder(rid, created, chat.model), chat.wants_usage_in_stream
                ),
                media_type="text/event-stream",
                headers={**headers, "cache-control": "no-cache", "x-accel-buffering": "no"},
            )
        served = await service.complete(ctx, chat)
        headers = route_headers(served.decision, served.outcome.backend, served.outcome.tried)
        headers.update(cost_header(served.cost_usd))
        body = completion_json(rid, created, chat.model, served.choices, served.usage)
        return Response(body, media_type=JSON, headers=headers)

    @router.get("/v1/models")
    async def list_models(request: Request) -> Response:
        rt = request.app.state.runtime
        await rt.authenticate(request, None)
        created = int(rt.started_at)
        data = [
            {"id": a, "object": "model", "created": created, "owned_by": "gecit"}
            for a in rt.policy.aliases
        ]
        return Response(orjson.dumps({"object": "list", "data": data}), media_type=JSON)

    @router.get("/healthz")
    async def healthz() -> Response:
        return Response(b'{"status":"ok"}', media_type=JSON)

    @router.get("/readyz")
    async def readyz(request: Request) -> Response:
        ready, report = await request.app.state.runtime.readiness_report()
        return Response(orjson.dumps(report), status_code=200 if ready else 503, media_type=JSON)

    return router


def limits_of(rt: Any) -> EdgeLimits:
    """The running gateway's edge limits (its settings'), else the defaults."""
    settings = rt.settings
    return EdgeLimits.of(settings) if settings is not None else EdgeLimits()


async def sse_events(
    handle: StreamHandle, enc: ChunkEncoder, include_usage: bool
) -> AsyncGenerator[bytes, None]:
    try:
        async for chunk in handle.chunks:
            data = enc.chunk(chunk)
            if data:
                yield data
    except ProviderError as exc:
        # the first chunk already went out: no fallback is possible; say so and stop
        yield ChunkEncoder.error(f"the stream was interrupted: {exc.message}", "stream_interrupted")
        return
    if include_usage and handle.usage is not None:
        yield enc.usage(handle.usage, handle.cost_usd)
    yield ChunkEncoder.DONE
