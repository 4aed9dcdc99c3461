"""Map ChatRequests to `litellm.acompletion` keyword arguments and its OpenAI-shaped answers
(plain dicts, after `model_dump()`) back to ChatResult / ChatChunk."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.types import (
    ChatChunk,
    ChatRequest,
    ChatResult,
    FinishReason,
    ToolCallDelta,
    ToolCallOut,
    Usage,
)

_DROP = {"model", "metadata", "user", "stream", "stream_options", "max_completion_tokens",
         "max_tokens"}
_FINISH: dict[str, FinishReason] = {
    "stop": "stop", "length": "length", "tool_calls": "tool_calls",
    "function_call": "tool_calls", "content_filter": "content_filter",
}


def to_kwargs(request: ChatRequest, model: str, stream: bool) -> dict[str, Any]:
    kwargs: dict[str, Any] = request.model_dump(exclude_none=True, exclude=_DROP)
    kwargs["model"] = model
    if request.token_limit is not None:
        kwargs["max_tokens"] = request.token_limit
    if stream:
        kwargs["stream"] = True
        kwargs["stream_options"] = {"include_usage": True}
    return kwargs


def finish_of(value: Any) -> FinishReason:
    return _FINISH.get(str(value), "stop") if value else "stop"


def usage_of(u: Mapping[str, Any] | None) -> Usage | None:
    if not u:
        return None
    details = u.get("prompt_tokens_details") or {}
    return Usage(prompt_tokens=int(u.get("prompt_tokens") or 0),
                 completion_tokens=int(u.get("completion_tokens") or 0),
                 cached_tokens=int(details.get("cached_tokens") or 0))


def parse_result(data: Mapping[str, Any], model: str) -> ChatResult:
    choice = data["choices"][0]
    msg = choice.get("message") or {}
    calls = tuple(
        ToolCallOut(id=c.get("id") or f"call_{i}", name=c["function"]["name"],
                    arguments=c["function"].get("arguments") or "")
        for i, c in enumerate(msg.get("tool_calls") or [])
    )
    return ChatResult(text=msg.get("content"), finish_reason=finish_of(choice.get("finish_reason")),
                      usage=usage_of(data.get("usage")), model=data.get("model") or model,
                      tool_calls=calls)


def parse_chunk(data: Mapping[str, Any]) -> ChatChunk | None:
    usage = usage_of(data.get("usage"))
    choices = data.get("choices") or []
    if not choices:
        return ChatChunk(usage=usage) if usage else None
    ch = choices[0]
    delta = ch.get("delta") or {}
    calls = tuple(
        ToolCallDelta(index=int(c.get("index", i) or 0), id=c.get("id"),
                      name=(c.get("function") or {}).get("name"),
                      arguments=(c.get("function") or {}).get("arguments"))
        for i, c in enumerate(delta.get("tool_calls") or [])
    )
    fr = ch.get("finish_reason")
    chunk = ChatChunk(text=delta.get("content") or "",
                      finish_reason=finish_of(fr) if fr else None, usage=usage, tool_calls=calls)
    if not (chunk.text or chunk.finish_reason or chunk.usage or chunk.tool_calls):
        return None
    return chunk
