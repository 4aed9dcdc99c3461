"""The client APIs' translations onto ChatRequest (pure): every text of a Responses, Anthropic
Messages or legacy completions body lands in a chat place, and what cannot be honoured is a
400 that names it."""

from __future__ import annotations

import orjson
import pytest

from gateway.core.errors import InvalidRequest
from gateway.openai_api import anthropic_wire, completions, responses_wire
from gateway.openai_api.strict import parse_strict


def _responses(body: dict[str, object]):  # type: ignore[no-untyped-def]
    return responses_wire.to_chat(
        parse_strict(responses_wire.ResponsesRequest, orjson.dumps({"model": "m", **body}))
    )


def _messages(body: dict[str, object]):  # type: ignore[no-untyped-def]
    req = parse_strict(
        anthropic_wire.MessagesRequest, orjson.dumps({"model": "m", "max_tokens": 9, **body})
    )
    return anthropic_wire.to_chat(req)


def _completion(body: dict[str, object]):  # type: ignore[no-untyped-def]
    return completions.to_chat(
        parse_strict(completions.CompletionRequest, orjson.dumps({"model": "m", **body}))
    )


def _dump(chat) -> dict[str, object]:  # type: ignore[no-untyped-def]
    out: dict[str, object] = chat.model_dump(exclude_none=True)
    return out


# ---- Responses ---------------------------------------------------------------------------


def test_responses_items_become_chat_messages_in_order() -> None:
    chat = _responses(
        {
            "instructions": "Be brief.",
            "input": [
                {"role": "developer", "content": "Use metric units."},
                {
                    "role": "user",
                    "content": [
                        {"type": "input_text", "text": "Weather "},
                        {"type": "input_text", "text": "in Ankara?"},
                    ],
                },
                {
                    "type": "function_call",
                    "call_id": "c1",
                    "name": "w",
                    "arguments": '{"a":1}',
                    "id": "fc_1",
                    "status": "completed",
                },
                {"type": "function_call", "call_id": "c2", "name": "w", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c1", "output": "18C"},
                {
                    "type": "function_call_output",
                    "call_id": "c2",
                    "output": [{"type": "input_text", "text": "19C"}],
                },
                {
                    "type": "message",
                    "role": "assistant",
                    "id": "msg_1",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "It is 18C.", "annotations": []}],
                },
            ],
        }
    )
    msgs = _dump(chat)["messages"]
    assert msgs == [
        {"role": "system", "content": "Be brief."},
        {"role": "developer", "content": "Use metric units."},
        {"role": "user", "content": "Weather in Ankara?"},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "w", "arguments": '{"a":1}'}},
                {"id": "c2", "type": "function", "function": {"name": "w", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "18C"},
        {"role": "tool", "tool_call_id": "c2", "content": "19C"},
        {"role": "assistant", "content": "It is 18C."},
    ]


def test_responses_options_map_to_chat_fields() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string"}}}
    chat = _responses(
        {
            "input": "hi",
            "max_output_tokens": 7,
            "temperature": 0.5,
            "top_p": 0.9,
            "metadata": {"k": "v"},
            "user": "u1",
            "stream": True,
            "parallel_tool_calls": True,
            "include": [],
            "truncation": "disabled",
            "store": False,
            "tools": [
                {
                    "type": "function",
                    "name": "f",
                    "description": "d",
                    "parameters": schema,
                    "strict": True,
                }
            ],
            "tool_choice": {"type": "function", "name": "f"},
            "text": {
                "format": {"type": "json_schema", "name": "out", "schema": schema, "strict": True}
            },
        }
    )
    d = _dump(chat)
    assert (d["max_tokens"], d["temperature"], d["top_p"], d["user"]) == (7, 0.5, 0.9, "u1")
    assert d["metadata"] == {"k": "v"} and d["stream"] is True
    assert d["stream_options"] == {"include_usage": True}
    assert d["tools"] == [
        {"type": "function", "function": {"name": "f", "description": "d", "parameters": schema}}
    ]
    assert d["tool_choice"] == {"type": "function", "function": {"name": "f"}}
    assert d["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "out", "schema": schema, "strict": True},
    }


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"input": "x", "previous_response_id": "resp_1"}, "previous_response_id"),
        ({"input": "x", "reasoning": {"effort": "low"}}, "reasoning"),
        ({"input": "x", "tools": [{"type": "web_search"}]}, "tools.0.type"),
        (
            {"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "u"}]}]},
            "input.0.content.0.type",
        ),
        ({"input": [{"type": "item_reference", "id": "x"}]}, "input.0"),
        ({"input": []}, "input"),
        ({"input": "x", "text": {"format": {"type": "json_schema"}}}, "text.format"),
        ({"input": "x", "text": {"verbosity": "low"}}, "text.verbosity"),
        ({"input": "x", "include": ["reasoning.encrypted_content"]}, "include"),
        ({"input": "x", "truncation": "auto"}, "truncation"),
    ],
)
def test_responses_refusals_are_400(body: dict[str, object], param: str | None) -> None:
    with pytest.raises(InvalidRequest) as info:
        _responses(body)
    assert info.value.status == 400
    if param is not None:
        assert info.value.param == param


# ---- Anthropic Messages ------------------------------------------------------------------


def test_messages_blocks_become_chat_messages() -> None:
    chat = _messages(
        {
            "system": [{"type": "text", "text": "Sys", "cache_control": {"type": "ephemeral"}}],
            "stop_sequences": ["END"],
            "temperature": 0.3,
            "metadata": {"user_id": "u9"},
            "tools": [{"name": "w", "description": "weather", "input_schema": {"type": "object"}}],
            "tool_choice": {"type": "any"},
            "messages": [
                {"role": "user", "content": "Weather?"},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "Checking."},
                        {"type": "tool_use", "id": "t1", "name": "w", "input": {"city": "İzmir"}},
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t1",
                            "is_error": True,
                            "content": [{"type": "text", "text": "timeout"}],
                        },
                        {"type": "text", "text": "Try again"},
                    ],
                },
            ],
        }
    )
    d = _dump(chat)
    assert d["messages"] == [
        {"role": "system", "content": "Sys"},
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {
                    "id": "t1",
                    "type": "function",
                    "function": {"name": "w", "arguments": '{"city":"İzmir"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "t1", "content": "error: timeout"},
        {"role": "user", "content": "Try again"},
    ]
    assert (d["stop"], d["temperature"], d["user"], d["max_tokens"]) == (["END"], 0.3, "u9", 9)
    assert d["tool_choice"] == "required"
    assert d["tools"] == [
        {
            "type": "function",
            "function": {"name": "w", "description": "weather", "parameters": {"type": "object"}},
        }
    ]


def test_messages_structured_output_and_harmless_hints() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "integer"}}}
    d = _dump(
        _messages(
            {
                "messages": [{"role": "user", "content": "x"}],
                "output_config": {"format": {"type": "json_schema", "schema": schema}},
                "thinking": {"type": "disabled"},
                "cache_control": {"type": "ephemeral"},
            }
        )
    )
    assert d["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "output", "schema": schema},
    }


@pytest.mark.parametrize(
    "body",
    [
        {"messages": [{"role": "user", "content": "x"}], "thinking": {"type": "enabled"}},
        {"messages": [{"role": "user", "content": "x"}], "output_config": {"effort": "low"}},
        {"messages": [{"role": "user", "content": "x"}], "top_k": 5},
        {"messages": [{"role": "user", "content": [{"type": "image", "source": {}}]}]},
        {"messages": []},
    ],
)
def test_messages_refusals_are_400(body: dict[str, object]) -> None:
    with pytest.raises(InvalidRequest):
        _messages(body)


def test_messages_require_max_tokens() -> None:
    with pytest.raises(InvalidRequest) as info:
        parse_strict(
            anthropic_wire.MessagesRequest,
            b'{"model": "m", "messages": [{"role": "user", "content": "x"}]}',
        )
    assert info.value.param == "max_tokens"


# ---- legacy completions ------------------------------------------------------------------


def test_completion_prompt_becomes_one_user_message() -> None:
    d = _dump(_completion({"prompt": ["Say hi"], "max_tokens": 5, "stop": "\n", "seed": 3}))
    assert d["messages"] == [{"role": "user", "content": "Say hi"}]
    assert (d["max_tokens"], d["stop"], d["seed"]) == (5, "\n", 3)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"prompt": "x", "logprobs": 1}, "logprobs"),
        ({"prompt": "x", "echo": True}, "echo"),
        ({"prompt": "x", "suffix": "y"}, "suffix"),
        ({"prompt": ["a", "b"]}, "prompt"),
        ({"prompt": [1, 2]}, None),
        ({"prompt": "x", "n": 2}, "n"),
        ({"prompt": "x", "best_of": 2}, "best_of"),
        ({"prompt": "x", "logit_bias": {"1": 1}}, "logit_bias"),
    ],
)
def test_completion_refusals_are_400(body: dict[str, object], param: str | None) -> None:
    with pytest.raises(InvalidRequest) as info:
        _completion(body)
    if param is not None:
        assert info.value.param == param


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"model": "m", "input": [{"role": "user", "content": "x", "foo": 1}]},
            "unknown field 'input.0.foo': this endpoint does not support it",
        ),
        (
            {"model": "m", "input": [{"type": "function_call", "call_id": "c", "name": "n"}]},
            "missing required field 'input.0.arguments'",
        ),
        (
            {"model": "m", "input": [{"type": "item_reference", "id": "x"}]},
            "invalid value for 'input.0': type 'item_reference' is not supported here (supported: "
            "'message', 'function_call', 'function_call_output')",
        ),
    ],
)
def test_responses_errors_name_the_place_as_the_client_wrote_it(
    body: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidRequest) as info:
        parse_strict(responses_wire.ResponsesRequest, orjson.dumps(body))
    assert info.value.message == message


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (
            {"type": "text", "text": "x", "foo": 1},
            "unknown field 'messages.0.content.0.foo': this endpoint does not support it",
        ),
        ({"type": "text"}, "missing required field 'messages.0.content.0.text'"),
        (
            {"type": "image", "source": {}},
            "invalid value for 'messages.0.content.0': type 'image' is not supported here "
            "(supported: 'text', 'tool_use', 'tool_result')",
        ),
    ],
)
def test_messages_errors_name_the_place_as_the_client_wrote_it(
    block: dict[str, object], message: str
) -> None:
    body = {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [block]}]}
    with pytest.raises(InvalidRequest) as info:
        parse_strict(anthropic_wire.MessagesRequest, orjson.dumps(body))
    assert info.value.message == message


def test_a_value_only_pydantic_reads_still_gets_a_named_400() -> None:
    with pytest.raises(InvalidRequest) as info:
        parse_strict(
            completions.CompletionRequest, b'{"model": "m", "prompt": "x", "temperature": NaN}'
        )
    assert info.value.param == "temperature"


_BEYOND_64_BITS = b"123456789012345678901234567890"


def test_a_tool_use_input_beyond_64_bit_integers_is_a_400_not_a_500() -> None:
    # found by the schema fuzzer: the tool call's arguments are written again as JSON, and an
    # integer that parses may not be writable
    body = (
        b'{"model": "m", "max_tokens": 5, "messages": [{"role": "assistant", "content": '
        b'[{"type": "tool_use", "id": "t1", "name": "f", "input": {"n": '
        + _BEYOND_64_BITS
        + b"}}]}]}"
    )
    req = parse_strict(anthropic_wire.MessagesRequest, body)
    with pytest.raises(InvalidRequest) as err:
        anthropic_wire.to_chat(req)
    assert err.value.param == "messages"


def test_count_tokens_with_a_tool_schema_beyond_64_bits_is_a_400(tmp_path: object) -> None:
    from fastapi.testclient import TestClient

    from gateway.app import create_app
    from gateway.settings import Settings

    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path}/l.db",
            local_engine=False,
            probe_interval_s=0,
            policy_sync_s=0,
        )
    )
    body = (
        b'{"model": "smollm2", "messages": [{"role": "user", "content": "hi"}], "tools": '
        b'[{"name": "f", "input_schema": {"type": "object", "maximum": ' + _BEYOND_64_BITS + b"}}]}"
    )
    with TestClient(app) as client:
        r = client.post(
            "/v1/messages/count_tokens", content=body, headers={"content-type": "application/json"}
        )
    assert r.status_code == 400, r.text
    assert r.json()["type"] == "error"
