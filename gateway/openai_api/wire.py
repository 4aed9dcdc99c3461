"""Serialise results and chunks to the OpenAI wire format (orjson, no pydantic on the way out)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import orjson

from gateway.core.types import ChatChunk, ChatResult, Usage


def usage_json(u: Usage, cost_usd: Decimal | None = None) -> dict[str, Any]:
    """`cost_usd`: the request's cost as the ledger keeps it, on a stream's usage chunk (a
    decimal string, exact; absent when the cost is unknown)."""
    out: dict[str, Any] = {
        "prompt_tokens": u.prompt_tokens,
        "completion_tokens": u.completion_tokens,
        "total_tokens": u.total_tokens,
    }
    if u.cached_tokens:
        out["prompt_tokens_details"] = {"cached_tokens": u.cached_tokens}
    return with_cost(out, cost_usd)


def with_cost(usage: dict[str, Any], cost_usd: Decimal | None) -> dict[str, Any]:
    """A stream's final usage with the request's cost as the ledger keeps it (a decimal
    string, exact), when it is known."""
    return usage if cost_usd is None else {**usage, "gecit_cost_usd": str(cost_usd)}


def completion_json(
    rid: str, created: int, alias: str, results: Sequence[ChatResult], usage: Usage
) -> bytes:
    """The whole answer: one choice per result, indexed in order."""
    body = {
        "id": rid,
        "object": "chat.completion",
        "created": created,
        "model": alias,
        "choices": [
            {"index": i, "message": _message(r), "finish_reason": r.finish_reason, "logprobs": None}
            for i, r in enumerate(results)
        ],
        "usage": usage_json(usage),
    }
    return orjson.dumps(body)


def _message(result: ChatResult) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": result.text}
    if result.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in result.tool_calls
        ]
    return message


class ChunkEncoder:
    """Encodes one stream's chunks as SSE `data:` events."""

    __slots__ = ("_prefix", "_sent_role", "_suffix")  # _sent_role: the choices that had it

    def __init__(self, rid: str, created: int, alias: str) -> None:
        head = orjson.dumps(
            {"id": rid, "object": "chat.completion.chunk", "created": created, "model": alias}
        )
        self._prefix = b"data: " + head[:-1] + b',"choices":'
        self._suffix = b"}\n\n"
        self._sent_role: set[int] = set()

    def chunk(self, c: ChatChunk) -> bytes:
        delta: dict[str, Any] = {}
        if c.choice not in self._sent_role:
            delta["role"] = "assistant"
            self._sent_role.add(c.choice)
        if c.text:
            delta["content"] = c.text
        if c.tool_calls:
            delta["tool_calls"] = [_tool_delta(t) for t in c.tool_calls]
        if not delta and c.finish_reason is None:
            return b""
        choice = [
            {"index": c.choice, "delta": delta, "finish_reason": c.finish_reason, "logprobs": None}
        ]
        return self._prefix + orjson.dumps(choice) + self._suffix

    def usage(self, u: Usage, cost_usd: Decimal | None = None) -> bytes:
        body = orjson.dumps(usage_json(u, cost_usd))
        return self._prefix + b'[],"usage":' + body + self._suffix

    @staticmethod
    def error(message: str, code: str) -> bytes:
        body = {"error": {"message": message, "type": "api_error", "param": None, "code": code}}
        return b"data: " + orjson.dumps(body) + b"\n\n"

    DONE = b"data: [DONE]\n\n"


def _tool_delta(t: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"index": t.index}
    if t.id:
        out["id"] = t.id
        out["type"] = "function"
    fn: dict[str, Any] = {}
    if t.name:
        fn["name"] = t.name
    if t.arguments is not None:
        fn["arguments"] = t.arguments
    if fn:
        out["function"] = fn
    return out
