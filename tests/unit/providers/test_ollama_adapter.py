"""The Ollama adapter through the real `ollama` client against the Ollama emulator: mapping of
tools, JSON mode, limits, timings, model presence, embeddings, error classification."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import orjson
import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.ollama import build_app
from gateway.policy.schema import OllamaBackend
from gateway.providers.base import CallOptions
from gateway.providers.ollama import OllamaProvider
from gateway.providers.ollama.factory import build
from gateway.providers.registry import BuildContext

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)
TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


class CountingIds:
    def __init__(self) -> None:
        self.n = 0

    def new_id(self, prefix: str = "") -> str:
        self.n += 1
        return f"{prefix}{self.n}"


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
async def provider(server: EmulatorServer) -> AsyncIterator[OllamaProvider]:
    server.state.reset()
    p = OllamaProvider("llm", server.url, "emulated-model", keep_alive="5m", ids=CountingIds())
    yield p
    await p.aclose()


def req(**kw: object) -> ChatRequest:
    body: dict[str, object] = {"model": "a", "messages": [{"role": "user", "content": "Selam"}]}
    body.update(kw)
    return ChatRequest.model_validate(body)


async def test_timings_and_exact_counts_reach_the_caller(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    result = await provider.complete(req(seed=7), FAST)
    assert result.usage is not None
    assert result.usage.prompt_tokens == server.state.served_prompt_tokens
    assert result.usage.estimated is False
    assert provider.last_timings is not None
    t = provider.last_timings
    assert t.total_ns > t.load_ns > 0 and t.eval_ns > 0 and t.prompt_eval_ns > 0
    assert t.eval_count == result.usage.completion_tokens
    assert t.tokens_per_second is not None and t.tokens_per_second > 0
    body = server.state.requests[0].json()
    assert body["options"]["seed"] == 7 and body["keep_alive"] == "5m"


async def test_stream_reports_timings_on_the_last_line(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    chunks = [c async for c in provider.stream(req(stream=True), FAST)]
    assert chunks[-1].usage is not None and chunks[-1].finish_reason == "stop"
    timings = provider.last_timings
    assert timings is not None and timings.eval_count == chunks[-1].usage.completion_tokens
    assert server.state.requests[0].json()["stream"] is True


async def test_num_predict_cut_is_finish_length(provider: OllamaProvider) -> None:
    result = await provider.complete(req(max_completion_tokens=3, max_tokens=99), FAST)
    assert result.finish_reason == "length"
    assert result.usage is not None and result.usage.completion_tokens == 3
    chunks = [c async for c in provider.stream(req(stream=True, max_tokens=2), FAST)]
    assert [c.finish_reason for c in chunks if c.finish_reason] == ["length"]


async def test_json_mode_and_schema_map_to_format(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    await provider.complete(req(response_format={"type": "json_object"}), FAST)
    schema = {"type": "object", "properties": {"ad": {"type": "string"}}}
    await provider.complete(
        req(
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "kisi", "schema": schema},
            }
        ),
        FAST,
    )
    sent = [r.json() for r in server.state.requests]
    assert sent[0]["format"] == "json"
    assert sent[1]["format"] == schema


async def test_tool_calls_get_ids_and_json_arguments(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    result = await provider.complete(req(tools=[TOOL]), FAST)
    assert result.finish_reason == "tool_calls" and result.text is None
    (call,) = result.tool_calls
    assert call.id == "call_1" and call.name == "get_weather"
    assert orjson.loads(call.arguments) == {"city": "İstanbul"}
    sent = server.state.requests[0].json()
    assert sent["tools"][0]["function"]["name"] == "get_weather"


async def test_streamed_tool_call_is_one_indexed_delta(provider: OllamaProvider) -> None:
    chunks = [c async for c in provider.stream(req(stream=True, tools=[TOOL]), FAST)]
    deltas = [d for c in chunks for d in c.tool_calls]
    assert len(deltas) == 1 and deltas[0].index == 0 and deltas[0].name == "get_weather"
    assert deltas[0].id == "call_1"
    assert orjson.loads(deltas[0].arguments or "") == {"city": "İstanbul"}
    assert chunks[-1].finish_reason == "tool_calls"


async def test_history_maps_tool_calls_to_objects_and_results_to_tool_name(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    follow = req(
        tools=[TOOL],
        messages=[
            {"role": "developer", "content": "Kısa yaz."},
            {"role": "user", "content": "Hava?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c9",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Ankara"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c9", "content": '{"temp_c": 3}'},
        ],
    )
    result = await provider.complete(follow, FAST)
    assert result.finish_reason == "stop"
    msgs = server.state.requests[0].json()["messages"]
    assert msgs[0] == {"role": "system", "content": "Kısa yaz."}
    assert msgs[2]["tool_calls"] == [
        {"function": {"name": "get_weather", "arguments": {"city": "Ankara"}}}
    ]
    assert msgs[3] == {"role": "tool", "content": '{"temp_c": 3}', "tool_name": "get_weather"}


async def test_verify_and_check_report_a_model_that_is_not_pulled(server: EmulatorServer) -> None:
    good = OllamaProvider("llm", server.url, "emulated-model")
    missing = OllamaProvider("llm", server.url, "qwen2.5:7b")
    try:
        assert await good.verify() is None and await good.check() is True
        problem = await missing.verify()
        assert problem is not None and "qwen2.5:7b" in problem and "ollama pull" in problem
        assert await missing.check() is False
    finally:
        await good.aclose()
        await missing.aclose()


async def test_verify_reports_an_unreachable_server() -> None:
    p = OllamaProvider("llm", "http://127.0.0.1:9", "emulated-model")
    try:
        problem = await p.verify()
        assert problem is not None and "unreachable" in problem
        assert await p.check() is False
        with pytest.raises(ProviderError) as err:
            await p.complete(req(), FAST)
        assert err.value.kind == FailureKind.UNREACHABLE
    finally:
        await p.aclose()


async def test_not_pulled_model_at_call_time_is_a_clear_provider_error(
    server: EmulatorServer,
) -> None:
    p = OllamaProvider("llm", server.url, "absent-model")
    try:
        with pytest.raises(ProviderError) as err:
            await p.complete(req(), FAST)
        assert err.value.kind == FailureKind.PROVIDER and err.value.status == 404
        assert "not pulled" in err.value.message
    finally:
        await p.aclose()


async def test_embed_returns_vectors_and_counted_tokens(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    vectors, tokens = await provider.embed(["bir iki", "üç"], FAST)
    assert len(vectors) == 2 and all(len(v) == 3 for v in vectors)
    assert tokens == 3 == server.state.served_prompt_tokens
    sent = server.state.requests[0]
    assert sent.path == "/api/embed" and sent.json()["input"] == ["bir iki", "üç"]


async def test_embed_failure_is_classified(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    server.state.mode = Mode(kind="status", status=502)
    with pytest.raises(ProviderError) as err:
        await provider.embed(["x"], FAST)
    assert err.value.kind == FailureKind.TRANSIENT


async def test_malformed_stream_line_after_first_chunk_is_interrupted(
    provider: OllamaProvider, server: EmulatorServer
) -> None:
    server.state.mode = Mode(kind="malformed")
    got = []
    with pytest.raises(ProviderError) as err:
        async for c in provider.stream(req(stream=True), FAST):
            got.append(c)
    assert got and err.value.kind == FailureKind.INTERRUPTED


def test_factory_uses_the_policy_host_and_model() -> None:
    spec = OllamaBackend(
        kind="ollama", model="llama3.2", host="http://10.0.0.5:11434", keep_alive="10m"
    )
    p = build("gpu", spec, BuildContext(env={}))
    assert (p.name, p.host, p.model) == ("gpu", "http://10.0.0.5:11434", "llama3.2")
    assert p.capabilities.tools and p.capabilities.embeddings
    assert p.chat_kwargs(req())["keep_alive"] == "10m"
