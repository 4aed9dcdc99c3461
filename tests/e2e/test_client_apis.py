"""The client APIs beside chat, end to end: the real `openai` and `anthropic` SDKs against a real
`gateway serve` process in front of the OpenAI emulator. OpenAI Responses (whole, streamed, a
function-call round trip, JSON schema output), Anthropic Messages (create, stream, a tool_use
round trip, configured only by ANTHROPIC_BASE_URL and a Geçit key) and legacy completions
(whole and streamed) all go through the chat path: the same boundary, the same ledger."""

from __future__ import annotations

import json
from collections.abc import Iterator

import anthropic
import httpx
import openai
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from tests.e2e.client_gateway import Gateway, running_gateway

REPLY = "Ankara Türkiye'nin başkentidir."
WEATHER_TOOL = {
    "name": "get_weather",
    "description": "Bir şehrin hava durumu",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
}


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    with running_gateway(tmp_path_factory.mktemp("clientapis")) as g:
        yield g


@pytest.fixture
def cloud(gw: Gateway) -> EmulatorServer:
    gw.cloud.state.reset()
    gw.cloud.state.mode = Mode(reply=REPLY)
    return gw.cloud


@pytest.fixture
def oai(gw: Gateway) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(
        base_url=gw.url + "/v1", api_key=gw.key, max_retries=0, timeout=30
    ) as client:
        yield client


@pytest.fixture
def claude(gw: Gateway) -> Iterator[anthropic.Anthropic]:
    with anthropic.Anthropic(base_url=gw.url, api_key=gw.key, max_retries=0, timeout=30) as client:
        yield client


def _sent(cloud: EmulatorServer, i: int = -1) -> dict[str, object]:
    body = cloud.state.requests[i].json()
    assert isinstance(body, dict)
    return body


# ---- OpenAI Responses ------------------------------------------------------------------------


def test_responses_create_text(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    r = oai.responses.create(
        model="chat",
        input="Türkiye'nin başkenti neresi?",
        instructions="Kısa cevap ver.",
        max_output_tokens=50,
    )
    assert r.output_text == REPLY and r.status == "completed" and r.model == "chat"
    assert r.usage is not None
    assert (r.usage.input_tokens, r.usage.output_tokens) == (
        cloud.state.served_prompt_tokens,
        cloud.state.served_completion_tokens,
    )
    sent = _sent(cloud)
    assert sent["messages"] == [
        {"role": "system", "content": "Kısa cevap ver."},
        {"role": "user", "content": "Türkiye'nin başkenti neresi?"},
    ]
    assert sent["max_tokens"] == 50
    # the next turn replays the answer as the SDK serialises it (strictly validated)
    follow = oai.responses.create(
        model="chat",
        input=[
            {"role": "user", "content": "Türkiye'nin başkenti neresi?"},
            *r.output,  # type: ignore[list-item]
            {"role": "user", "content": "Nüfusu?"},
        ],
    )
    assert follow.output_text == REPLY
    assert _sent(cloud)["messages"] == [
        {"role": "user", "content": "Türkiye'nin başkenti neresi?"},
        {"role": "assistant", "content": REPLY},
        {"role": "user", "content": "Nüfusu?"},
    ]


def test_responses_stream_events(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    events = list(oai.responses.create(model="chat", input="Başkent?", stream=True))
    kinds = [e.type for e in events]
    assert kinds[:3] == ["response.created", "response.in_progress", "response.output_item.added"]
    assert kinds[-4:] == [
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert [e.sequence_number for e in events] == list(range(len(events)))
    deltas = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert deltas == REPLY
    final = events[-1].response  # type: ignore[union-attr]
    assert final.output_text == REPLY and final.usage is not None
    assert final.usage.output_tokens == cloud.state.served_completion_tokens


def test_responses_function_call_round_trip(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    tool = {"type": "function", **WEATHER_TOOL}
    first = oai.responses.create(model="chat", input="İstanbul'da hava nasıl?", tools=[tool])  # type: ignore[list-item]
    calls = [o for o in first.output if o.type == "function_call"]
    assert len(calls) == 1 and calls[0].name == "get_weather"
    assert json.loads(calls[0].arguments) == {"city": "İstanbul"}
    assert _sent(cloud)["tools"] == [{"type": "function", "function": WEATHER_TOOL}]
    second = oai.responses.create(
        model="chat",
        tools=[tool],  # type: ignore[list-item]
        input=[
            {"role": "user", "content": "İstanbul'da hava nasıl?"},
            *first.output,  # type: ignore[list-item]
            {
                "type": "function_call_output",
                "call_id": calls[0].call_id,
                "output": '{"derece": 18}',
            },
        ],
    )
    assert second.output_text == REPLY
    msgs = _sent(cloud)["messages"]
    assert isinstance(msgs, list)
    assert msgs[1]["role"] == "assistant"
    assert msgs[1]["tool_calls"][0]["id"] == calls[0].call_id
    assert msgs[2] == {
        "role": "tool",
        "tool_call_id": calls[0].call_id,
        "content": '{"derece": 18}',
    }


def test_responses_streamed_function_call(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    events = list(
        oai.responses.create(
            model="chat", input="Hava?", stream=True, tools=[{"type": "function", **WEATHER_TOOL}]
        )
    )  # type: ignore[list-item]
    args = "".join(e.delta for e in events if e.type == "response.function_call_arguments.delta")
    assert json.loads(args) == {"city": "İstanbul"}
    final = events[-1].response  # type: ignore[union-attr]
    assert final.output[0].type == "function_call"
    assert final.output[0].arguments == args


def test_responses_json_schema_output(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    cloud.state.mode = Mode(reply='{"city":"Ankara","population":5800000}')
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
        "required": ["city", "population"],
        "additionalProperties": False,
    }
    r = oai.responses.create(
        model="chat",
        input="Başkent ve nüfusu?",
        text={
            "format": {"type": "json_schema", "name": "capital", "schema": schema, "strict": True}
        },
    )
    assert json.loads(r.output_text) == {"city": "Ankara", "population": 5800000}
    assert _sent(cloud)["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "capital", "schema": schema, "strict": True},
    }


def test_responses_refuses_previous_response_id_and_unknown_fields(
    gw: Gateway, cloud: EmulatorServer
) -> None:
    r = gw.post("/v1/responses", {"model": "chat", "input": "x", "previous_response_id": "resp_1"})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["param"] == "previous_response_id" and "stores no responses" in err["message"]
    r = gw.post("/v1/responses", {"model": "chat", "input": "x", "reasoning": {"effort": "low"}})
    assert r.status_code == 400 and r.json()["error"]["param"] == "reasoning"
    assert cloud.state.requests == []


# ---- Anthropic Messages ----------------------------------------------------------------------


def test_messages_create(claude: anthropic.Anthropic, cloud: EmulatorServer) -> None:
    m = claude.messages.create(
        model="chat",
        max_tokens=64,
        system="Kısa cevap ver.",
        stop_sequences=["###"],
        extra_body={"temperature": 0.2},
        messages=[{"role": "user", "content": "Başkent?"}],
    )
    assert [b.type for b in m.content] == ["text"]
    assert m.content[0].text == REPLY  # type: ignore[union-attr]
    assert m.stop_reason == "end_turn" and m.model == "chat"
    assert (m.usage.input_tokens, m.usage.output_tokens) == (
        cloud.state.served_prompt_tokens,
        cloud.state.served_completion_tokens,
    )
    sent = _sent(cloud)
    assert sent["messages"][0] == {"role": "system", "content": "Kısa cevap ver."}  # type: ignore[index]
    assert (sent["max_tokens"], sent["stop"], sent["temperature"]) == (64, ["###"], 0.2)


def test_messages_stream(claude: anthropic.Anthropic, cloud: EmulatorServer) -> None:
    with claude.messages.stream(
        model="chat", max_tokens=64, messages=[{"role": "user", "content": "Başkent?"}]
    ) as s:
        kinds = [e.type for e in s]
        final = s.get_final_message()
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    assert "content_block_start" in kinds and "message_delta" in kinds
    assert final.content[0].text == REPLY  # type: ignore[union-attr]
    assert final.usage.output_tokens == cloud.state.served_completion_tokens
    assert final.usage.input_tokens == cloud.state.served_prompt_tokens


@pytest.mark.parametrize("stream", [False, True])
def test_messages_tool_use_round_trip(
    claude: anthropic.Anthropic, cloud: EmulatorServer, stream: bool
) -> None:
    tools = [
        {
            "name": WEATHER_TOOL["name"],
            "description": WEATHER_TOOL["description"],
            "input_schema": WEATHER_TOOL["parameters"],
        }
    ]
    ask = [{"role": "user", "content": "İstanbul'da hava nasıl?"}]
    if stream:
        with claude.messages.stream(
            model="chat",
            max_tokens=64,
            tools=tools,  # type: ignore[arg-type]
            messages=ask,
        ) as s:  # type: ignore[arg-type]
            first = s.get_final_message()
    else:
        first = claude.messages.create(
            model="chat",
            max_tokens=64,
            tools=tools,  # type: ignore[arg-type]
            messages=ask,
        )  # type: ignore[arg-type]
    assert first.stop_reason == "tool_use"
    use = next(b for b in first.content if b.type == "tool_use")
    assert (use.name, use.input) == ("get_weather", {"city": "İstanbul"})  # type: ignore[union-attr]
    second = claude.messages.create(
        model="chat",
        max_tokens=64,
        tools=tools,  # type: ignore[arg-type]
        messages=[
            *ask,
            {"role": "assistant", "content": first.content},  # type: ignore[list-item]
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": use.id,  # type: ignore[union-attr]
                        "content": "18 derece, güneşli",
                    }
                ],
            },
        ],
    )
    assert second.content[0].text == REPLY  # type: ignore[union-attr]
    msgs = _sent(cloud)["messages"]
    assert isinstance(msgs, list)
    assert msgs[1]["tool_calls"][0]["function"] == {
        "name": "get_weather",
        "arguments": '{"city":"İstanbul"}',
    }
    assert msgs[2] == {
        "role": "tool",
        "tool_call_id": use.id,  # type: ignore[union-attr]
        "content": "18 derece, güneşli",
    }


def test_anthropic_sdk_configured_only_by_environment(
    gw: Gateway, cloud: EmulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", gw.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", gw.key)
    monkeypatch.delenv("ANTHROPIC_AUTH_TOKEN", raising=False)
    with anthropic.Anthropic(max_retries=0) as client:
        m = client.messages.create(
            model="chat", max_tokens=32, messages=[{"role": "user", "content": "Merhaba"}]
        )
    assert m.content[0].text == REPLY  # type: ignore[union-attr]
    assert len(cloud.state.requests) == 1


def test_messages_errors_have_anthropic_shape(gw: Gateway, cloud: EmulatorServer) -> None:
    body = {"model": "chat", "max_tokens": 8, "messages": [{"role": "user", "content": "x"}]}
    r = httpx.post(gw.url + "/v1/messages", json=body, timeout=30)
    assert r.status_code == 401
    assert r.json()["type"] == "error"
    assert r.json()["error"]["type"] == "authentication_error"
    unknown = "gk_0123456789abcdef_" + "0" * 40  # well-formed, never issued
    r = httpx.post(gw.url + "/v1/messages", json=body, headers={"x-api-key": unknown}, timeout=30)
    assert r.status_code == 401 and r.json()["error"]["type"] == "authentication_error"
    r = gw.post("/v1/messages", {**body, "top_k": 5})
    assert r.status_code == 400
    assert r.json() == {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "unknown field 'top_k': this endpoint does not support it",
        },
    }
    r = gw.post("/v1/messages", {**body, "model": "nope"})
    assert r.status_code == 404 and r.json()["error"]["type"] == "not_found_error"
    assert cloud.state.requests == []


def test_count_tokens(claude: anthropic.Anthropic, cloud: EmulatorServer) -> None:
    ask = [{"role": "user", "content": "bir iki üç"}]
    short = claude.messages.count_tokens(model="chat", messages=ask)  # type: ignore[arg-type]
    longer = claude.messages.count_tokens(model="chat", messages=ask, system="dört beş altı")  # type: ignore[arg-type]
    assert 0 < short.input_tokens < longer.input_tokens
    assert cloud.state.requests == []  # an estimate: nothing is sent anywhere


# ---- legacy completions ----------------------------------------------------------------------


def test_completions_create_and_stream(oai: openai.OpenAI, cloud: EmulatorServer) -> None:
    c = oai.completions.create(model="chat", prompt="Türkiye'nin başkenti", max_tokens=20)
    assert c.choices[0].text == REPLY and c.object == "text_completion"
    assert c.usage is not None
    assert c.usage.completion_tokens == cloud.state.served_completion_tokens
    assert _sent(cloud)["messages"] == [{"role": "user", "content": "Türkiye'nin başkenti"}]
    chunks = list(
        oai.completions.create(
            model="chat", prompt="Başkent", stream=True, stream_options={"include_usage": True}
        )
    )
    assert "".join(ch.choices[0].text for ch in chunks if ch.choices) == REPLY
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == len(
        REPLY.split(" ")
    )


def test_completions_refuse_logprobs(gw: Gateway, cloud: EmulatorServer) -> None:
    r = gw.post("/v1/completions", {"model": "chat", "prompt": "x", "logprobs": 2})
    assert r.status_code == 400 and r.json()["error"]["param"] == "logprobs"
    assert cloud.state.requests == []


# ---- a stream cut after its first chunk --------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "tail"),
    [
        (
            "/v1/responses",
            {"input": "Başkent?"},
            'event: error\ndata: {"type":"error","sequence_number":',
        ),
        (
            "/v1/messages",
            {"max_tokens": 30, "messages": [{"role": "user", "content": "Başkent?"}]},
            'event: error\ndata: {"type":"error","error":{"type":"api_error","message":',
        ),
        ("/v1/completions", {"prompt": "Başkent"}, 'data: {"error":{"message":'),
    ],
)
def test_a_cut_stream_ends_with_an_error_event_in_the_api_shape(
    gw: Gateway, cloud: EmulatorServer, path: str, body: dict[str, object], tail: str
) -> None:
    cloud.state.mode = Mode(kind="cut", cut_after=2, reply=REPLY)
    with httpx.stream(
        "POST",
        gw.url + path,
        json={"model": "chat", "stream": True, **body},
        headers={"authorization": f"Bearer {gw.key}"},
        timeout=30,
    ) as r:
        text = r.read().decode()
    assert r.status_code == 200
    assert "Ankara" in text  # what was served before the cut reached the client
    last = text.strip().split("\n\n")[-1]
    assert last.startswith(tail) and "interrupted" in last, last
    assert "[DONE]" not in text and "message_stop" not in text
    assert "response.completed" not in text
