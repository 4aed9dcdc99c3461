"""Vertex AI emulator: the REST paths google-genai (vertexai=True) calls, Google's error shape.

    POST /{version}/projects/{p}/locations/{l}/publishers/google/models/{model}:generateContent
    POST ...:streamGenerateContent?alt=sse   (SSE `data: {GenerateContentResponse}` frames)
    POST ...:predict | :embedContent | :batchEmbedContents   (text embeddings)
    GET  /{version}/publishers/google/models/{model}          (model metadata, health probe)
    POST /token   an OAuth2 token endpoint for service-account files whose token_uri points here

Modes come from base.py (ok, status, throttle, hang, cut, malformed), plus Vertex's own failure
shapes: "error_frame" sends an in-band `{"error": {...}}` frame after `cut_after` chunks of a
stream (HTTP status already 200), "blocked" a safety block (HTTP 200, `promptFeedback.blockReason`,
no candidates). Errors look like Google's:
`{"error": {"code": 429, "message": ..., "status": "RESOURCE_EXHAUSTED"}}`. generateContent
bodies are validated against google-genai's types (`vertex_validation`): what Vertex refuses
gets its 400 INVALID_ARGUMENT here too.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gateway.emulators import vertex_validation
from gateway.emulators.base import (
    EmulatorState,
    Mode,
    apply_failure_mode,
    control_routes,
    count_tokens,
    log_request,
    words,
)

STATUS_WORDS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}
TOOL_ARGS = {"city": "İstanbul"}
TOOL_CALL_TOKENS = 12


def google_error(
    code: int,
    message: str,
    headers: dict[str, str] | None = None,
    details: list[dict[str, Any]] | None = None,
) -> Response:
    error: dict[str, Any] = {
        "code": code,
        "message": message,
        "status": STATUS_WORDS.get(code, "UNKNOWN"),
    }
    if details:
        error["details"] = details
    return Response(
        orjson.dumps({"error": error}),
        status_code=code,
        media_type="application/json",
        headers=headers,
    )


def _throttled(mode: Mode, headers: dict[str, str]) -> Response:
    details = (
        [
            {
                "@type": "type.googleapis.com/google.rpc.RetryInfo",
                "retryDelay": f"{mode.retry_after}s",
            }
        ]
        if mode.retry_after is not None
        else None
    )
    return google_error(429, "Resource exhausted. Please try again later.", headers, details)


async def failure(mode: Mode) -> Response | None:
    """The response for modes that fail before any byte of the answer, else None."""
    return await apply_failure_mode(
        mode, lambda status: google_error(status, "emulated failure"), _throttled
    )


def _texts(content: dict[str, Any] | None) -> list[str]:
    parts = (content or {}).get("parts") or []
    return [p["text"] for p in parts if isinstance(p.get("text"), str)]


def prompt_tokens(body: dict[str, Any]) -> int:
    contents = body.get("contents") or []
    n = sum(count_tokens(t) for c in contents for t in _texts(c))
    n += sum(count_tokens(t) for t in _texts(body.get("systemInstruction")))
    return n + 3 * len(contents)


def wants_tool_call(body: dict[str, Any]) -> dict[str, Any] | None:
    """Call the first declared function when tools are offered and the last turn is the user's
    own words (a functionResponse turn gets a normal answer), unless calling is disabled."""
    decls = [d for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []]
    contents = body.get("contents") or []
    mode = ((body.get("toolConfig") or {}).get("functionCallingConfig") or {}).get("mode")
    if not decls or not contents or mode == "NONE":
        return None
    last = contents[-1]
    parts = last.get("parts") or []
    if last.get("role") == "user" and not any("functionResponse" in p for p in parts):
        first: dict[str, Any] = decls[0]
        return first
    return None


def usage(pt: int, ct: int) -> dict[str, int]:
    return {"promptTokenCount": pt, "candidatesTokenCount": ct, "totalTokenCount": pt + ct}


def candidate(parts: list[dict[str, Any]], finish: str | None) -> dict[str, Any]:
    c: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish:
        c["finishReason"] = finish
    return c


def answer(state: EmulatorState, mode: Mode, body: dict[str, Any], model: str) -> dict[str, Any]:
    pt = prompt_tokens(body)
    tool = wants_tool_call(body)
    if tool is not None:
        parts: list[dict[str, Any]] = [{"functionCall": {"name": tool["name"], "args": TOOL_ARGS}}]
        ct = TOOL_CALL_TOKENS
    else:
        parts, ct = [{"text": mode.reply}], len(words(mode.reply))
    state.served_prompt_tokens += pt
    state.served_completion_tokens += ct
    return {
        "candidates": [candidate(parts, "STOP")],
        "usageMetadata": usage(pt, ct),
        "modelVersion": model,
        "responseId": "emu-response",
    }


def blocked(state: EmulatorState, body: dict[str, Any], model: str) -> dict[str, Any]:
    """A prompt refused by the safety filters: no candidate, the prompt's tokens only."""
    pt = prompt_tokens(body)
    state.served_prompt_tokens += pt
    return {
        "promptFeedback": {
            "blockReason": "SAFETY",
            "blockReasonMessage": "The prompt was blocked (emulated).",
            "safetyRatings": [
                {
                    "category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                    "probability": "HIGH",
                    "blocked": True,
                }
            ],
        },
        "usageMetadata": {"promptTokenCount": pt, "totalTokenCount": pt},
        "modelVersion": model,
        "responseId": "emu-response",
    }


IN_BAND_ERROR = {
    "error": {"code": 500, "message": "Internal error encountered.", "status": "INTERNAL"}
}


def _frame(obj: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(obj) + b"\r\n\r\n"


async def stream(
    state: EmulatorState, mode: Mode, body: dict[str, Any], model: str
) -> AsyncIterator[bytes]:
    pt = prompt_tokens(body)
    tool = wants_tool_call(body)
    if mode.kind == "blocked":
        yield _frame(blocked(state, body, model))
        return
    if tool is not None:
        state.served_prompt_tokens += pt
        state.served_completion_tokens += TOOL_CALL_TOKENS
        yield _frame(
            {
                "candidates": [
                    candidate([{"functionCall": {"name": tool["name"], "args": TOOL_ARGS}}], "STOP")
                ],
                "usageMetadata": usage(pt, TOOL_CALL_TOKENS),
                "modelVersion": model,
            }
        )
        return
    pieces = words(mode.reply)
    for i, piece in enumerate(pieces):
        if mode.kind == "cut" and i >= mode.cut_after:
            raise ConnectionResetError("emulated cut")  # uvicorn drops the connection
        if mode.kind == "malformed" and i == 1:
            yield b"data: {not json\r\n\r\n"
            return
        if mode.kind == "error_frame" and i >= mode.cut_after:
            yield _frame(IN_BAND_ERROR)
            return
        last = i == len(pieces) - 1
        frame: dict[str, Any] = {
            "candidates": [candidate([{"text": piece}], "STOP" if last else None)],
            "modelVersion": model,
        }
        if last:
            state.served_prompt_tokens += pt
            state.served_completion_tokens += len(pieces)
            frame["usageMetadata"] = usage(pt, len(pieces))
        yield _frame(frame)
        if mode.inter_chunk_s:
            await asyncio.sleep(mode.inter_chunk_s)


def embed(state: EmulatorState, method: str, body: dict[str, Any]) -> dict[str, Any]:
    """Deterministic 3-d vectors; token counts the way each Vertex method reports them."""
    if method == "predict":
        texts = [str(i.get("content", "")) for i in body.get("instances") or []]
    elif method == "embedContent":
        texts = ["".join(_texts(body.get("content")))]
    else:
        texts = ["".join(_texts(r.get("content"))) for r in body.get("requests") or []]
    counts = [count_tokens(t) for t in texts]
    state.served_prompt_tokens += sum(counts)
    vectors = [[float(len(t) % 7), 0.5, -0.25] for t in texts]
    if method == "predict":
        return {
            "predictions": [
                {"embeddings": {"values": v, "statistics": {"token_count": c, "truncated": False}}}
                for v, c in zip(vectors, counts, strict=True)
            ]
        }
    meta = {"promptTokenCount": sum(counts)}
    if method == "embedContent":
        return {"embedding": {"values": vectors[0]}, "usageMetadata": meta}
    return {"embeddings": [{"values": v} for v in vectors], "usageMetadata": meta}


def jwt_claims(assertion: object) -> dict[str, Any] | None:
    """The claims of a JWT bearer assertion, or None when it is not one."""
    if not isinstance(assertion, str) or assertion.count(".") != 2:
        return None
    payload = assertion.split(".")[1]
    try:
        claims = orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (ValueError, orjson.JSONDecodeError):
        return None
    return claims if isinstance(claims, dict) else None


def build_app(state: EmulatorState) -> Starlette:
    async def model_call(request: Request) -> Response:
        entry = await log_request(state, request)
        model, _, method = request.path_params["action"].partition(":")
        if method not in (
            "generateContent",
            "streamGenerateContent",
            "predict",
            "embedContent",
            "batchEmbedContents",
        ):
            return google_error(404, f"method '{method}' is not emulated")
        mode = state.current_mode()
        failed = await failure(mode)
        if failed is not None:
            return failed
        try:
            body = entry.json()
        except orjson.JSONDecodeError:
            return google_error(400, "Invalid JSON payload received.")
        if method in ("generateContent", "streamGenerateContent"):
            if not isinstance(body, dict):
                return google_error(400, "Invalid JSON payload received.")
            findings = vertex_validation.findings(body)
            if findings:
                return google_error(400, " ".join(findings[:10]))
        if method == "streamGenerateContent":
            return StreamingResponse(
                stream(state, mode, body, model), media_type="text/event-stream"
            )
        if mode.kind == "malformed":
            return Response(b'{"candidates": [', media_type="application/json")
        if method == "generateContent":
            result = (
                blocked(state, body, model)
                if mode.kind == "blocked"
                else answer(state, mode, body, model)
            )
        else:
            result = embed(state, method, body)
        return Response(orjson.dumps(result), media_type="application/json")

    async def model_info(request: Request) -> Response:
        await log_request(state, request)
        failed = await failure(state.current_mode())
        if failed is not None:
            return failed
        name = request.path_params["model"]
        return Response(
            orjson.dumps(
                {
                    "name": f"publishers/google/models/{name}",
                    "versionId": "001",
                    "launchStage": "GA",
                }
            ),
            media_type="application/json",
        )

    async def token(request: Request) -> Response:
        """Exchange a service-account JWT assertion for an access token (signature unchecked:
        the emulator has no public key; the claims are what the test looks at)."""
        entry = await log_request(state, request)
        form = parse_qs(entry.body.decode("utf-8", "replace"))
        claims = jwt_claims(next(iter(form.get("assertion") or []), None))
        if claims is None:
            return Response(
                orjson.dumps({"error": "invalid_grant"}),
                status_code=400,
                media_type="application/json",
            )
        return Response(
            orjson.dumps(
                {
                    "access_token": f"emu-token:{claims.get('iss', '')}",
                    "expires_in": 3600,
                    "token_type": "Bearer",
                }
            ),
            media_type="application/json",
        )

    prefix = "/{version}/projects/{project}/locations/{location}/publishers/google/models"
    routes = [
        Route(prefix + "/{action}", model_call, methods=["POST"]),
        Route("/{version}/publishers/google/models/{model}", model_info, methods=["GET"]),
        Route("/token", token, methods=["POST"]),
        *control_routes(state),
    ]
    return Starlette(routes=routes)
