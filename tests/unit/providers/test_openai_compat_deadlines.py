"""The OpenAI-style adapter bounds its own calls (the dispatcher adds no asyncio.timeout around
them; that context per call is CPU on the hot path): a whole answer by `total_timeout`, a stream's
first chunk by `first_byte_timeout`, even when the server keeps sending bytes that never make an
answer."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest
from gateway.providers.base import CallOptions
from gateway.providers.openai_compat.adapter import OpenAICompatProvider

REQ = ChatRequest.model_validate({"model": "m", "messages": [{"role": "user", "content": "hi"}]})
CHUNK = (
    b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m",'
    b'"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}\n\n'
)
FINISH = CHUNK.replace(b'"content":"x"},"finish_reason":null', b'},"finish_reason":"stop"')


def _provider(url: str, path: str) -> OpenAICompatProvider:
    """The adapter over its lean pool ("fast"), or over httpx, which it uses when given a
    transport (a test's, or a proxy the pool cannot speak)."""
    if path == "fast":
        return OpenAICompatProvider("up", url, "m")
    return OpenAICompatProvider("up", url, "m", transport=httpx.AsyncHTTPTransport())


PATHS = pytest.mark.parametrize("path", ["fast", "httpx"])


async def _drain_request(r: asyncio.StreamReader) -> None:
    head = await r.readuntil(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    await r.readexactly(length)


async def _server(body_pieces: list[bytes], gap: float, sse: bool) -> tuple[asyncio.Server, str]:
    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        try:
            await _drain_request(r)
            kind = b"text/event-stream" if sse else b"application/json"
            w.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: "
                + kind
                + b"\r\ntransfer-encoding: chunked\r\n\r\n"
            )
            for piece in body_pieces:
                w.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                await w.drain()
                await asyncio.sleep(gap)
            w.write(b"0\r\n\r\n")
            await w.drain()
        except ConnectionError:
            pass
        w.close()

    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"


@PATHS
async def test_a_stream_whose_first_chunk_never_completes_times_out_on_first_byte_timeout(
    path: str,
) -> None:
    # SSE comments every 50 ms: bytes keep coming (no read timeout) but no chunk is made
    server, url = await _server([b": keep-alive\n\n"] * 100, 0.05, sse=True)
    provider = _provider(url, path)
    opts = CallOptions(connect_timeout=1.0, first_byte_timeout=0.3, total_timeout=30.0)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    with pytest.raises(ProviderError) as err:
        async for _ in provider.stream(REQ, opts):
            pass
    assert err.value.kind == FailureKind.TIMEOUT
    assert 0.25 <= loop.time() - t0 < 2.0
    await provider.aclose()
    server.close()


@PATHS
async def test_after_the_first_chunk_only_the_read_timeout_applies(path: str) -> None:
    # 8 chunks 0.1 s apart: 0.8 s in all, longer than first_byte_timeout (0.3 s), each gap
    # shorter than it: the stream must not be cut once it has started
    server, url = await _server([CHUNK] * 8 + [FINISH, b"data: [DONE]\n\n"], 0.1, sse=True)
    provider = _provider(url, path)
    opts = CallOptions(connect_timeout=1.0, first_byte_timeout=0.3, total_timeout=30.0)
    texts = [c.text async for c in provider.stream(REQ, opts)]
    assert "".join(t or "" for t in texts) == "x" * 8
    await provider.aclose()
    server.close()


async def test_a_whole_answer_dripping_past_total_timeout_times_out() -> None:
    server, url = await _server([b" "] * 100, 0.05, sse=False)
    provider = OpenAICompatProvider("up", url, "m")
    opts = CallOptions(connect_timeout=1.0, first_byte_timeout=1.0, total_timeout=0.3)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    with pytest.raises(ProviderError) as err:
        await provider.complete(REQ, opts)
    assert err.value.kind == FailureKind.TIMEOUT
    assert 0.25 <= loop.time() - t0 < 2.0
    await provider.aclose()
    server.close()


@PATHS
async def test_a_gap_between_tokens_longer_than_the_first_token_deadline_is_not_a_cut(
    path: str,
) -> None:
    # a busy node: the first chunk comes at once, then each token 0.5 s apart (another
    # prompt's prefill shares the step). The first-token deadline (0.3 s) is no bound on
    # those gaps; the backend's own stall timeout (2 s) is
    server, url = await _server([CHUNK] * 3 + [FINISH, b"data: [DONE]\n\n"], 0.5, sse=True)
    provider = _provider(url, path)
    opts = CallOptions(
        connect_timeout=1.0, first_byte_timeout=0.3, total_timeout=30.0, stall_timeout=2.0
    )
    texts = [c.text async for c in provider.stream(REQ, opts)]
    assert "".join(t or "" for t in texts) == "x" * 3
    await provider.aclose()
    server.close()


@PATHS
async def test_a_gap_longer_than_the_stall_timeout_interrupts_the_stream(path: str) -> None:
    server, url = await _server([CHUNK] * 3 + [FINISH, b"data: [DONE]\n\n"], 0.5, sse=True)
    provider = _provider(url, path)
    opts = CallOptions(
        connect_timeout=1.0, first_byte_timeout=1.0, total_timeout=30.0, stall_timeout=0.2
    )
    got: list[str | None] = []
    with pytest.raises(ProviderError) as err:
        async for c in provider.stream(REQ, opts):
            got.append(c.text)
    assert err.value.kind == FailureKind.INTERRUPTED
    assert got == ["x"]
    await provider.aclose()
    server.close()
