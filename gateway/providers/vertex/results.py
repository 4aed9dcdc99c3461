"""Vertex `GenerateContentResponse` -> ChatResult / ChatChunk (the answer side of the mapping).

functionCall parts become tool calls with JSON-string arguments and an id (Vertex's own when it
sends one, else a generated `call_...`); finish reasons and usage are mapped to the OpenAI
vocabulary. Thinking parts (`thought=True`) are never returned as answer text.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from google.genai import types

from gateway.core.types import (
    ChatChunk,
    ChatResult,
    FinishReason,
    ToolCallDelta,
    ToolCallOut,
    Usage,
)

_FINISH: dict[str, FinishReason] = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
    "BLOCKLIST": "content_filter",
    "PROHIBITED_CONTENT": "content_filter",
    "SPII": "content_filter",
    "IMAGE_SAFETY": "content_filter",
    "IMAGE_PROHIBITED_CONTENT": "content_filter",
    "MODEL_ARMOR": "content_filter",
    "MALFORMED_FUNCTION_CALL": "error",
    "UNEXPECTED_TOOL_CALL": "error",
    "TOO_MANY_TOOL_CALLS": "error",
    "MALFORMED_RESPONSE": "error",
}

NewId = Callable[[], str]


def finish_of(response: types.GenerateContentResponse, has_calls: bool) -> FinishReason | None:
    """The OpenAI finish reason, or None while a stream is still going."""
    candidate = _candidate(response)
    if candidate is None:
        feedback = response.prompt_feedback
        return "content_filter" if feedback is not None and feedback.block_reason else None
    reason = candidate.finish_reason
    if reason is None:
        return None
    value = reason.value if isinstance(reason, types.FinishReason) else str(reason)
    if has_calls and value == "STOP":
        return "tool_calls"
    return _FINISH.get(value, "stop")


def usage_of(response: types.GenerateContentResponse) -> Usage | None:
    """Prompt, completion (answer + thinking tokens, both billed as output) and cached tokens."""
    meta = response.usage_metadata
    if meta is None or (meta.prompt_token_count is None and meta.candidates_token_count is None):
        return None
    return Usage(
        prompt_tokens=meta.prompt_token_count or 0,
        completion_tokens=(meta.candidates_token_count or 0) + (meta.thoughts_token_count or 0),
        cached_tokens=meta.cached_content_token_count or 0,
    )


def text_of(response: types.GenerateContentResponse) -> str:
    return "".join(p.text for p in _parts(response) if p.text and not p.thought)


def calls_of(response: types.GenerateContentResponse, new_id: NewId) -> list[tuple[str, str, str]]:
    """(id, name, JSON arguments) for every functionCall part."""
    out: list[tuple[str, str, str]] = []
    for part in _parts(response):
        fc = part.function_call
        if fc is None or not fc.name:
            continue
        args = json.dumps(fc.args or {}, ensure_ascii=False)
        out.append((fc.id or new_id(), fc.name, args))
    return out


def to_result(response: types.GenerateContentResponse, model: str, new_id: NewId) -> ChatResult:
    """Raises ValueError for an answer with neither a candidate nor a block reason."""
    if _candidate(response) is None and finish_of(response, False) is None:
        raise ValueError("no candidate in the answer")
    calls = tuple(ToolCallOut(id=i, name=n, arguments=a) for i, n, a in calls_of(response, new_id))
    text = text_of(response)
    finish = finish_of(response, bool(calls))
    if finish is None:  # a whole answer with no reason given: treat like Vertex's STOP
        finish = "tool_calls" if calls else "stop"
    return ChatResult(
        text=text if text or not calls else None,
        finish_reason=finish,
        usage=usage_of(response),
        model=response.model_version or model,
        tool_calls=calls,
    )


class ChunkMapper:
    """Maps the responses of one stream in order; tool-call indexes keep counting across
    chunks. Usage is attached to the chunk that finishes the stream (Vertex repeats a running
    usageMetadata on many chunks; consumers must not see partial counts); a usage-only frame
    after the finish is passed on when it changes the count."""

    def __init__(self, new_id: NewId) -> None:
        self._new_id = new_id
        self._calls = 0
        self._usage: Usage | None = None
        self.finished = False

    def map(self, response: types.GenerateContentResponse) -> ChatChunk | None:
        deltas = []
        for call_id, name, args in calls_of(response, self._new_id):
            deltas.append(ToolCallDelta(index=self._calls, id=call_id, name=name, arguments=args))
            self._calls += 1
        finish = finish_of(response, self._calls > 0)
        usage = None
        if finish is not None or self.finished:
            self.finished = True
            usage = usage_of(response)
            if usage is not None and usage == self._usage:
                usage = None
            self._usage = usage or self._usage
        text = text_of(response)
        if not text and not deltas and finish is None and usage is None:
            return None
        return ChatChunk(text=text, finish_reason=finish, usage=usage, tool_calls=tuple(deltas))


def _candidate(response: types.GenerateContentResponse) -> types.Candidate | None:
    return response.candidates[0] if response.candidates else None


def _parts(response: types.GenerateContentResponse) -> list[types.Part]:
    candidate = _candidate(response)
    if candidate is None or candidate.content is None:
        return []
    return list(candidate.content.parts or [])
