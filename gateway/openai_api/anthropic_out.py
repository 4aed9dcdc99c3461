"""A chat answer in the Anthropic Messages shape: the message object, its stream of events
(`message_start`, `ping`, `content_block_start` / `_delta` / `_stop`, `message_delta`,
`message_stop`) and errors as `{"type": "error", "error": {"type", "message"}}`."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import orjson

from gateway.core.errors import GatewayError
from gateway.core.types import ChatChunk, ChatResult, FinishReason, ToolCallDelta, Usage
from gateway.openai_api.wire import with_cost

_STOP: dict[str, str] = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "content_filter": "refusal",
    "error": "end_turn",
}
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
}


def error_body(exc: GatewayError) -> bytes:
    kind = _ERROR_TYPES.get(exc.status, "api_error")
    return orjson.dumps({"type": "error", "error": {"type": kind, "message": exc.message}})


def usage_json(u: Usage) -> dict[str, Any]:
    return {
        "input_tokens": u.prompt_tokens,
        "output_tokens": u.completion_tokens,
        "cache_read_input_tokens": u.cached_tokens,
        "cache_creation_input_tokens": 0,
    }


def tool_input(arguments: str) -> dict[str, Any]:
    """A tool call's JSON arguments as the object Anthropic clients expect; arguments that are
    not a JSON object are kept whole rather than lost."""
    try:
        value = orjson.loads(arguments) if arguments.strip() else {}
    except orjson.JSONDecodeError:
        return {"arguments": arguments}
    return value if isinstance(value, dict) else {"arguments": value}


def _stop(finish: FinishReason | None) -> str:
    return _STOP.get(finish or "stop", "end_turn")


def message_json(message_id: str, alias: str, result: ChatResult, usage: Usage) -> bytes:
    content: list[dict[str, Any]] = []
    if result.text or not result.tool_calls:
        content.append({"type": "text", "text": result.text or ""})
    content += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": tool_input(c.arguments)}
        for c in result.tool_calls
    ]
    return orjson.dumps(
        {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": alias,
            "content": content,
            "stop_reason": _stop(result.finish_reason),
            "stop_sequence": None,
            "usage": usage_json(usage),
        }
    )


class _Call:
    __slots__ = ("args", "id", "name")

    def __init__(self, call_id: str, name: str) -> None:
        self.id = call_id
        self.name = name
        self.args: list[str] = []


class MessageEvents:
    """Encodes one stream. Text streams as it comes; tool calls are gathered and sent as whole
    `tool_use` blocks at the end (a block must be finished before the next starts, and chat
    backends may interleave the arguments of parallel calls)."""

    def __init__(self, message_id: str, alias: str) -> None:
        self._id = message_id
        self._alias = alias
        self._block = 0
        self._text_open = False
        self._calls: dict[int, _Call] = {}
        self._finish: FinishReason | None = None

    @staticmethod
    def _event(kind: str, **fields: Any) -> bytes:
        return (
            b"event: "
            + kind.encode()
            + b"\ndata: "
            + orjson.dumps({"type": kind, **fields})
            + b"\n\n"
        )

    def start(self) -> bytes:
        message: dict[str, Any] = {
            "id": self._id,
            "type": "message",
            "role": "assistant",
            "model": self._alias,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            # the backend reports usage at the end; `message_delta` carries both counts
            "usage": {"input_tokens": 0, "output_tokens": 0},
        }
        return self._event("message_start", message=message) + self._event("ping")

    def chunk(self, c: ChatChunk) -> bytes:
        if c.finish_reason is not None:
            self._finish = c.finish_reason
        for t in c.tool_calls:
            self._gather(t)
        if not c.text:
            return b""
        out = b""
        if not self._text_open:
            self._text_open = True
            out = self._event(
                "content_block_start", index=self._block, content_block={"type": "text", "text": ""}
            )
        return out + self._event(
            "content_block_delta", index=self._block, delta={"type": "text_delta", "text": c.text}
        )

    def _gather(self, t: ToolCallDelta) -> None:
        call = self._calls.get(t.index)
        if call is None:
            call = self._calls[t.index] = _Call(t.id or f"call_{t.index}", t.name or "")
        elif t.name and not call.name:
            call.name = t.name
        if t.arguments:
            call.args.append(t.arguments)

    def finish(self, usage: Usage, cost_usd: Decimal | None = None) -> bytes:
        out = b""
        if self._text_open:
            out += self._event("content_block_stop", index=self._block)
            self._block += 1
        for index in sorted(self._calls):
            call = self._calls[index]
            block = {"type": "tool_use", "id": call.id, "name": call.name, "input": {}}
            partial = orjson.dumps(tool_input("".join(call.args))).decode()
            out += self._event("content_block_start", index=self._block, content_block=block)
            out += self._event(
                "content_block_delta",
                index=self._block,
                delta={"type": "input_json_delta", "partial_json": partial},
            )
            out += self._event("content_block_stop", index=self._block)
            self._block += 1
        out += self._event(
            "message_delta",
            delta={"stop_reason": _stop(self._finish), "stop_sequence": None},
            usage=with_cost(usage_json(usage), cost_usd),
        )
        return out + self._event("message_stop")

    def error(self, message: str) -> bytes:
        return self._event("error", error={"type": "api_error", "message": message})
