"""Vertex as strict as Vertex, through google-genai: the emulator refuses bodies google-genai's
own types refuse, and the adapter handles Vertex's in-band failures (a safety block answered
with HTTP 200, an error frame in the middle of a stream)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.vertex import build_app
from gateway.providers.vertex import VertexProvider
from tests.contract.harnesses.vertex import LOCATION, MODEL, PROJECT, _make

from .test_contract import FAST

PATH = (
    f"/v1beta1/projects/{PROJECT}/locations/{LOCATION}/publishers/google/models/"
    f"{MODEL}:generateContent"
)
USER = {"role": "user", "parts": [{"text": "Merhaba"}]}


def request(stream: bool) -> ChatRequest:
    return ChatRequest.model_validate(
        {
            "model": "m",
            "stream": stream,
            "messages": [
                {"role": "system", "content": "Kısa yanıt ver."},
                {"role": "user", "content": "Merhaba"},
            ],
        }
    )


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
async def provider(server: EmulatorServer) -> AsyncIterator[VertexProvider]:
    server.state.reset()
    p = _make(server.url)
    yield p
    await p.aclose()


async def _post(server: EmulatorServer, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as client:
        return await client.post(PATH, json=body)


async def test_a_valid_body_is_answered(server: EmulatorServer) -> None:
    answer = await _post(server, {"contents": [USER], "generationConfig": {"temperature": 0.2}})
    assert answer.status_code == 200


@pytest.mark.parametrize(
    ("body", "where"),
    [
        (
            {"contents": [USER], "generationConfig": {"max_tokens": 5}},
            "generationConfig.max_tokens",
        ),
        (
            {"contents": [USER], "generationConfig": {"temperature": "sıcak"}},
            "generationConfig.temperature",
        ),
        (
            {"contents": [{"role": "user", "parts": [{"text": "x", "content": "y"}]}]},
            "contents[0].parts[0].content",
        ),
        (
            {"contents": [USER], "tools": [{"functionDeclarations": [{"name": "f", "args": {}}]}]},
            "tools[0].functionDeclarations[0].args",
        ),
        ({"contents": [USER], "temperature": 0.2}, '"temperature"'),
        ({"contents": [{"role": "assistant", "parts": [{"text": "x"}]}]}, "contents[0].role"),
        ({"contents": [{"role": "user", "parts": []}]}, "contents[0].parts"),
        ({"contents": []}, "empty contents"),
        (
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "x", "functionCall": {"name": "f"}}]}
                ]
            },
            "contents[0].parts[0]",
        ),
    ],
)
async def test_refuses_what_google_genai_types_refuse(
    server: EmulatorServer, body: dict[str, Any], where: str
) -> None:
    answer = await _post(server, body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["status"] == "INVALID_ARGUMENT"
    assert where in error["message"]
    assert "sıcak" not in error["message"], "values are never echoed"


async def test_a_safety_block_is_a_content_filter_finish_without_output(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    server.state.mode = Mode(kind="blocked")
    result = await provider.complete(request(stream=False), FAST)
    assert result.finish_reason == "content_filter"
    assert not result.text and not result.tool_calls
    assert result.usage is not None and result.usage.prompt_tokens > 0
    assert result.usage.completion_tokens == 0, "no output to charge"


async def test_a_streamed_safety_block_ends_the_stream_as_content_filter(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    server.state.mode = Mode(kind="blocked")
    chunks = [c async for c in provider.stream(request(stream=True), FAST)]
    assert [c.finish_reason for c in chunks] == ["content_filter"]
    assert "".join(c.text for c in chunks) == ""
    usage = chunks[-1].usage
    assert usage is not None and usage.completion_tokens == 0


async def _stream(provider: VertexProvider) -> tuple[list[ChatChunk], ProviderError]:
    got: list[ChatChunk] = []
    with pytest.raises(ProviderError) as err:
        async for chunk in provider.stream(request(stream=True), FAST):
            got.append(chunk)
    return got, err.value


async def test_an_error_frame_mid_stream_cuts_the_stream(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    server.state.mode = Mode(kind="error_frame", cut_after=2)
    got, err = await _stream(provider)
    assert [c.text for c in got] == ["Merhaba! ", "Size "]
    assert err.kind == FailureKind.INTERRUPTED
    assert all(c.finish_reason is None and c.usage is None for c in got)


async def test_an_error_frame_before_any_text_is_the_classified_error(
    server: EmulatorServer, provider: VertexProvider
) -> None:
    server.state.mode = Mode(kind="error_frame", cut_after=0)
    got, err = await _stream(provider)
    assert got == []
    assert err.kind == FailureKind.TRANSIENT  # 500 INTERNAL: another backend may answer
