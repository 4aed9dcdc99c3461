"""Map ChatRequests to `litellm.acompletion` keyword arguments and its OpenAI-shaped answers
(plain dicts, after `model_dump()`) back to ChatResult / ChatChunk (the OpenAI shape itself is
in `gateway.providers.openai_shape`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.types import ChatChunk, ChatRequest, ToolCallDelta
from gateway.providers.openai_shape import finish_of, parse_result, request_body, usage_of

__all__ = ["parse_chunk", "parse_result", "to_kwargs"]


def to_kwargs(request: ChatRequest, model: str, stream: bool) -> dict[str, Any]:
    return request_body(request, model, stream)


def parse_chunk(data: Mapping[str, Any]) -> ChatChunk | None:
    usage = usage_of(data.get("usage"))
    choices = data.get("choices") or []
    if not choices:
        return ChatChunk(usage=usage) if usage else None
    ch = choices[0]
    delta = ch.get("delta") or {}
    calls = tuple(
        ToolCallDelta(
            index=int(c.get("index", i) or 0),
            id=c.get("id"),
            name=(c.get("function") or {}).get("name"),
            arguments=(c.get("function") or {}).get("arguments"),
        )
        for i, c in enumerate(delta.get("tool_calls") or [])
    )
    fr = ch.get("finish_reason")
    chunk = ChatChunk(
        text=delta.get("content") or "",
        finish_reason=finish_of(fr) if fr else None,
        usage=usage,
        tool_calls=calls,
    )
    if not (chunk.text or chunk.finish_reason or chunk.usage or chunk.tool_calls):
        return None
    return chunk
