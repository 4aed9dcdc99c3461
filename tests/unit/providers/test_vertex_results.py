"""Vertex GenerateContentResponse -> ChatResult / ChatChunk (finish reasons, usage, tool calls).

Responses are built from Vertex's REST JSON with the SDK's own parser, as on the wire.
"""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest
from google.genai import types

from gateway.providers.vertex.results import ChunkMapper, to_result


def resp(
    parts: list[dict[str, Any]] | None,
    finish: str | None = None,
    usage: dict[str, int] | None = None,
    **extra: Any,
) -> types.GenerateContentResponse:
    body: dict[str, Any] = dict(extra)
    if parts is not None:
        cand: dict[str, Any] = {"content": {"role": "model", "parts": parts}}
        if finish:
            cand["finish_reason"] = finish
        body["candidates"] = [cand]
    if usage:
        body["usage_metadata"] = usage
    return types.GenerateContentResponse.model_validate(body)


def ids() -> Any:
    n = count(1)
    return lambda: f"call_gen{next(n)}"


@pytest.mark.parametrize(
    ("vertex", "openai"),
    [
        ("STOP", "stop"),
        ("MAX_TOKENS", "length"),
        ("SAFETY", "content_filter"),
        ("RECITATION", "content_filter"),
        ("BLOCKLIST", "content_filter"),
        ("PROHIBITED_CONTENT", "content_filter"),
        ("SPII", "content_filter"),
        ("MALFORMED_FUNCTION_CALL", "error"),
        ("OTHER", "stop"),
    ],
)
def test_finish_reasons(vertex: str, openai: str) -> None:
    assert to_result(resp([{"text": "a"}], vertex), "m", ids()).finish_reason == openai


def test_function_call_parts_become_tool_calls_with_json_args_and_generated_ids() -> None:
    result = to_result(
        resp(
            [
                {"function_call": {"name": "get_weather", "args": {"city": "İstanbul"}}},
                {"function_call": {"name": "get_time", "args": {}}},
            ],
            "STOP",
        ),
        "m",
        ids(),
    )
    assert result.finish_reason == "tool_calls"
    assert result.text is None
    assert [(c.id, c.name, c.arguments) for c in result.tool_calls] == [
        ("call_gen1", "get_weather", '{"city": "İstanbul"}'),
        ("call_gen2", "get_time", "{}"),
    ]


def test_vertex_supplied_call_id_is_kept() -> None:
    result = to_result(
        resp([{"function_call": {"id": "fc-7", "name": "f", "args": {"a": 1}}}], "STOP"), "m", ids()
    )
    assert result.tool_calls[0].id == "fc-7"


def test_usage_counts_thinking_as_output_and_reports_cached_tokens() -> None:
    result = to_result(
        resp(
            [{"text": "x"}],
            "STOP",
            {
                "prompt_token_count": 120,
                "candidates_token_count": 30,
                "thoughts_token_count": 12,
                "cached_content_token_count": 100,
            },
        ),
        "m",
        ids(),
    )
    assert result.usage is not None
    assert (
        result.usage.prompt_tokens,
        result.usage.completion_tokens,
        result.usage.cached_tokens,
    ) == (120, 42, 100)


def test_thought_parts_are_not_answer_text_and_model_version_is_reported() -> None:
    result = to_result(
        resp(
            [{"text": "düşünüyorum", "thought": True}, {"text": "Yanıt"}],
            "STOP",
            model_version="gemini-2.5-flash-001",
        ),
        "m",
        ids(),
    )
    assert result.text == "Yanıt"
    assert result.model == "gemini-2.5-flash-001"


def test_a_blocked_prompt_is_a_content_filter_finish() -> None:
    blocked = types.GenerateContentResponse.model_validate(
        {"prompt_feedback": {"block_reason": "PROHIBITED_CONTENT"}}
    )
    result = to_result(blocked, "m", ids())
    assert result.finish_reason == "content_filter"
    assert result.text == ""


def test_stream_mapper_numbers_tool_calls_and_reports_usage_once_at_the_end() -> None:
    mapper = ChunkMapper(ids())
    first = mapper.map(resp([{"text": "Mer"}], usage={"prompt_token_count": 5}))
    call = mapper.map(resp([{"function_call": {"name": "f", "args": {"x": 1}}}]))
    last = mapper.map(
        resp(
            [{"function_call": {"name": "g", "args": {}}}],
            "STOP",
            {"prompt_token_count": 5, "candidates_token_count": 9},
        )
    )
    assert first is not None and first.text == "Mer" and first.usage is None
    assert call is not None and call.tool_calls[0].index == 0
    assert call.tool_calls[0].arguments == '{"x": 1}' and call.finish_reason is None
    assert last is not None and last.tool_calls[0].index == 1
    assert last.finish_reason == "tool_calls"
    assert last.usage is not None and last.usage.completion_tokens == 9
    assert mapper.finished


def test_stream_mapper_skips_empty_frames() -> None:
    mapper = ChunkMapper(ids())
    assert mapper.map(resp([])) is None
    assert not mapper.finished


def test_stream_mapper_passes_on_a_usage_only_frame_after_the_finish() -> None:
    mapper = ChunkMapper(ids())
    done = mapper.map(
        resp([{"text": "son"}], "STOP", {"prompt_token_count": 4, "candidates_token_count": 2})
    )
    same = mapper.map(resp(None, usage={"prompt_token_count": 4, "candidates_token_count": 2}))
    later = mapper.map(resp(None, usage={"prompt_token_count": 4, "candidates_token_count": 3}))
    assert done is not None and done.usage is not None and done.usage.completion_tokens == 2
    assert same is None  # a repeat of the count already reported
    assert later is not None and later.usage is not None and later.usage.completion_tokens == 3
    assert later.finish_reason is None and later.text == ""


def test_an_answer_without_candidates_or_block_reason_is_unreadable() -> None:
    with pytest.raises(ValueError):
        to_result(resp(None, usage={"prompt_token_count": 3}), "m", ids())
