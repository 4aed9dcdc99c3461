"""AWS Bedrock Runtime emulator: Converse (JSON), ConverseStream (event-stream frames) and
InvokeModel for Titan text embeddings. Errors come the way AWS sends them: a JSON body with a
`message` plus an `x-amzn-ErrorType` header. Converse requests are validated as Bedrock does
(botocore's service model plus the conversation rules, see `bedrock_validation`): a request
the real service would refuse gets its 400 here too. `Mode.stop_reason` answers with any stop
reason of the model (e.g. `malformed_tool_use`)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gateway.emulators import eventstream
from gateway.emulators.base import (
    EmulatorState,
    Mode,
    apply_failure_mode,
    control_routes,
    count_tokens,
    log_request,
    words,
)
from gateway.emulators.bedrock_validation import (
    conversation_findings,
    shape_findings,
    validation_message,
)

TOOL_USE_ID = "tooluse_emu_1"
TOOL_INPUT_PARTS = ('{"city": ', '"İstanbul"}')
TOOL_COMPLETION_TOKENS = 12
EMBED_DIMENSIONS = 16

ERROR_TYPES: dict[int, str] = {
    400: "ValidationException",
    403: "AccessDeniedException",
    404: "ResourceNotFoundException",
    408: "ModelTimeoutException",
    424: "ModelErrorException",
    429: "ThrottlingException",
    500: "InternalServerException",
    503: "ServiceUnavailableException",
}


@dataclass
class StreamKnobs:
    """Bedrock-only stream behaviour the generic `Mode` has no word for."""

    exception_after: int | None = None  # send an exception frame after N text deltas
    exception_type: str = "modelStreamErrorException"


def error_type_for(status: int) -> str:
    if status in ERROR_TYPES:
        return ERROR_TYPES[status]
    return "InternalServerException" if status >= 500 else "ValidationException"


def aws_error(
    status: int, error_type: str, message: str, headers: dict[str, str] | None = None
) -> Response:
    return Response(
        orjson.dumps({"message": message}),
        status_code=status,
        media_type="application/json",
        headers={
            "x-amzn-ErrorType": error_type,
            "x-amzn-RequestId": "emu-request",
            **(headers or {}),
        },
    )


async def failure_response(mode: Mode) -> Response | None:
    """For modes that fail before any byte of the answer: the AWS-shaped failure (or a wait)."""
    return await apply_failure_mode(
        mode,
        lambda status: aws_error(status, error_type_for(status), "emulated failure"),
        lambda _m, headers: aws_error(
            429, "ThrottlingException", "Too many requests, please wait.", headers
        ),
    )


def _block_tokens(block: dict[str, Any]) -> int:
    """Tokens of a text block, or of a toolResult's text / json contents."""
    if "text" in block:
        return count_tokens(str(block["text"]))
    if "json" in block:
        return count_tokens(orjson.dumps(block["json"]).decode())
    result = block.get("toolResult")
    if isinstance(result, dict):
        return sum(_block_tokens(b) for b in result.get("content") or [])
    return 0


def prompt_tokens(body: dict[str, Any]) -> int:
    msgs = body.get("messages") or []
    n = sum(_block_tokens(b) for b in body.get("system") or [])
    n += sum(_block_tokens(b) for m in msgs for b in m.get("content") or [])
    return n + 3 * len(msgs)


def wants_tool_call(body: dict[str, Any]) -> dict[str, Any] | None:
    """Call the first tool when tools are offered and the last message is the user's own turn
    (not a turn carrying tool results, so the next turn gets a normal answer)."""
    tools = (body.get("toolConfig") or {}).get("tools") or []
    msgs = body.get("messages") or []
    if not tools or not msgs or msgs[-1].get("role") != "user":
        return None
    if any("toolResult" in b for b in msgs[-1].get("content") or []):
        return None
    spec: dict[str, Any] = tools[0]["toolSpec"]
    return spec


def answer_pieces(mode: Mode, body: dict[str, Any]) -> tuple[list[str], str]:
    """The reply split into deltas, cut by stop sequences / maxTokens, and the stop reason."""
    config = body.get("inferenceConfig") or {}
    text, reason = mode.reply, mode.stop_reason or "end_turn"
    for stop in config.get("stopSequences") or []:
        if stop and stop in text:
            text, reason = text[: text.index(stop)], "stop_sequence"
    pieces = words(text) if text else []
    limit = config.get("maxTokens")
    if isinstance(limit, int) and len(pieces) > limit:
        pieces, reason = pieces[:limit], "max_tokens"
    return pieces, reason


def _usage(pt: int, ct: int) -> dict[str, int]:
    return {"inputTokens": pt, "outputTokens": ct, "totalTokens": pt + ct}


def _converse(state: EmulatorState, mode: Mode, body: dict[str, Any]) -> dict[str, Any]:
    pt = prompt_tokens(body)
    tool = wants_tool_call(body)
    if tool is not None:
        content: list[dict[str, Any]] = [
            {
                "toolUse": {
                    "toolUseId": TOOL_USE_ID,
                    "name": tool["name"],
                    "input": {"city": "İstanbul"},
                }
            }
        ]
        reason, ct = "tool_use", TOOL_COMPLETION_TOKENS
    else:
        pieces, reason = answer_pieces(mode, body)
        content, ct = [{"text": "".join(pieces)}], len(pieces)
    state.served_prompt_tokens += pt
    state.served_completion_tokens += ct
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": reason,
        "usage": _usage(pt, ct),
        "metrics": {"latencyMs": 1},
    }


def _ev(event_type: str, obj: dict[str, Any]) -> bytes:
    return eventstream.event(event_type, orjson.dumps(obj))


async def _stream(
    state: EmulatorState, mode: Mode, body: dict[str, Any], knobs: StreamKnobs
) -> AsyncIterator[bytes]:
    pt = prompt_tokens(body)
    tool = wants_tool_call(body)
    yield _ev("messageStart", {"role": "assistant"})
    if tool is not None:
        yield _ev(
            "contentBlockStart",
            {
                "contentBlockIndex": 0,
                "start": {"toolUse": {"toolUseId": TOOL_USE_ID, "name": tool["name"]}},
            },
        )
        for part in TOOL_INPUT_PARTS:
            yield _ev(
                "contentBlockDelta", {"contentBlockIndex": 0, "delta": {"toolUse": {"input": part}}}
            )
        reason, ct = "tool_use", TOOL_COMPLETION_TOKENS
    else:
        pieces, reason = answer_pieces(mode, body)
        for i, piece in enumerate(pieces):
            if mode.kind == "cut" and i >= mode.cut_after:
                raise ConnectionResetError("emulated cut")  # uvicorn drops the connection
            if mode.kind == "malformed" and i == 1:
                yield eventstream.event(
                    "contentBlockDelta",
                    orjson.dumps({"contentBlockIndex": 0, "delta": {"text": piece}}),
                    corrupt_crc=True,
                )
                return
            if knobs.exception_after is not None and i == knobs.exception_after:
                yield eventstream.exception(
                    knobs.exception_type, b'{"message":"emulated stream error"}'
                )
                return
            yield _ev("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": piece}})
            if mode.inter_chunk_s:
                await asyncio.sleep(mode.inter_chunk_s)
        ct = len(pieces)
    yield _ev("contentBlockStop", {"contentBlockIndex": 0})
    yield _ev("messageStop", {"stopReason": reason})
    state.served_prompt_tokens += pt
    state.served_completion_tokens += ct
    yield _ev("metadata", {"usage": _usage(pt, ct), "metrics": {"latencyMs": 1}})


def model_id_is_one_segment(request: Request) -> bool:
    """AWS routes `/model/{modelId}/...` on the raw path: an inference-profile ARN must arrive
    percent-encoded (its '/' as %2F), or the path names no operation."""
    raw = bytes(request.scope.get("raw_path") or request.url.path.encode()).decode("latin-1")
    model_part = raw.split("?", 1)[0][len("/model/") :].rsplit("/", 1)[0]
    return "/" not in model_part


def embedding_for(text: str, dimensions: int) -> list[float]:
    """A deterministic vector derived from the text (same text, same vector)."""
    seed = hashlib.sha256(text.encode("utf-8")).digest()
    raw = (seed * (dimensions // len(seed) + 1))[:dimensions]
    return [(b - 127.5) / 127.5 for b in raw]


def validate_converse(operation: str, body: dict[str, Any], model_id: str) -> Response | None:
    """Bedrock's 400 for a Converse body its service model or its conversation rules refuse."""
    findings = shape_findings(operation, body, {"modelId": model_id})
    if findings:
        return aws_error(400, "ValidationException", validation_message(findings))
    rules = conversation_findings(body)
    if rules:
        return aws_error(400, "ValidationException", rules[0])
    return None


def build_app(state: EmulatorState, knobs: StreamKnobs | None = None) -> Starlette:
    stream_knobs = knobs or StreamKnobs()

    async def _body(
        request: Request, operation: str | None = None
    ) -> tuple[Mode, dict[str, Any] | Response]:
        """The request's mode and JSON body, or the error Bedrock would answer. `operation`
        names a Converse operation whose body is validated as Bedrock validates it."""
        entry = await log_request(state, request)
        if not model_id_is_one_segment(request):
            return state.mode, aws_error(404, "UnknownOperationException", "Unknown operation")
        mode = state.current_mode()
        failure = await failure_response(mode)
        if failure is not None:
            return mode, failure
        try:
            body = entry.json()
        except orjson.JSONDecodeError:
            return mode, aws_error(400, "ValidationException", "Malformed input request")
        if not isinstance(body, dict):
            return mode, aws_error(400, "ValidationException", "Malformed input request")
        if operation is not None:
            refusal = validate_converse(operation, body, request.path_params["model_id"])
            if refusal is not None:
                return mode, refusal
        return mode, body

    async def converse(request: Request) -> Response:
        mode, body = await _body(request, "Converse")
        if isinstance(body, Response):
            return body
        if mode.kind == "malformed":
            return Response(b'{"output": {"message": ', media_type="application/json")
        return Response(
            orjson.dumps(_converse(state, mode, body)),
            media_type="application/json",
            headers={"x-amzn-RequestId": "emu"},
        )

    async def converse_stream(request: Request) -> Response:
        mode, body = await _body(request, "ConverseStream")
        if isinstance(body, Response):
            return body
        return StreamingResponse(
            _stream(state, mode, body, stream_knobs),
            media_type="application/vnd.amazon.eventstream",
            headers={"x-amzn-RequestId": "emu"},
        )

    async def invoke(request: Request) -> Response:
        mode, body = await _body(request)
        if isinstance(body, Response):
            return body
        text = body.get("inputText")
        if "embed" not in request.path_params["model_id"] or not isinstance(text, str):
            return aws_error(400, "ValidationException", "Malformed input request")
        if mode.kind == "malformed":
            return Response(b'{"embedding": [0.1,', media_type="application/json")
        tokens = count_tokens(text)
        state.served_prompt_tokens += tokens
        dims = body.get("dimensions") if isinstance(body.get("dimensions"), int) else None
        return Response(
            orjson.dumps(
                {
                    "embedding": embedding_for(text, dims or EMBED_DIMENSIONS),
                    "inputTextTokenCount": tokens,
                }
            ),
            media_type="application/json",
        )

    routes = [
        Route("/model/{model_id:path}/converse", converse, methods=["POST"]),
        Route("/model/{model_id:path}/converse-stream", converse_stream, methods=["POST"]),
        Route("/model/{model_id:path}/invoke", invoke, methods=["POST"]),
        *control_routes(state),
    ]
    return Starlette(routes=routes)
