"""One contract, every adapter: the real SDK against the vendor's wire protocol (emulated)."""

from __future__ import annotations

import time

import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest
from gateway.emulators.base import Mode
from gateway.providers.base import CallOptions
from tests.contract.harness import Harness

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)


def req(**kw: object) -> ChatRequest:
    base: dict[str, object] = {
        "model": "alias",
        "messages": [
            {"role": "system", "content": "Kısa yanıt ver."},
            {"role": "user", "content": "Merhaba, nasılsın?"},
        ],
    }
    base.update(kw)
    return ChatRequest.model_validate(base)


async def collect(h: Harness, request: ChatRequest) -> list[ChatChunk]:
    return [c async for c in h.provider.stream(request, FAST)]


async def test_simple_completion(harness: Harness) -> None:
    request = req(temperature=0.2, max_tokens=50, stop=["\n\n"], top_p=0.9)
    result = await harness.provider.complete(request, FAST)
    assert result.text == harness.reply
    assert result.finish_reason == "stop"
    assert result.usage is not None
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0
    assert result.usage.completion_tokens == harness.server.state.served_completion_tokens
    assert len(harness.server.state.requests) == 1
    if harness.spec.check_sent:
        harness.spec.check_sent(harness.server.state.requests[0], request)


async def test_stream_concatenates_to_full_text(harness: Harness) -> None:
    request = req(stream=True, temperature=0.1, max_tokens=40)
    chunks = await collect(harness, request)
    text = "".join(c.text for c in chunks)
    assert text == harness.reply
    assert len([c for c in chunks if c.text]) > 1, "the answer must arrive in several chunks"
    assert chunks[-1].finish_reason == "stop" or any(c.finish_reason == "stop" for c in chunks)
    usages = [c.usage for c in chunks if c.usage is not None]
    if harness.spec.stream_usage_exact:
        assert usages, "usage must be reported at the end of the stream"
        assert usages[-1].completion_tokens == harness.server.state.served_completion_tokens
    if harness.spec.check_sent:
        harness.spec.check_sent(harness.server.state.requests[0], request)


async def test_tool_call_round_trip(harness: Harness) -> None:
    if not harness.spec.tools:
        assert not harness.provider.capabilities.tools
        with pytest.raises(ProviderError) as err:
            await harness.provider.complete(req(tools=[_TOOL]), FAST)
        assert err.value.kind == FailureKind.UNSUPPORTED
        return
    assert harness.provider.capabilities.tools
    first = await harness.provider.complete(req(tools=[_TOOL]), FAST)
    assert first.finish_reason == "tool_calls"
    assert len(first.tool_calls) == 1
    call = first.tool_calls[0]
    assert call.name == "get_weather"
    assert "İstanbul" in call.arguments
    follow = req(
        tools=[_TOOL],
        messages=[
            {"role": "user", "content": "İstanbul'da hava nasıl?"},
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
    )
    second = await harness.provider.complete(follow, FAST)
    assert second.finish_reason == "stop"
    assert second.text == harness.reply
    sent = harness.server.state.requests[-1].body.decode()
    assert "temp_c" in sent, "the tool result must reach the backend in the next turn"


async def test_throttle_is_rate_limit_with_retry_after(harness: Harness) -> None:
    harness.server.state.mode = Mode(kind="throttle", retry_after=7)
    with pytest.raises(ProviderError) as err:
        await harness.provider.complete(req(), FAST)
    assert err.value.kind == FailureKind.RATE_LIMIT
    assert err.value.retry_after == 7


async def test_server_error_is_transient(harness: Harness) -> None:
    harness.server.state.mode = Mode(kind="status", status=500)
    with pytest.raises(ProviderError) as err:
        await harness.provider.complete(req(), FAST)
    assert err.value.kind == FailureKind.TRANSIENT


async def test_hang_times_out_within_deadline(harness: Harness) -> None:
    harness.server.state.mode = Mode(kind="hang", hang_s=20)
    options = CallOptions(connect_timeout=1.0, first_byte_timeout=0.5, total_timeout=1.0)
    t0 = time.monotonic()
    with pytest.raises(ProviderError) as err:
        await harness.provider.complete(req(), options)
    elapsed = time.monotonic() - t0
    assert err.value.kind == FailureKind.TIMEOUT
    assert elapsed < 3.0, f"timeout took {elapsed:.1f}s against a 1s deadline"


async def test_malformed_body_is_provider_failure(harness: Harness) -> None:
    harness.server.state.mode = Mode(kind="malformed")
    with pytest.raises(ProviderError) as err:
        await harness.provider.complete(req(), FAST)
    assert err.value.kind == FailureKind.PROVIDER


async def test_stream_failure_before_first_chunk_raises_before_any_yield(harness: Harness) -> None:
    harness.server.state.mode = Mode(kind="status", status=503)
    got: list[ChatChunk] = []
    with pytest.raises(ProviderError) as err:
        async for c in harness.provider.stream(req(stream=True), FAST):
            got.append(c)
    assert got == []
    assert err.value.kind == FailureKind.TRANSIENT


async def test_mid_stream_cut_is_reported_as_interrupted(harness: Harness) -> None:
    harness.server.state.mode = Mode(kind="cut", cut_after=2)
    got: list[ChatChunk] = []
    with pytest.raises(ProviderError) as err:
        async for c in harness.provider.stream(req(stream=True), FAST):
            got.append(c)
    assert [c for c in got if c.text], "chunks before the cut must have been delivered"
    assert err.value.kind == FailureKind.INTERRUPTED


_TOOL = {
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
