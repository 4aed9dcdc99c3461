"""VertexProvider.embed through the real SDK against the emulator, for both Vertex methods the
SDK picks: `:predict` (text-embedding-*) and `:embedContent` / `:batchEmbedContents`
(gemini-embedding-*)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from google.oauth2.credentials import Credentials

from gateway.core.errors import FailureKind, ProviderError
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.vertex import build_app
from gateway.providers.base import CallOptions
from gateway.providers.vertex import VertexProvider

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)
TEXTS = ["Merhaba dünya", "İstanbul'da hava bugün güzel", "a"]


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


def make(server: EmulatorServer, model: str) -> VertexProvider:
    server.state.reset()
    return VertexProvider(
        "vx-emb",
        project="p1",
        location="europe-west3",
        model=model,
        credentials=Credentials(token="tok-e"),
        base_url=server.url,
    )


async def test_text_embedding_model_uses_predict(server: EmulatorServer) -> None:
    p = make(server, "text-embedding-005")
    try:
        assert p.capabilities.embeddings
        vectors, tokens = await p.embed(TEXTS, FAST)
    finally:
        await p.aclose()
    sent = server.state.requests[-1]
    assert sent.path == (
        "/v1beta1/projects/p1/locations/europe-west3/publishers/google/models/"
        "text-embedding-005:predict"
    )
    assert sent.headers["authorization"] == "Bearer tok-e"
    assert sent.json()["instances"] == [{"content": t} for t in TEXTS]
    assert len(vectors) == len(TEXTS)
    assert vectors[1] == [float(len(TEXTS[1]) % 7), 0.5, -0.25]  # order kept
    assert tokens == server.state.served_prompt_tokens > 0


@pytest.mark.parametrize(
    ("inputs", "method"), [(TEXTS, "batchEmbedContents"), (TEXTS[:1], "embedContent")]
)
async def test_gemini_embedding_model_uses_embed_content(
    server: EmulatorServer, inputs: list[str], method: str
) -> None:
    p = make(server, "gemini-embedding-001")
    try:
        vectors, tokens = await p.embed(inputs, FAST)
    finally:
        await p.aclose()
    assert server.state.requests[-1].path.endswith(f"/models/gemini-embedding-001:{method}")
    assert [v[0] for v in vectors] == [float(len(t) % 7) for t in inputs]
    assert tokens == server.state.served_prompt_tokens > 0


async def test_embedding_failures_are_classified(server: EmulatorServer) -> None:
    p = make(server, "text-embedding-005")
    server.state.mode = Mode(kind="throttle", retry_after=3)
    try:
        with pytest.raises(ProviderError) as err:
            await p.embed(TEXTS, FAST)
    finally:
        await p.aclose()
    assert err.value.kind == FailureKind.RATE_LIMIT
    assert err.value.retry_after == 3


async def test_chat_models_do_not_claim_embeddings(server: EmulatorServer) -> None:
    p = make(server, "gemini-2.5-flash")
    try:
        assert not p.capabilities.embeddings
        assert await p.embed([], FAST) == ([], 0)
    finally:
        await p.aclose()
