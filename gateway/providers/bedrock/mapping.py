"""OpenAI chat request -> Bedrock Converse parameters, and Converse answers -> our results.

Bedrock's rules this module keeps: system prompts travel apart from the conversation (`system`
blocks), the conversation starts with a user turn, roles alternate strictly (consecutive
same-role turns are merged), tool calls are `toolUse` blocks of the assistant and tool results
are `toolResult` blocks of the *user*, and a history holding either needs a `toolConfig`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import (
    ChatMessage,
    ChatRequest,
    ChatResult,
    FinishReason,
    ToolCallOut,
    Usage,
)
from gateway.providers.sampling import SamplingNames, sampling_fields

# every value of the StopReason enum in botocore's model of bedrock-runtime (a unit test holds
# this table to it): the model's broken output or broken tool call is an "error" finish, as
# Vertex's MALFORMED_FUNCTION_CALL is, never a normal stop
STOP_REASONS: Mapping[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
    "guardrail_intervened": "content_filter",
    "content_filtered": "content_filter",
    "malformed_model_output": "error",
    "malformed_tool_use": "error",
}
_EMPTY_SCHEMA: Mapping[str, Any] = {"type": "object", "properties": {}}
# Converse's inferenceConfig takes no seed
_SAMPLING = SamplingNames(token_limit="maxTokens", top_p="topP", stop="stopSequences", seed=None)


def finish_reason(stop_reason: str | None) -> FinishReason:
    return STOP_REASONS.get(stop_reason or "", "stop")


def _caller(message: str) -> ProviderError:
    return ProviderError(FailureKind.CALLER, message)


def _text_blocks(message: ChatMessage) -> list[dict[str, Any]]:
    if isinstance(message.content, list):
        unsupported = {p.type for p in message.content if p.type != "text"}
        if unsupported:
            raise ProviderError(
                FailureKind.UNSUPPORTED,
                f"content parts of type {sorted(unsupported)} are not supported "
                "by the Bedrock adapter",
            )
    text = message.text()
    return [{"text": text}] if text else []


def _tool_use_blocks(message: ChatMessage) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for call in message.tool_calls or ():
        try:
            args = orjson.loads(call.function.arguments or "{}")
        except orjson.JSONDecodeError:
            raise _caller(f"arguments of tool call '{call.id}' are not valid JSON") from None
        if not isinstance(args, dict):
            raise _caller(f"arguments of tool call '{call.id}' must be a JSON object")
        blocks.append(
            {"toolUse": {"toolUseId": call.id, "name": call.function.name, "input": args}}
        )
    return blocks


def _tool_result_block(message: ChatMessage) -> dict[str, Any]:
    tool_use_id = message.tool_call_id or message.name
    if not tool_use_id:
        raise _caller("a tool message needs a tool_call_id")
    return {
        "toolResult": {"toolUseId": tool_use_id, "content": [{"text": message.text() or "(empty)"}]}
    }


def map_messages(messages: list[ChatMessage]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split system prompts off and turn the history into strictly alternating turns."""
    system: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    for m in messages:
        if m.role in ("system", "developer"):
            system.extend(_text_blocks(m))
            continue
        if m.role in ("tool", "function"):
            role, blocks = "user", [_tool_result_block(m)]
        elif m.role == "assistant":
            role, blocks = "assistant", _text_blocks(m) + _tool_use_blocks(m)
        else:
            role, blocks = "user", _text_blocks(m)
        if not blocks:
            continue  # Bedrock refuses empty turns
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    return system, turns


def inference_config(request: ChatRequest) -> dict[str, Any]:
    return sampling_fields(request, _SAMPLING)


def _tool_choice(choice: str | dict[str, Any] | None) -> dict[str, Any]:
    if choice is None or choice == "auto":
        return {"auto": {}}
    if choice == "required":
        return {"any": {}}
    if isinstance(choice, dict):
        name = (choice.get("function") or {}).get("name")
        if isinstance(name, str) and name:
            return {"tool": {"name": name}}
    raise _caller("tool_choice must be 'auto', 'required', 'none' or name a function")


def _history_tool_names(turns: list[dict[str, Any]]) -> list[str]:
    """The names of the tools the history's toolUse blocks called, first call first."""
    names = [b["toolUse"]["name"] for t in turns for b in t["content"] if "toolUse" in b]
    return list(dict.fromkeys(names))


def _has_tool_blocks(turns: list[dict[str, Any]]) -> bool:
    return any("toolUse" in b or "toolResult" in b for t in turns for b in t["content"])


def tool_config(request: ChatRequest, turns: list[dict[str, Any]]) -> dict[str, Any] | None:
    """`toolConfig`, or None. Bedrock refuses a history with toolUse/toolResult blocks and no
    `toolConfig`: without tools in the request, the tools the history called are declared
    (schema-free) so the history can be sent. Converse has no 'none' choice: with
    `tool_choice='none'` the tools are left out, unless the history needs them."""
    has_tool_history = _has_tool_blocks(turns)
    if not request.tools:
        names = _history_tool_names(turns) if has_tool_history else []
        if not names:
            return None
        return {
            "tools": [
                {"toolSpec": {"name": name, "inputSchema": {"json": dict(_EMPTY_SCHEMA)}}}
                for name in names
            ]
        }
    if request.tool_choice == "none" and not has_tool_history:
        return None
    tools = [
        {
            "toolSpec": {
                "name": t.function.name,
                **({"description": t.function.description} if t.function.description else {}),
                "inputSchema": {"json": t.function.parameters or dict(_EMPTY_SCHEMA)},
            }
        }
        for t in request.tools
    ]
    config: dict[str, Any] = {"tools": tools}
    if request.tool_choice != "none":
        config["toolChoice"] = _tool_choice(request.tool_choice)
    return config


def to_converse(request: ChatRequest, model_id: str) -> dict[str, Any]:
    """Keyword arguments for `client.converse(...)` / `client.converse_stream(...)`."""
    system, messages = map_messages(request.messages)
    if not messages:
        raise _caller("the request has no user or assistant message")
    if messages[0]["role"] != "user":
        # Bedrock refuses it; another backend may take the conversation as it is
        raise ProviderError(
            FailureKind.UNSUPPORTED,
            "a Bedrock conversation must start with a "
            "user turn, and this one starts with the assistant",
        )
    kwargs: dict[str, Any] = {"modelId": model_id, "messages": messages}
    if system:
        kwargs["system"] = system
    config = inference_config(request)
    if config:
        kwargs["inferenceConfig"] = config
    tools = tool_config(request, messages)
    if tools is not None:
        kwargs["toolConfig"] = tools
    return kwargs


def json_text(value: Any) -> str:
    return orjson.dumps(value).decode("utf-8")


def parse_usage(u: Mapping[str, Any] | None) -> Usage | None:
    """Bedrock counts cache reads/writes apart from `inputTokens`; OpenAI's `prompt_tokens`
    includes them, so they are added back and the cache reads reported as cached."""
    if not u:
        return None
    cached = int(u.get("cacheReadInputTokens") or 0)
    written = int(u.get("cacheWriteInputTokens") or 0)
    return Usage(
        prompt_tokens=int(u.get("inputTokens") or 0) + cached + written,
        completion_tokens=int(u.get("outputTokens") or 0),
        cached_tokens=cached,
    )


def parse_converse(data: Mapping[str, Any], model: str) -> ChatResult:
    """A Converse answer -> ChatResult. Raises KeyError/TypeError on a malformed answer."""
    content = data["output"]["message"]["content"]
    if not isinstance(content, list):
        raise TypeError("content is not a list")
    texts = [str(b["text"]) for b in content if "text" in b]
    calls = tuple(
        ToolCallOut(
            id=str(b["toolUse"]["toolUseId"]),
            name=str(b["toolUse"]["name"]),
            arguments=json_text(b["toolUse"].get("input") or {}),
        )
        for b in content
        if "toolUse" in b
    )
    return ChatResult(
        text="".join(texts) if texts else None,
        finish_reason=finish_reason(data["stopReason"]),
        usage=parse_usage(data.get("usage")),
        model=model,
        tool_calls=calls,
    )
