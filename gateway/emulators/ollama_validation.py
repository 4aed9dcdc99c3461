"""Request validation for the Ollama emulator: an `/api/chat` body against the fields Ollama's
API reference documents (docs/api.md, "Generate a chat completion") with their types, and
`options` against the model parameters the `ollama` client's own `Options` type lists.

Ollama's server decodes JSON leniently and skips names it does not know; the emulator refuses
them, so a contract test proves the adapter sends only documented fields. Findings name the
field, never its value, in Ollama's error shape (`{"error": "..."}`, status 400).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

ROLES = ("system", "user", "assistant", "tool")

Check = Callable[[Any], bool]


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_object(v: Any) -> bool:
    return isinstance(v, dict)


def _is_list(v: Any) -> bool:
    return isinstance(v, list)


CHAT_FIELDS: Mapping[str, Check] = {
    "model": _is_str,
    "messages": _is_list,
    "tools": _is_list,
    "think": lambda v: _is_bool(v) or v in ("high", "medium", "low"),
    "format": lambda v: v in ("", "json") or _is_object(v),
    "options": _is_object,
    "stream": _is_bool,
    "keep_alive": lambda v: _is_number(v) or _is_str(v),
    "logprobs": _is_bool,
    "top_logprobs": _is_int,
}
MESSAGE_FIELDS: Mapping[str, Check] = {
    "role": lambda v: v in ROLES,
    "content": _is_str,
    "thinking": _is_str,
    "images": lambda v: _is_list(v) and all(_is_str(i) for i in v),
    "tool_calls": _is_list,
    "tool_name": _is_str,
}
TOOL_CALL_FUNCTION_FIELDS: Mapping[str, Check] = {
    "name": _is_str,
    "arguments": _is_object,
    "index": _is_int,
}
TOOL_FIELDS: Mapping[str, Check] = {"type": lambda v: v == "function", "function": _is_object}
FUNCTION_FIELDS: Mapping[str, Check] = {
    "name": _is_str,
    "description": _is_str,
    "parameters": _is_object,
}


@cache
def option_names() -> frozenset[str]:
    """The model parameters `options` may carry: the `ollama` client's `Options` fields."""
    from ollama._types import Options

    return frozenset(Options.model_fields)


def _fields(obj: Any, spec: Mapping[str, Check], where: str) -> list[str]:
    if not isinstance(obj, dict):
        return [f"{where}: must be an object"]
    out = [f'{where}: unknown field "{k}"' for k in obj if k not in spec]
    out += [
        f"{where}.{k}: invalid value"
        for k, check in spec.items()
        if obj.get(k) is not None and not check(obj[k])
    ]
    return out


def _message_findings(i: int, message: Any) -> list[str]:
    where = f"messages[{i}]"
    out = _fields(message, MESSAGE_FIELDS, where)
    if out:
        return out
    if "role" not in message:
        return [f"{where}.role: required"]
    for j, call in enumerate(message.get("tool_calls") or []):
        out += _fields(call, {"function": _is_object}, f"{where}.tool_calls[{j}]")
        if not out:
            out += _fields(
                call["function"], TOOL_CALL_FUNCTION_FIELDS, f"{where}.tool_calls[{j}].function"
            )
    return out


def chat_findings(body: Mapping[str, Any]) -> list[str]:
    """What Ollama's documented `/api/chat` fields say is wrong with a body."""
    out = _fields(dict(body), CHAT_FIELDS, "request")
    if out:
        return out
    if not body.get("model"):
        return ["model is required"]
    for i, message in enumerate(body.get("messages") or []):
        out += _message_findings(i, message)
    for i, tool in enumerate(body.get("tools") or []):
        found = _fields(tool, TOOL_FIELDS, f"tools[{i}]")
        out += found or _fields(tool.get("function") or {}, FUNCTION_FIELDS, f"tools[{i}].function")
    unknown = sorted(set(body.get("options") or {}) - option_names())
    out += [f'options: unknown model parameter "{name}"' for name in unknown]
    return out
