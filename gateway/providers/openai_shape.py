"""The OpenAI chat-completions shape, shared by the adapters that speak it (openai_compat over
HTTP, litellm over its OpenAI-shaped dicts): the request body from a ChatRequest and the
non-streamed answer back to a ChatResult. Stream frames stay with each adapter (their error and
empty-frame handling differ)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from gateway.core.textplaces import PLAIN_FIELDS, TEXT_FIELDS
from gateway.core.types import ChatRequest, ChatResult, FinishReason, ToolCallOut, Usage

# ChatRequest fields that are not sent as they are: set per call below, or gateway-only
_DROP = frozenset(
    {"model", "metadata", "user", "stream", "stream_options", "max_completion_tokens", "max_tokens"}
)
# the body is built from this allow-list only: fields of the closed request schema whose text,
# if any, the classifier read (gateway.core.textplaces), never whatever a client sent
FORWARDED: Mapping[str, bool] = MappingProxyType(
    {f: True for f in TEXT_FIELDS + PLAIN_FIELDS if f not in _DROP}
)
_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "content_filter": "content_filter",
}


def request_body(request: ChatRequest, model: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = request.model_dump(exclude_none=True, include=FORWARDED)
    body["model"] = model
    if request.token_limit is not None:
        body["max_tokens"] = request.token_limit
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return body


def finish_of(value: Any) -> FinishReason:
    return _FINISH.get(str(value), "stop") if value else "stop"


def usage_of(u: Mapping[str, Any] | None) -> Usage | None:
    if not u:
        return None
    details = u.get("prompt_tokens_details") or {}
    return Usage(
        prompt_tokens=int(u.get("prompt_tokens") or 0),
        completion_tokens=int(u.get("completion_tokens") or 0),
        cached_tokens=int(details.get("cached_tokens") or 0),
    )


def parse_result(data: Mapping[str, Any], model: str) -> ChatResult:
    choice = data["choices"][0]
    msg = choice.get("message") or {}
    calls = tuple(
        ToolCallOut(
            id=c.get("id") or f"call_{i}",
            name=c["function"]["name"],
            arguments=c["function"].get("arguments") or "",
        )
        for i, c in enumerate(msg.get("tool_calls") or [])
    )
    return ChatResult(
        text=msg.get("content"),
        finish_reason=finish_of(choice.get("finish_reason")),
        usage=usage_of(data.get("usage")),
        model=data.get("model") or model,
        tool_calls=calls,
    )
