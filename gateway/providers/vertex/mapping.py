"""OpenAI chat request -> Vertex `generateContent` contents + GenerateContentConfig.

Roles: system/developer -> system_instruction; user -> "user"; assistant -> "model" (its tool
calls become functionCall parts); tool results -> functionResponse parts in a "user" turn,
named by the function of the earlier call they answer. Consecutive turns of the same role are
merged, as Gemini expects alternating turns.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from typing import Any

from google.genai import types

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatMessage, ChatRequest

_TOOL_MODES = {
    "auto": types.FunctionCallingConfigMode.AUTO,
    "required": types.FunctionCallingConfigMode.ANY,
    "none": types.FunctionCallingConfigMode.NONE,
}

_GEMINI_MAJOR = re.compile(r"^gemini-(\d+)")
# bytes whose url-safe base64 form (the SDK's encoding) is the sentinel string itself
SKIP_THOUGHT_SIGNATURE = base64.urlsafe_b64decode("skip_thought_signature_validator")


@dataclass(frozen=True, slots=True)
class VertexCall:
    """What one `generate_content` call needs, SDK-typed."""

    contents: list[types.Content]
    config: types.GenerateContentConfig


def to_vertex(
    request: ChatRequest, http_options: types.HttpOptions | None = None, *, model: str = ""
) -> VertexCall:
    system: list[str] = []
    contents: list[types.Content] = []
    call_names = _call_names(request.messages)
    for message in request.messages:
        if message.role in ("system", "developer"):
            text = message.text()
            if text:
                system.append(text)
            continue
        role, parts = _turn(message, call_names)
        if role == "model" and needs_thought_signature(model):
            _sign_replayed_calls(parts)
        if not parts:
            continue
        if contents and contents[-1].role == role:
            contents[-1].parts = [*(contents[-1].parts or []), *parts]
        else:
            contents.append(types.Content(role=role, parts=parts))
    if not contents:
        raise ProviderError(FailureKind.CALLER, "the request has no user or assistant content")
    return VertexCall(contents=contents, config=_config(request, system, http_options))


def needs_thought_signature(model: str) -> bool:
    """Gemini 3 and later refuse replayed functionCall parts without a thoughtSignature."""
    match = _GEMINI_MAJOR.search(model.rsplit("/", 1)[-1])
    return match is not None and int(match.group(1)) >= 3


def _sign_replayed_calls(parts: list[types.Part]) -> None:
    """The OpenAI wire format cannot carry Gemini's thought signatures back, so a replayed
    model turn gets Google's documented validator-skip sentinel on its first function call
    (only the first call of a parallel set is signed)."""
    calls = [p for p in parts if p.function_call is not None]
    if calls and not any(p.thought_signature for p in calls):
        calls[0].thought_signature = SKIP_THOUGHT_SIGNATURE


def _call_names(messages: list[ChatMessage]) -> dict[str, str]:
    """tool_call_id -> function name, from the assistant turns of this conversation."""
    return {tc.id: tc.function.name for m in messages for tc in (m.tool_calls or ())}


def _turn(message: ChatMessage, call_names: dict[str, str]) -> tuple[str, list[types.Part]]:
    if message.role == "assistant":
        parts = _text_parts(message)
        for tc in message.tool_calls or ():
            parts.append(
                types.Part(
                    function_call=types.FunctionCall(
                        name=tc.function.name, args=_args(tc.function.arguments)
                    )
                )
            )
        return "model", parts
    if message.role in ("tool", "function"):
        name = call_names.get(message.tool_call_id or "") or message.name
        if not name:
            raise ProviderError(
                FailureKind.CALLER,
                "a tool result refers to a tool call id that is not in the conversation",
            )
        return "user", [
            types.Part(
                function_response=types.FunctionResponse(
                    name=name, response=_result(message.text())
                )
            )
        ]
    return "user", _text_parts(message)


def _text_parts(message: ChatMessage) -> list[types.Part]:
    if message.content is None:
        return []
    if isinstance(message.content, str):
        return [types.Part(text=message.content)] if message.content else []
    parts: list[types.Part] = []
    for p in message.content:
        if p.type != "text":
            raise ProviderError(
                FailureKind.UNSUPPORTED,
                f"content parts of type '{p.type}' are not supported for Vertex",
            )
        if p.text:
            parts.append(types.Part(text=p.text))
    return parts


def _args(arguments: str) -> dict[str, Any]:
    if not arguments.strip():
        return {}
    try:
        value = json.loads(arguments)
    except ValueError:
        raise ProviderError(
            FailureKind.CALLER, "tool call arguments in the conversation are not valid JSON"
        ) from None
    return value if isinstance(value, dict) else {"value": value}


def _result(text: str) -> dict[str, Any]:
    """functionResponse.response must be an object: JSON objects pass through, anything else
    is wrapped as {"content": ...}."""
    try:
        value = json.loads(text)
    except ValueError:
        return {"content": text}
    return value if isinstance(value, dict) else {"content": value}


def _config(
    request: ChatRequest, system: list[str], http_options: types.HttpOptions | None
) -> types.GenerateContentConfig:
    cfg = types.GenerateContentConfig(
        system_instruction="\n\n".join(system) if system else None,
        temperature=request.temperature,
        top_p=request.top_p,
        max_output_tokens=request.token_limit,
        stop_sequences=request.stop_list or None,
        seed=request.seed,
        http_options=http_options,
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    if request.presence_penalty is not None:
        cfg.presence_penalty = request.presence_penalty
    if request.frequency_penalty is not None:
        cfg.frequency_penalty = request.frequency_penalty
    if request.tools:
        cfg.tools = [
            types.Tool(
                function_declarations=[
                    types.FunctionDeclaration(
                        name=t.function.name,
                        description=t.function.description,
                        parameters_json_schema=t.function.parameters,
                    )
                    for t in request.tools
                ]
            )
        ]
        cfg.tool_config = _tool_config(request.tool_choice)
    _response_format(request, cfg)
    return cfg


def _tool_config(choice: str | dict[str, Any] | None) -> types.ToolConfig | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        mode = _TOOL_MODES.get(choice)
        if mode is None:
            raise ProviderError(FailureKind.CALLER, f"unknown tool_choice '{choice}'")
        return types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode=mode))
    name = (choice.get("function") or {}).get("name")
    if not isinstance(name, str) or not name:
        raise ProviderError(FailureKind.CALLER, "tool_choice must name a function")
    return types.ToolConfig(
        function_calling_config=types.FunctionCallingConfig(
            mode=types.FunctionCallingConfigMode.ANY, allowed_function_names=[name]
        )
    )


def _response_format(request: ChatRequest, cfg: types.GenerateContentConfig) -> None:
    rf = request.response_format
    if rf is None or rf.type == "text":
        return
    cfg.response_mime_type = "application/json"
    if rf.type == "json_schema":
        schema = (rf.json_schema or {}).get("schema")
        if isinstance(schema, dict):
            cfg.response_json_schema = schema
