"""OpenAI request -> Vertex contents/config, checked on the JSON the SDK would put on the wire."""

from __future__ import annotations

from typing import Any

import pytest
from google.genai import types

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest
from gateway.providers.vertex.mapping import needs_thought_signature, to_vertex

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
    },
}


def req(**kw: Any) -> ChatRequest:
    return ChatRequest.model_validate({"model": "alias", **kw})


def contents(request: ChatRequest) -> list[dict[str, Any]]:
    return [c.model_dump(mode="json", exclude_none=True) for c in to_vertex(request).contents]


def test_system_and_developer_messages_become_one_system_instruction() -> None:
    call = to_vertex(
        req(
            messages=[
                {"role": "system", "content": "Kısa yanıt ver."},
                {"role": "developer", "content": "Türkçe konuş."},
                {"role": "user", "content": "Merhaba"},
            ]
        )
    )
    assert call.config.system_instruction == "Kısa yanıt ver.\n\nTürkçe konuş."
    assert [c.role for c in call.contents] == ["user"]


def test_multi_turn_history_maps_assistant_to_model_and_merges_same_role_turns() -> None:
    got = contents(
        req(
            messages=[
                {"role": "user", "content": "Bir"},
                {"role": "user", "content": [{"type": "text", "text": "İki"}]},
                {"role": "assistant", "content": "Üç"},
                {"role": "user", "content": "Dört"},
            ]
        )
    )
    assert got == [
        {"role": "user", "parts": [{"text": "Bir"}, {"text": "İki"}]},
        {"role": "model", "parts": [{"text": "Üç"}]},
        {"role": "user", "parts": [{"text": "Dört"}]},
    ]


def test_tool_calls_and_results_become_function_call_and_named_function_response() -> None:
    got = contents(
        req(
            tools=[TOOL],
            messages=[
                {"role": "user", "content": "İstanbul ve Ankara'da hava?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_a",
                            "type": "function",
                            "function": {
                                "name": "get_weather",
                                "arguments": '{"city": "İstanbul"}',
                            },
                        },
                        {
                            "id": "call_b",
                            "type": "function",
                            "function": {"name": "get_time", "arguments": ""},
                        },
                    ],
                },
                {"role": "tool", "tool_call_id": "call_b", "content": "14:05"},
                {"role": "tool", "tool_call_id": "call_a", "content": '{"temp_c": 14}'},
            ],
        )
    )
    assert got[1] == {
        "role": "model",
        "parts": [
            {"function_call": {"name": "get_weather", "args": {"city": "İstanbul"}}},
            {"function_call": {"name": "get_time", "args": {}}},
        ],
    }
    # both results in ONE user turn, each named after the call it answers (looked up by id);
    # a non-object result is wrapped, since functionResponse.response must be an object
    assert got[2] == {
        "role": "user",
        "parts": [
            {"function_response": {"name": "get_time", "response": {"content": "14:05"}}},
            {"function_response": {"name": "get_weather", "response": {"temp_c": 14}}},
        ],
    }


def test_tool_result_for_an_unknown_call_id_is_a_caller_error() -> None:
    with pytest.raises(ProviderError) as err:
        to_vertex(
            req(
                messages=[
                    {"role": "user", "content": "x"},
                    {"role": "tool", "tool_call_id": "nope", "content": "1"},
                ]
            )
        )
    assert err.value.kind == FailureKind.CALLER


def test_tools_become_function_declarations_with_the_json_schema() -> None:
    cfg = to_vertex(req(tools=[TOOL], messages=[{"role": "user", "content": "x"}])).config
    assert cfg.tools is not None
    (decl,) = cfg.tools[0].function_declarations or []
    assert decl.name == "get_weather"
    assert decl.description == "Weather for a city"
    assert decl.parameters_json_schema == TOOL["function"]["parameters"]
    assert cfg.tool_config is None  # no tool_choice: Vertex's default (AUTO)


@pytest.mark.parametrize(
    ("choice", "mode", "allowed"),
    [
        ("auto", "AUTO", None),
        ("required", "ANY", None),
        ("none", "NONE", None),
        ({"type": "function", "function": {"name": "get_weather"}}, "ANY", ["get_weather"]),
    ],
)
def test_tool_choice_maps_to_function_calling_config(
    choice: Any, mode: str, allowed: list[str] | None
) -> None:
    cfg = to_vertex(
        req(tools=[TOOL], tool_choice=choice, messages=[{"role": "user", "content": "x"}])
    ).config
    assert cfg.tool_config is not None
    fcc = cfg.tool_config.function_calling_config
    assert fcc is not None
    assert fcc.mode == types.FunctionCallingConfigMode(mode)
    assert fcc.allowed_function_names == allowed


def test_json_object_mode_sets_the_json_mime_type() -> None:
    cfg = to_vertex(
        req(response_format={"type": "json_object"}, messages=[{"role": "user", "content": "x"}])
    ).config
    assert cfg.response_mime_type == "application/json"
    assert cfg.response_json_schema is None


def test_json_schema_mode_passes_the_schema() -> None:
    schema = {"type": "object", "properties": {"ad": {"type": "string"}}, "required": ["ad"]}
    cfg = to_vertex(
        req(
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "kisi", "schema": schema},
            },
            messages=[{"role": "user", "content": "x"}],
        )
    ).config
    assert cfg.response_mime_type == "application/json"
    assert cfg.response_json_schema == schema


def test_sampling_limits_and_stops_map_to_generation_config() -> None:
    cfg = to_vertex(
        req(
            temperature=0.3,
            top_p=0.8,
            max_completion_tokens=64,
            max_tokens=10,
            stop="END",
            seed=7,
            presence_penalty=0.5,
            messages=[{"role": "user", "content": "x"}],
        )
    ).config
    assert (cfg.temperature, cfg.top_p, cfg.max_output_tokens) == (0.3, 0.8, 64)
    assert cfg.stop_sequences == ["END"]
    assert cfg.seed == 7
    assert cfg.presence_penalty == 0.5
    assert cfg.automatic_function_calling is not None
    assert cfg.automatic_function_calling.disable is True


def test_non_text_content_parts_are_refused_not_dropped() -> None:
    with pytest.raises(ProviderError) as err:
        to_vertex(
            req(
                messages=[
                    {
                        "role": "user",
                        "content": [
                            {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
                        ],
                    }
                ]
            )
        )
    assert err.value.kind == FailureKind.UNSUPPORTED


def test_a_request_with_only_a_system_message_is_a_caller_error() -> None:
    with pytest.raises(ProviderError) as err:
        to_vertex(req(messages=[{"role": "system", "content": "x"}]))
    assert err.value.kind == FailureKind.CALLER


@pytest.mark.parametrize(
    ("model", "needed"),
    [
        ("gemini-3-flash-preview", True),
        ("gemini-3.1-pro-preview", True),
        ("publishers/google/models/gemini-3-pro", True),
        ("gemini-2.5-flash", False),
        ("gemini-2.0-flash-001", False),
        ("text-embedding-005", False),
    ],
)
def test_thought_signature_sentinel_only_for_gemini_3_and_later(model: str, needed: bool) -> None:
    assert needs_thought_signature(model) is needed
