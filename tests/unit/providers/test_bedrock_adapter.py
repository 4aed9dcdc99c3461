"""The Bedrock adapter through real boto3 against the Bedrock emulator: what the contract suite
does not cover (stream tool calls, exception frames, broken frames, loop responsiveness, client
caching, retries off, embeddings)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import quote

import httpx
import orjson
import pytest
from botocore.config import Config

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest
from gateway.emulators.base import EmulatorServer, Mode, free_port
from gateway.emulators.bedrock import EMBED_DIMENSIONS, StreamKnobs, build_app
from gateway.providers.base import CallOptions
from gateway.providers.bedrock import BedrockProvider
from tests.contract.harnesses.bedrock import REGION, fake_session, make_provider

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)
EMBED_MODEL = "amazon.titan-embed-text-v2:0"
_TOOL = {
    "type": "function",
    "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}},
}


def req(**kw: Any) -> ChatRequest:
    base: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "Selam"}]}
    base.update(kw)
    return ChatRequest.model_validate(base)


@pytest.fixture(scope="module")
def knobs() -> StreamKnobs:
    return StreamKnobs()


@pytest.fixture(scope="module")
def server(knobs: StreamKnobs) -> Iterator[EmulatorServer]:
    with EmulatorServer(lambda state: build_app(state, knobs)) as srv:
        yield srv


@pytest.fixture
async def provider(server: EmulatorServer, knobs: StreamKnobs) -> AsyncIterator[BedrockProvider]:
    server.state.reset()
    knobs.exception_after = None
    p = make_provider(server.url)
    try:
        yield p
    finally:
        await p.aclose()


async def drain(p: BedrockProvider, request: ChatRequest, got: list[ChatChunk]) -> None:
    async for chunk in p.stream(request, FAST):
        got.append(chunk)


async def test_stream_tool_call_arrives_as_deltas(provider: BedrockProvider) -> None:
    got: list[ChatChunk] = []
    await drain(provider, req(stream=True, tools=[_TOOL]), got)
    deltas = [d for c in got for d in c.tool_calls]
    assert deltas[0].name == "get_weather" and deltas[0].id
    assert orjson.loads("".join(d.arguments or "" for d in deltas)) == {"city": "İstanbul"}
    assert [c.finish_reason for c in got if c.finish_reason] == ["tool_calls"]


async def test_exception_frame_mid_stream_is_interrupted(
    provider: BedrockProvider, knobs: StreamKnobs
) -> None:
    knobs.exception_after, knobs.exception_type = 2, "modelStreamErrorException"
    got: list[ChatChunk] = []
    with pytest.raises(ProviderError) as err:
        await drain(provider, req(stream=True), got)
    assert [c.text for c in got if c.text] == ["Merhaba! ", "Size "]
    assert err.value.kind == FailureKind.INTERRUPTED


async def test_exception_frame_before_any_text_is_classified_before_any_yield(
    provider: BedrockProvider, knobs: StreamKnobs
) -> None:
    knobs.exception_after, knobs.exception_type = 0, "throttlingException"
    got: list[ChatChunk] = []
    with pytest.raises(ProviderError) as err:
        await drain(provider, req(stream=True), got)
    assert got == []
    assert err.value.kind == FailureKind.RATE_LIMIT


async def test_broken_frame_mid_stream_is_interrupted(
    provider: BedrockProvider, server: EmulatorServer
) -> None:
    server.state.mode = Mode(kind="malformed")
    got: list[ChatChunk] = []
    with pytest.raises(ProviderError) as err:
        await drain(provider, req(stream=True), got)
    assert [c.text for c in got if c.text] == ["Merhaba! "]
    assert err.value.kind == FailureKind.INTERRUPTED


async def test_stop_sequence_and_max_tokens_finish_reasons(
    provider: BedrockProvider, server: EmulatorServer
) -> None:
    server.state.mode = Mode(reply="Bir iki. Üç dört beş")
    stopped = await provider.complete(req(stop=["."]), FAST)
    assert (stopped.text, stopped.finish_reason) == ("Bir iki", "stop")
    cut = await provider.complete(req(max_tokens=2), FAST)
    assert (cut.text, cut.finish_reason) == ("Bir iki. ", "length")
    got: list[ChatChunk] = []
    await drain(provider, req(stream=True, max_tokens=3), got)
    assert [c.finish_reason for c in got if c.finish_reason] == ["length"]


async def test_json_mode_is_refused_clearly(
    provider: BedrockProvider, server: EmulatorServer
) -> None:
    assert provider.capabilities.json_mode is False
    with pytest.raises(ProviderError) as err:
        await provider.complete(req(response_format={"type": "json_object"}), FAST)
    assert err.value.kind == FailureKind.UNSUPPORTED
    assert "JSON mode" in err.value.message
    assert server.state.requests == []


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (400, FailureKind.CALLER),
        (403, FailureKind.CREDENTIAL),
        (500, FailureKind.TRANSIENT),
        (503, FailureKind.TRANSIENT),
        (408, FailureKind.TIMEOUT),
    ],
)
async def test_aws_errors_are_classified_and_never_retried_by_botocore(
    provider: BedrockProvider, server: EmulatorServer, status: int, kind: FailureKind
) -> None:
    server.state.mode = Mode(kind="status", status=status)
    with pytest.raises(ProviderError) as err:
        await provider.complete(req(), FAST)
    assert err.value.kind == kind
    assert err.value.status == status
    assert "emulated failure" not in err.value.message  # AWS's message text stays out
    assert len(server.state.requests) == 1, "botocore must not retry; the dispatcher does"


async def test_stream_does_not_block_the_event_loop(
    provider: BedrockProvider, server: EmulatorServer
) -> None:
    server.state.mode = Mode(reply="bir iki üç dört beş altı", inter_chunk_s=0.05)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    got: list[ChatChunk] = []
    t0 = time.monotonic()
    await drain(provider, req(stream=True), got)
    elapsed = time.monotonic() - t0
    task.cancel()
    assert "".join(c.text for c in got) == "bir iki üç dört beş altı"
    # ~0.3 s of stream: a loop blocked on socket reads would barely tick
    assert ticks >= int(elapsed / 0.01 * 0.4), (ticks, elapsed)


async def test_leaving_streams_early_frees_their_threads(server: EmulatorServer) -> None:
    # slow streams (~10 s each) abandoned after one chunk, more of them than the pool has
    # threads: a reader thread that kept reading to the end would starve the next stream
    # (its first event would wait ~10 s); a freed one stops at the next frame (~1 s)
    server.state.reset()
    server.state.mode = Mode(inter_chunk_s=1.0)
    p = make_provider(server.url, max_concurrency=2)
    t0 = time.monotonic()
    try:
        for _ in range(3):
            gen = p.stream(req(stream=True), FAST)
            assert (await anext(gen)).text
            await gen.aclose()
    finally:
        await p.aclose()
    assert time.monotonic() - t0 < 5.0


async def test_one_client_per_timeout_config(server: EmulatorServer) -> None:
    made: list[Config] = []
    session = fake_session()

    def factory(config: Config) -> Any:
        made.append(config)
        return session.client(
            "bedrock-runtime", region_name=REGION, endpoint_url=server.url, config=config
        )

    p = BedrockProvider("bed", "m", client_factory=factory, default_options=FAST)
    try:
        assert len(made) == 1, "the default client is made at construction"
        await p.complete(req(), FAST)
        await p.complete(req(), FAST)
        assert len(made) == 1
        slow = CallOptions(connect_timeout=3.0, first_byte_timeout=30.0, total_timeout=60.0)
        await p.complete(req(), slow)
        assert len(made) == 2
        assert (made[1].connect_timeout, made[1].read_timeout) == (3.0, 30.0)
        assert made[1].retries == {"total_max_attempts": 1, "mode": "standard"}
    finally:
        await p.aclose()


async def test_embeddings_through_invoke_model(server: EmulatorServer) -> None:
    server.state.reset()
    p = make_provider(server.url, EMBED_MODEL)
    try:
        vectors, tokens = await p.embed(
            ["Merhaba dünya", "Kişisel veri yok", "Merhaba dünya"], FAST
        )
    finally:
        await p.aclose()
    assert len(vectors) == 3 and all(len(v) == EMBED_DIMENSIONS for v in vectors)
    assert vectors[0] == vectors[2] != vectors[1]
    assert tokens == 2 + 3 + 2 == server.state.served_prompt_tokens
    sent = server.state.requests[0]
    assert sent.path == "/model/amazon.titan-embed-text-v2:0/invoke"
    assert sent.headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
    assert sorted(r.json()["inputText"] for r in server.state.requests) == sorted(
        ["Merhaba dünya", "Kişisel veri yok", "Merhaba dünya"]
    )


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        (Mode(kind="malformed"), FailureKind.PROVIDER),
        (Mode(kind="throttle", retry_after=3), FailureKind.RATE_LIMIT),
    ],
)
async def test_embedding_failures(server: EmulatorServer, mode: Mode, kind: FailureKind) -> None:
    server.state.reset()
    server.state.mode = mode
    p = make_provider(server.url, EMBED_MODEL)
    try:
        with pytest.raises(ProviderError) as err:
            await p.embed(["Merhaba"], FAST)
    finally:
        await p.aclose()
    assert err.value.kind == kind


async def test_check_probes_the_endpoint(provider: BedrockProvider) -> None:
    assert await provider.check() is True
    dead = make_provider(f"http://127.0.0.1:{free_port()}")
    try:
        assert await dead.check() is False
    finally:
        await dead.aclose()


async def test_emulator_routes_an_arn_only_when_percent_encoded(server: EmulatorServer) -> None:
    server.state.reset()
    arn = "arn:aws:bedrock:eu-central-1:123456789012:inference-profile/eu.model-v1:0"
    body = {"messages": [{"role": "user", "content": [{"text": "Selam"}]}]}
    async with httpx.AsyncClient(base_url=server.url) as client:
        raw = await client.post(f"/model/{arn}/converse", json=body)
        encoded = await client.post(f"/model/{quote(arn, safe='')}/converse", json=body)
    assert raw.status_code == 404
    assert raw.headers["x-amzn-errortype"] == "UnknownOperationException"
    assert encoded.status_code == 200
    assert encoded.json()["stopReason"] == "end_turn"
