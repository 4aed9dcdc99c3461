"""Map OpenAI-shaped chat requests to Ollama's native `/api/chat` and its answers back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from gateway.core.clock import IdGenerator
from gateway.core.types import (
    ChatChunk,
    ChatRequest,
    ChatResult,
    FinishReason,
    ToolCallDelta,
    ToolCallOut,
    Usage,
)
from gateway.providers.sampling import SamplingNames, sampling_fields

_SAMPLING = SamplingNames(token_limit="num_predict")
_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "load": "stop",
    "unload": "stop",
}


@dataclass(frozen=True, slots=True)
class OllamaTimings:
    """Server-side timings of one answer, in nanoseconds as Ollama reports them."""

    total_ns: int
    load_ns: int
    prompt_eval_ns: int
    eval_ns: int
    prompt_eval_count: int
    eval_count: int

    @property
    def tokens_per_second(self) -> float | None:
        return self.eval_count / (self.eval_ns / 1e9) if self.eval_ns > 0 else None


def _role(role: str) -> str:
    return {"developer": "system", "function": "tool"}.get(role, role)


def to_messages(request: ChatRequest) -> list[dict[str, Any]]:
    """System, history, assistant tool calls (arguments as objects) and tool results (with
    the name of the tool they answer)."""
    names: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for m in request.messages:
        msg: dict[str, Any] = {"role": _role(m.role), "content": m.text()}
        if m.tool_calls:
            msg["tool_calls"] = [
                _call_out(tc.function.name, tc.function.arguments) for tc in m.tool_calls
            ]
            names.update({tc.id: tc.function.name for tc in m.tool_calls})
        if msg["role"] == "tool":
            tool_name = m.name or names.get(m.tool_call_id or "")
            if tool_name:
                msg["tool_name"] = tool_name
        out.append(msg)
    return out


def _call_out(name: str, arguments: str) -> dict[str, Any]:
    try:
        args = orjson.loads(arguments) if arguments else {}
    except orjson.JSONDecodeError:
        args = {}
    return {"function": {"name": name, "arguments": args if isinstance(args, dict) else {}}}


def to_tools(request: ChatRequest) -> list[dict[str, Any]] | None:
    if not request.tools or request.tool_choice == "none":
        return None
    return [t.model_dump(exclude_none=True) for t in request.tools]


def to_options(request: ChatRequest) -> dict[str, Any]:
    return sampling_fields(request, _SAMPLING)


def to_format(request: ChatRequest) -> str | dict[str, Any] | None:
    rf = request.response_format
    if rf is None or rf.type == "text":
        return None
    if rf.type == "json_schema" and rf.json_schema:
        schema = rf.json_schema.get("schema")
        if isinstance(schema, dict):
            return schema
    return "json"


def timings_of(part: Mapping[str, Any]) -> OllamaTimings | None:
    if part.get("total_duration") is None and part.get("eval_count") is None:
        return None
    return OllamaTimings(
        total_ns=int(part.get("total_duration") or 0),
        load_ns=int(part.get("load_duration") or 0),
        prompt_eval_ns=int(part.get("prompt_eval_duration") or 0),
        eval_ns=int(part.get("eval_duration") or 0),
        prompt_eval_count=int(part.get("prompt_eval_count") or 0),
        eval_count=int(part.get("eval_count") or 0),
    )


def usage_of(part: Mapping[str, Any]) -> Usage | None:
    if part.get("prompt_eval_count") is None and part.get("eval_count") is None:
        return None
    return Usage(
        prompt_tokens=int(part.get("prompt_eval_count") or 0),
        completion_tokens=int(part.get("eval_count") or 0),
    )


def _calls(message: Mapping[str, Any], ids: IdGenerator) -> tuple[ToolCallOut, ...]:
    out = []
    for call in message.get("tool_calls") or ():
        fn = call["function"]
        args = fn.get("arguments")
        text = args if isinstance(args, str) else orjson.dumps(args or {}).decode()
        out.append(ToolCallOut(id=ids.new_id("call_"), name=str(fn["name"]), arguments=text))
    return tuple(out)


def finish_of(part: Mapping[str, Any], has_calls: bool) -> FinishReason:
    if has_calls:
        return "tool_calls"
    return _FINISH.get(str(part.get("done_reason") or "stop"), "stop")


def parse_result(part: Mapping[str, Any], model: str, ids: IdGenerator) -> ChatResult:
    message = part["message"]
    calls = _calls(message, ids)
    return ChatResult(
        text=None if calls and not message.get("content") else str(message.get("content") or ""),
        finish_reason=finish_of(part, bool(calls)),
        usage=usage_of(part),
        model=str(part.get("model") or model),
        tool_calls=calls,
    )


def parse_chunk(
    part: Mapping[str, Any], ids: IdGenerator, calls_so_far: int
) -> tuple[ChatChunk, int]:
    """One NDJSON line -> a chunk; tool calls arrive whole in one line, each gets an index."""
    message = part.get("message") or {}
    calls = _calls(message, ids)
    deltas = tuple(
        ToolCallDelta(index=calls_so_far + i, id=c.id, name=c.name, arguments=c.arguments)
        for i, c in enumerate(calls)
    )
    total = calls_so_far + len(calls)
    finish = finish_of(part, total > 0) if part.get("done") else None
    return (
        ChatChunk(
            text=str(message.get("content") or ""),
            finish_reason=finish,
            usage=usage_of(part) if part.get("done") else None,
            tool_calls=deltas,
        ),
        total,
    )
