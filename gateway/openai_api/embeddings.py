"""`POST /v1/embeddings`: parse, authenticate like chat, call the embeddings service, answer
the OpenAI embeddings shape (float lists, or base64 of little-endian float32 when asked)."""

from __future__ import annotations

import base64
import struct
from typing import Any

import orjson
from fastapi import APIRouter, Request
from starlette.requests import ClientDisconnect
from starlette.responses import Response

from gateway.core.errors import GatewayError, InvalidRequest, ServiceUnavailable
from gateway.core.types import RequestContext
from gateway.openai_api.handlers import JSON, limits_of, route_headers
from gateway.openai_api.intake import Refusal, embeddings_checked, parse_body
from gateway.openai_api.limits import BodyTooLarge, read_body
from gateway.service.embeddings import Embedded, EmbeddingsService


def _vector(v: list[float], fmt: str) -> list[float] | str:
    if fmt == "base64":
        return base64.b64encode(struct.pack(f"<{len(v)}f", *v)).decode("ascii")
    return v


def embeddings_json(alias: str, served: Embedded, fmt: str) -> bytes:
    body: dict[str, Any] = {
        "object": "list",
        "data": [
            {"object": "embedding", "index": i, "embedding": _vector(v, fmt)}
            for i, v in enumerate(served.vectors)
        ],
        "model": alias,
        "usage": {"prompt_tokens": served.prompt_tokens, "total_tokens": served.prompt_tokens},
    }
    return orjson.dumps(body)


def build_embeddings_router() -> APIRouter:
    router = APIRouter()

    @router.post("/v1/embeddings")
    async def embeddings(request: Request) -> Response:
        rt = request.app.state.runtime
        service: EmbeddingsService | None = rt.embeddings
        if service is None:
            raise GatewayError("embeddings are not configured", code="not_configured", status=501)
        ctx: RequestContext = await rt.authenticate(request, None)  # before the body
        limits = limits_of(rt)
        try:
            raw = await read_body(request.scope, request.receive, limits)
            if raw is None:
                raise ClientDisconnect
            # inputs and characters checked as chat; a large body in a child process
            found = await parse_body(raw, rt.body_offload, embeddings_checked, limits)
            if isinstance(found, Refusal):
                raise found.error()
        except (InvalidRequest, BodyTooLarge, ServiceUnavailable) as exc:
            service.record_rejected(ctx, "", exc)
            raise
        body = found
        served = await service.embed(ctx, body)
        headers = route_headers(served.decision, served.outcome.backend, served.outcome.tried)
        return Response(
            embeddings_json(body.model, served, body.encoding_format),
            media_type=JSON,
            headers=headers,
        )

    return router
