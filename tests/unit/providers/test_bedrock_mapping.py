"""OpenAI chat requests -> Converse parameters, and Converse answers / stream events -> results."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest, ToolCallDelta
from gateway.providers.bedrock.events import StreamMapper
from gateway.providers.bedrock.mapping import (
    STOP_REASONS,
    parse_converse,
    parse_usage,
    to_converse,
)

_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


def req(**kw: Any) -> ChatRequest:
    base: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "Selam"}]}
    base.update(kw)
    return ChatRequest.model_validate(base)


def test_system_and_developer_messages_become_system_blocks() -> None:
    out = to_converse(
        req(
            messages=[
                {"role": "system", "content": "Kısa yanıt ver."},
                {"role": "developer", "content": [{"type": "text", "text": "Türkçe konuş."}]},
                {"role": "user", "content": "Merhaba"},
            ]
        ),
        "model-x",
    )
    assert out["modelId"] == "model-x"
    assert out["system"] == [{"text": "Kısa yanıt ver."}, {"text": "Türkçe konuş."}]
    assert out["messages"] == [{"role": "user", "content": [{"text": "Merhaba"}]}]


def test_multi_turn_history_merges_consecutive_same_role_turns() -> None:
    out = to_converse(
        req(
            messages=[
                {"role": "user", "content": "Bir"},
                {"role": "user", "content": "İki"},
                {"role": "assistant", "content": "Tamam"},
                {
                    "role": "assistant",
                    "content": "",
                },  # empty turns are dropped, Bedrock refuses them
                {"role": "user", "content": "Üç"},
            ]
        ),
        "m",
    )
    assert out["messages"] == [
        {"role": "user", "content": [{"text": "Bir"}, {"text": "İki"}]},
        {"role": "assistant", "content": [{"text": "Tamam"}]},
        {"role": "user", "content": [{"text": "Üç"}]},
    ]
    assert "system" not in out and "toolConfig" not in out and "inferenceConfig" not in out


def test_tool_calls_and_results_map_to_tool_use_and_user_tool_result_blocks() -> None:
    out = to_converse(
        req(
            tools=[_TOOL],
            messages=[
                {"role": "user", "content": "Hava?"},
                {
                    "role": "assistant",
                    "content": "Bakıyorum.",
                    "tool_calls": [
                        {
                            "id": "t1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "İzmir"}'},
                        },
                        {
                            "id": "t2",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Van"}'},
                        },
                    ],
                },
                {"role": "tool", "tool_call_id": "t1", "content": '{"temp_c": 21}'},
                {"role": "tool", "tool_call_id": "t2", "content": '{"temp_c": 9}'},
                {"role": "user", "content": "Hangisi sıcak?"},
            ],
        ),
        "m",
    )
    assert out["messages"][1] == {
        "role": "assistant",
        "content": [
            {"text": "Bakıyorum."},
            {"toolUse": {"toolUseId": "t1", "name": "get_weather", "input": {"city": "İzmir"}}},
            {"toolUse": {"toolUseId": "t2", "name": "get_weather", "input": {"city": "Van"}}},
        ],
    }
    # both results and the next question share ONE user turn, results first
    assert out["messages"][2] == {
        "role": "user",
        "content": [
            {"toolResult": {"toolUseId": "t1", "content": [{"text": '{"temp_c": 21}'}]}},
            {"toolResult": {"toolUseId": "t2", "content": [{"text": '{"temp_c": 9}'}]}},
            {"text": "Hangisi sıcak?"},
        ],
    }
    assert len(out["messages"]) == 3
    assert out["toolConfig"]["tools"] == [
        {
            "toolSpec": {
                "name": "get_weather",
                "description": "Weather for a city",
                "inputSchema": {"json": _TOOL["function"]["parameters"]},
            }
        }
    ]


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        (None, {"auto": {}}),
        ("auto", {"auto": {}}),
        ("required", {"any": {}}),
        (
            {"type": "function", "function": {"name": "get_weather"}},
            {"tool": {"name": "get_weather"}},
        ),
    ],
)
def test_tool_choice(choice: Any, expected: dict[str, Any]) -> None:
    out = to_converse(req(tools=[_TOOL], tool_choice=choice), "m")
    assert out["toolConfig"]["toolChoice"] == expected


def test_tool_choice_none_leaves_tools_out_unless_history_needs_them() -> None:
    assert "toolConfig" not in to_converse(req(tools=[_TOOL], tool_choice="none"), "m")
    with_history = to_converse(
        req(
            tools=[_TOOL],
            tool_choice="none",
            messages=[
                {"role": "user", "content": "Hava?"},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "t1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": "{}"},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "t1", "content": "güneşli"},
            ],
        ),
        "m",
    )
    assert "toolChoice" not in with_history["toolConfig"]
    assert with_history["toolConfig"]["tools"][0]["toolSpec"]["name"] == "get_weather"


def test_history_with_tool_blocks_and_no_tools_declares_the_called_tools() -> None:
    out = to_converse(
        req(
            messages=[
                {"role": "user", "content": "Hava?"},
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "t1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": "{}"},
                        },
                        {
                            "id": "t2",
                            "type": "function",
                            "function": {"name": "get_time", "arguments": "{}"},
                        },
                        {
                            "id": "t3",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": "{}"},
                        },
                    ],
                },
                {"role": "tool", "tool_call_id": "t1", "content": "güneşli"},
                {"role": "tool", "tool_call_id": "t2", "content": "12:00"},
                {"role": "tool", "tool_call_id": "t3", "content": "yağmurlu"},
            ]
        ),
        "m",
    )
    empty = {"json": {"type": "object", "properties": {}}}
    assert out["toolConfig"] == {
        "tools": [
            {"toolSpec": {"name": "get_weather", "inputSchema": empty}},
            {"toolSpec": {"name": "get_time", "inputSchema": empty}},
        ]
    }


def test_conversation_starting_with_the_assistant_is_unsupported_not_sent() -> None:
    with pytest.raises(ProviderError) as err:
        to_converse(
            req(
                messages=[
                    {"role": "system", "content": "Kısa yanıt ver."},
                    {"role": "assistant", "content": "Merhaba, ben asistan."},
                    {"role": "user", "content": "Selam"},
                ]
            ),
            "m",
        )
    assert err.value.kind == FailureKind.UNSUPPORTED  # another backend may take it


def test_every_stop_reason_of_botocores_model_is_mapped_explicitly() -> None:
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    assert set(model.shape_for("StopReason").enum) == set(STOP_REASONS)


def test_inference_config_from_limits_sampling_and_stops() -> None:
    out = to_converse(
        req(max_completion_tokens=64, max_tokens=10, temperature=0.3, top_p=0.8, stop="###"), "m"
    )
    assert out["inferenceConfig"] == {
        "maxTokens": 64,
        "temperature": 0.3,
        "topP": 0.8,
        "stopSequences": ["###"],
    }


@pytest.mark.parametrize("arguments", ["{not json", "[1, 2]"])
def test_bad_tool_call_arguments_are_the_callers_fault(arguments: str) -> None:
    bad = req(
        messages=[
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "t1",
                        "type": "function",
                        "function": {"name": "f", "arguments": arguments},
                    }
                ],
            },
        ]
    )
    with pytest.raises(ProviderError) as err:
        to_converse(bad, "m")
    assert err.value.kind == FailureKind.CALLER
    assert arguments not in err.value.message


def test_image_parts_are_refused_not_dropped() -> None:
    with pytest.raises(ProviderError) as err:
        to_converse(
            req(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "Bu ne?"},
                            {
                                "type": "image_url",
                                "image_url": {"url": "data:image/png;base64,AAAA"},
                            },
                        ],
                    }
                ]
            ),
            "m",
        )
    assert err.value.kind == FailureKind.UNSUPPORTED


@pytest.mark.parametrize(
    ("reason", "finish"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("max_tokens", "length"),
        ("tool_use", "tool_calls"),
        ("guardrail_intervened", "content_filter"),
        ("content_filtered", "content_filter"),
        ("malformed_model_output", "error"),
        ("malformed_tool_use", "error"),
        ("model_context_window_exceeded", "length"),
    ],
)
def test_parse_converse_finish_reasons(reason: str, finish: str) -> None:
    result = parse_converse(
        {
            "output": {"message": {"role": "assistant", "content": [{"text": "Merhaba"}]}},
            "stopReason": reason,
        },
        "m",
    )
    assert result.finish_reason == finish
    assert result.text == "Merhaba"
    assert result.usage is None


def test_parse_converse_tool_use_gives_json_string_arguments() -> None:
    result = parse_converse(
        {
            "output": {
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "toolUse": {
                                "toolUseId": "tu1",
                                "name": "get_weather",
                                "input": {"city": "İstanbul", "days": 2},
                            }
                        }
                    ],
                }
            },
            "stopReason": "tool_use",
            "usage": {"inputTokens": 10, "outputTokens": 4, "totalTokens": 14},
        },
        "m",
    )
    assert result.text is None
    [call] = result.tool_calls
    assert (call.id, call.name) == ("tu1", "get_weather")
    assert orjson.loads(call.arguments) == {"city": "İstanbul", "days": 2}
    assert result.usage is not None and result.usage.total_tokens == 14


def test_usage_counts_cache_reads_as_cached_prompt_tokens() -> None:
    usage = parse_usage(
        {
            "inputTokens": 10,
            "outputTokens": 5,
            "cacheReadInputTokens": 90,
            "cacheWriteInputTokens": 0,
        }
    )
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.cached_tokens) == (100, 5, 90)


def test_malformed_answer_raises() -> None:
    with pytest.raises(KeyError):
        parse_converse({"message": "garbage"}, "m")


def test_stream_mapper_turns_events_into_chunks() -> None:
    mapper = StreamMapper()
    events: list[dict[str, Any]] = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "Bakıyorum"}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {
            "contentBlockStart": {
                "contentBlockIndex": 1,
                "start": {"toolUse": {"toolUseId": "tu1", "name": "get_weather"}},
            }
        },
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": '{"ci'}}}},
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": 'ty": 1}'}}}},
        {"messageStop": {"stopReason": "tool_use"}},
        {"metadata": {"usage": {"inputTokens": 3, "outputTokens": 2}, "metrics": {}}},
    ]
    chunks = [c for c in (mapper.feed(e) for e in events) if c is not None]
    assert [c.text for c in chunks if c.text] == ["Bakıyorum"]
    deltas = [d for c in chunks for d in c.tool_calls]
    assert deltas[0] == ToolCallDelta(index=0, id="tu1", name="get_weather", arguments="")
    assert "".join(d.arguments or "" for d in deltas) == '{"city": 1}'
    assert all(d.index == 0 for d in deltas)
    assert chunks[-2].finish_reason == "tool_calls"
    assert chunks[-1].usage is not None and chunks[-1].usage.prompt_tokens == 3
    assert mapper.stopped
