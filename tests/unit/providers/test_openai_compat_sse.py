"""The lean pool's stream reader frames and parses SSE in one generator (no layer per chunk): events
split anywhere across reads, comments and other fields, the last line without its newline, a body
that ends without `[DONE]`, a malformed or error frame: the same chunks and the same failures as the
httpx path (which the contract suite and the SDK tests cover)."""

from __future__ import annotations

import httpx
import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest
from gateway.providers.base import CallOptions
from gateway.providers.openai_compat.adapter import OpenAICompatProvider
from tests.unit.providers.test_openai_compat_deadlines import _server

REQ = ChatRequest.model_validate({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
OPTS = CallOptions(connect_timeout=1.0, first_byte_timeout=5.0, total_timeout=30.0)


def event(text: str, finish: str | None = None) -> bytes:
    fr = "null" if finish is None else f'"{finish}"'
    return (
        b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m",'
        b'"choices":[{"index":0,"delta":{"content":"' + text.encode() + b'"},'
        b'"finish_reason":' + fr.encode() + b"}]}\n\n"
    )


USAGE = (
    b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m",'
    b'"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n'
)


async def _collect(pieces: list[bytes]) -> list[ChatChunk]:
    server, url = await _server(pieces, 0.0, sse=True)
    provider = OpenAICompatProvider("up", url, "m")
    try:
        return [c async for c in provider.stream(REQ, OPTS)]
    finally:
        await provider.aclose()
        server.close()


def _split_everywhere(body: bytes, size: int) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, 10_000])
async def test_events_split_anywhere_across_reads(size: int) -> None:
    body = (
        b": keep-alive\n\nevent: message\n"
        + event("Mer")
        + event("haba")
        + event("", "stop")
        + USAGE
        + b"data: [DONE]\n\n"
    )
    got = await _collect(_split_everywhere(body, size))
    assert "".join(c.text for c in got) == "Merhaba"
    assert [c.finish_reason for c in got if c.finish_reason] == ["stop"]
    usage = [c.usage for c in got if c.usage]
    assert len(usage) == 1 and usage[0].completion_tokens == 2


async def test_a_last_done_line_without_its_newline_ends_cleanly() -> None:
    got = await _collect([event("a"), event("", "stop"), b"data: [DONE]"])
    assert [c.text for c in got] == ["a", ""]


async def _unfinished(pieces: list[bytes], *, fast: bool) -> tuple[list[str], ProviderError]:
    """The chunks read and the failure of a stream that the server ends early."""
    server, url = await _server(pieces, 0.0, sse=True)
    transport = None if fast else httpx.AsyncHTTPTransport()  # an injected one: the httpx path
    provider = OpenAICompatProvider("up", url, "m", transport=transport)
    got: list[str] = []
    try:
        with pytest.raises(ProviderError) as err:
            async for c in provider.stream(REQ, OPTS):
                got.append(c.text)
    finally:
        await provider.aclose()
        server.close()
    return got, err.value


@pytest.mark.parametrize("fast", [True, False], ids=["lean-pool", "httpx"])
async def test_done_without_a_finish_reason_is_an_interruption(fast: bool) -> None:
    # llama.cpp's server with --interrupt_requests ends an interrupted stream exactly so
    got, err = await _unfinished([event("a"), event("b"), b"data: [DONE]\n\n"], fast=fast)
    assert got == ["a", "b"]
    assert err.kind == FailureKind.INTERRUPTED and err.code == "incomplete"
    assert "without a finish reason" in err.message


@pytest.mark.parametrize("fast", [True, False], ids=["lean-pool", "httpx"])
async def test_done_before_any_chunk_is_a_provider_failure(fast: bool) -> None:
    got, err = await _unfinished([b"data: [DONE]\n\n"], fast=fast)
    assert got == [] and err.kind == FailureKind.PROVIDER  # may still fall back


async def test_a_last_event_without_its_newline_is_still_read() -> None:
    server, url = await _server([event("a"), event("b").rstrip(b"\n")], 0.0, sse=True)
    provider = OpenAICompatProvider("up", url, "m")
    got: list[str] = []
    with pytest.raises(ProviderError) as err:
        async for c in provider.stream(REQ, OPTS):
            got.append(c.text)
    # both chunks were read, then the body ended without [DONE]
    assert got == ["a", "b"]
    assert err.value.kind == FailureKind.INTERRUPTED and "ended early" in err.value.message
    await provider.aclose()
    server.close()


async def test_a_body_ending_without_done_before_any_chunk_is_a_provider_failure() -> None:
    with pytest.raises(ProviderError) as err:
        await _collect([b": nothing here\n\n"])
    assert err.value.kind == FailureKind.PROVIDER and "ended early" in err.value.message


async def test_a_malformed_first_frame_is_a_provider_failure() -> None:
    with pytest.raises(ProviderError) as err:
        await _collect([b"data: {not json\n\n"])
    assert err.value.kind == FailureKind.PROVIDER and "malformed" in err.value.message


async def test_an_error_frame_after_a_chunk_is_an_interruption() -> None:
    server, url = await _server(
        [event("a"), b'data: {"error": {"message": "boom"}}\n\n'], 0.0, sse=True
    )
    provider = OpenAICompatProvider("up", url, "m")
    got: list[str] = []
    with pytest.raises(ProviderError) as err:
        async for c in provider.stream(REQ, OPTS):
            got.append(c.text)
    assert got == ["a"]
    assert err.value.kind == FailureKind.INTERRUPTED
    assert "boom" not in err.value.message  # a provider's words never reach the client
    await provider.aclose()
    server.close()
