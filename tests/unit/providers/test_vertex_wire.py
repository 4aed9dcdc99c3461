"""The adapter through the real google-genai SDK against the Vertex emulator: what goes on the
wire beyond the contract suite (tool turns, JSON mode, one attempt only, deadlines, probe)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from google.oauth2.credentials import Credentials

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer, Mode, free_port
from gateway.emulators.vertex import build_app
from gateway.providers.base import CallOptions
from gateway.providers.vertex import VertexProvider

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=9.5)
TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
async def provider(server: EmulatorServer) -> AsyncIterator[VertexProvider]:
    server.state.reset()
    p = VertexProvider(
        "vx",
        project="p1",
        location="europe-west4",
        model="gemini-2.5-flash",
        credentials=Credentials(token="tok-1"),
        base_url=server.url,
    )
    yield p
    await p.aclose()


def req(**kw: Any) -> ChatRequest:
    return ChatRequest.model_validate({"model": "alias", **kw})


def sent(server: EmulatorServer, i: int = -1) -> dict[str, Any]:
    body: dict[str, Any] = server.state.requests[i].json()
    return body


async def test_tool_turns_on_the_wire(server: EmulatorServer, provider: VertexProvider) -> None:
    first = await provider.complete(
        req(tools=[TOOL], tool_choice="required", messages=[{"role": "user", "content": "Hava?"}]),
        FAST,
    )
    call = first.tool_calls[0]
    assert call.id.startswith("call_") and len(call.id) > len("call_")
    body = sent(server)
    decl = body["tools"][0]["functionDeclarations"][0]
    assert decl["name"] == "get_weather"
    # google-genai 3.6 sends this field under its proto name; Google's JSON parser accepts
    # both the proto name and the lowerCamelCase one
    schema = decl.get("parametersJsonSchema", decl.get("parameters_json_schema"))
    assert schema == TOOL["function"]["parameters"]
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "ANY"}}

    await provider.complete(
        req(
            tools=[TOOL],
            messages=[
                {"role": "user", "content": "Hava?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": call.id, "content": '{"temp_c": 14}'},
            ],
        ),
        FAST,
    )
    assert sent(server)["contents"] == [
        {"role": "user", "parts": [{"text": "Hava?"}]},
        {
            "role": "model",
            "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "İstanbul"}}}],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp_c": 14}}}],
        },
    ]


async def test_json_schema_mode_on_the_wire(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    schema = {"type": "object", "properties": {"ad": {"type": "string"}}}
    await provider.complete(
        req(
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "kisi", "schema": schema},
            },
            messages=[{"role": "user", "content": "x"}],
        ),
        FAST,
    )
    gen = sent(server)["generationConfig"]
    assert gen["responseMimeType"] == "application/json"
    assert gen["responseJsonSchema"] == schema


async def test_streamed_tool_call(server: EmulatorServer, provider: VertexProvider) -> None:
    chunks = [
        c
        async for c in provider.stream(
            req(stream=True, tools=[TOOL], messages=[{"role": "user", "content": "Hava?"}]), FAST
        )
    ]
    deltas = [d for c in chunks for d in c.tool_calls]
    assert [(d.index, d.name, d.arguments) for d in deltas] == [
        (0, "get_weather", '{"city": "İstanbul"}')
    ]
    assert chunks[-1].finish_reason == "tool_calls"
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens == server.state.served_completion_tokens


@pytest.mark.parametrize(
    "mode", [Mode(kind="status", status=503), Mode(kind="throttle", retry_after=0)]
)
async def test_the_sdk_makes_exactly_one_attempt(
    server: EmulatorServer, provider: VertexProvider, mode: Mode
) -> None:
    server.state.mode = mode
    with pytest.raises(ProviderError) as err:
        await provider.complete(req(messages=[{"role": "user", "content": "x"}]), FAST)
    assert err.value.kind in (FailureKind.TRANSIENT, FailureKind.RATE_LIMIT)
    assert len(server.state.requests) == 1, "retries belong to the dispatcher, not the SDK"


async def test_total_deadline_is_sent_to_google_as_server_timeout(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    await provider.complete(req(messages=[{"role": "user", "content": "x"}]), FAST)
    assert server.state.requests[-1].headers["x-server-timeout"] == "10"


async def test_stream_hang_before_first_chunk_times_out(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    server.state.mode = Mode(kind="hang", hang_s=20)
    options = CallOptions(connect_timeout=0.5, first_byte_timeout=0.5, total_timeout=5.0)
    with pytest.raises(ProviderError) as err:
        async for _ in provider.stream(
            req(stream=True, messages=[{"role": "user", "content": "x"}]), options
        ):
            pass
    assert err.value.kind == FailureKind.TIMEOUT


async def test_stall_between_chunks_is_interrupted(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    server.state.mode = Mode(inter_chunk_s=2.0)
    options = CallOptions(connect_timeout=0.5, first_byte_timeout=0.5, total_timeout=5.0)
    got = []
    with pytest.raises(ProviderError) as err:
        async for c in provider.stream(
            req(stream=True, messages=[{"role": "user", "content": "x"}]), options
        ):
            got.append(c)
    assert got and err.value.kind == FailureKind.INTERRUPTED


async def test_check_probes_the_model(server: EmulatorServer, provider: VertexProvider) -> None:
    assert await provider.check() is True
    assert server.state.requests[-1].path == "/v1beta1/publishers/google/models/gemini-2.5-flash"
    assert server.state.requests[-1].headers["authorization"] == "Bearer tok-1"
    for status in (403, 404, 503):
        server.state.mode = Mode(kind="status", status=status)
        assert await provider.check() is False, status
    server.state.mode = Mode(kind="throttle")
    assert await provider.check() is True
    dead = VertexProvider(
        "vx",
        project="p1",
        location="europe-west4",
        model="gemini-2.5-flash",
        credentials=Credentials(token="t"),
        base_url=f"http://127.0.0.1:{free_port()}",
    )
    try:
        assert await dead.check() is False
    finally:
        await dead.aclose()


async def test_gemini_3_replayed_tool_calls_carry_the_signature_sentinel(
    server: EmulatorServer,
) -> None:
    server.state.reset()
    p = VertexProvider(
        "vx",
        project="p1",
        location="global",
        model="gemini-3-flash-preview",
        credentials=Credentials(token="t"),
        base_url=server.url,
    )
    calls = [
        {
            "id": f"call_{n}",
            "type": "function",
            "function": {"name": "get_weather", "arguments": f'{{"city": "{n}"}}'},
        }
        for n in ("Ankara", "İzmir")
    ]
    try:
        await p.complete(
            req(
                tools=[TOOL],
                messages=[
                    {"role": "user", "content": "Hava?"},
                    {"role": "assistant", "content": None, "tool_calls": calls},
                    {"role": "tool", "tool_call_id": "call_Ankara", "content": '{"temp_c": 9}'},
                    {"role": "tool", "tool_call_id": "call_İzmir", "content": '{"temp_c": 17}'},
                ],
            ),
            FAST,
        )
    finally:
        await p.aclose()
    first, second = sent(server)["contents"][1]["parts"]
    assert first["thoughtSignature"] == "skip_thought_signature_validator"
    assert "thoughtSignature" not in second  # only the first of parallel calls is signed
