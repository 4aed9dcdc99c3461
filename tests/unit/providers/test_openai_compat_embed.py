"""OpenAICompatProvider.embed against the OpenAI emulator's `/v1/embeddings`."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app
from gateway.providers.base import CallOptions
from gateway.providers.openai_compat import OpenAICompatProvider

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
async def provider(server: EmulatorServer) -> AsyncIterator[OpenAICompatProvider]:
    server.state.reset()
    p = OpenAICompatProvider("oc", server.url + "/v1", "emulated-model", api_key="k")
    yield p
    await p.aclose()


async def test_embed_returns_one_vector_per_input_and_counted_tokens(
    provider: OpenAICompatProvider, server: EmulatorServer
) -> None:
    vectors, tokens = await provider.embed(["bir", "iki üç dört"], FAST)
    assert vectors == [[3.0, 0.5, -0.25], [4.0, 0.5, -0.25]]
    assert tokens == 4 == server.state.served_prompt_tokens
    sent = server.state.requests[0]
    assert sent.path == "/v1/embeddings" and sent.headers["authorization"] == "Bearer k"
    assert sent.json() == {"model": "emulated-model", "input": ["bir", "iki üç dört"]}


@pytest.mark.parametrize(
    ("mode", "kind"),
    [
        (Mode(kind="throttle", retry_after=4), FailureKind.RATE_LIMIT),
        (Mode(kind="status", status=503), FailureKind.TRANSIENT),
        (Mode(kind="status", status=401), FailureKind.CREDENTIAL),
    ],
)
async def test_embed_failures_are_classified(
    provider: OpenAICompatProvider, server: EmulatorServer, mode: Mode, kind: FailureKind
) -> None:
    server.state.mode = mode
    with pytest.raises(ProviderError) as err:
        await provider.embed(["x"], FAST)
    assert err.value.kind == kind
    assert err.value.retry_after == (4 if kind == FailureKind.RATE_LIMIT else None)


async def test_embed_times_out_within_the_deadline(
    provider: OpenAICompatProvider, server: EmulatorServer
) -> None:
    server.state.mode = Mode(kind="hang", hang_s=10)
    with pytest.raises(ProviderError) as err:
        await provider.embed(["x"], CallOptions(1.0, 0.5, 0.5))
    assert err.value.kind == FailureKind.TIMEOUT
