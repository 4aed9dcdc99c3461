"""The lean HTTP/1.1 pool: keep-alive reuse, stale connections, streamed pieces as they come,
timeouts and refusals raised as the httpx exceptions the adapters classify."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
import pytest

from gateway.emulators.base import free_port
from gateway.providers.http1 import Http1Pool

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return head + await reader.readexactly(length)


async def serve(handler: Handler) -> tuple[asyncio.Server, str]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    return server, f"http://127.0.0.1:{port}/v1/chat/completions"


def ok(body: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body)


async def test_reuses_connections_and_sends_fixed_headers() -> None:
    seen: list[bytes] = []
    connections = 0

    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        try:
            while True:
                seen.append(await read_request(r))
                w.write(ok(b'{"n":%d}' % len(seen)))
        except asyncio.IncompleteReadError:
            w.close()

    server, url = await serve(handler)
    pool = Http1Pool(url, {"authorization": "Bearer k"})
    for i in range(3):
        resp = await pool.request("POST", "/v1/chat/completions", b'{"a":1}')
        assert (resp.status, resp.content) == (200, b'{"n":%d}' % (i + 1))
    await pool.aclose()
    server.close()
    assert connections == 1
    assert b"authorization: Bearer k\r\n" in seen[0]
    assert seen[0].endswith(b'\r\n\r\n{"a":1}')


async def test_stale_keep_alive_connection_is_retried_once() -> None:
    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await read_request(r)
        w.write(ok(b"first"))
        await w.drain()
        w.close()  # the server drops the keep-alive connection after one answer

    server, url = await serve(handler)
    pool = Http1Pool(url)
    assert (await pool.request("POST", "/", b"")).content == b"first"
    await asyncio.sleep(0.05)
    assert (await pool.request("POST", "/", b"")).content == b"first"
    await pool.aclose()
    server.close()


async def test_stream_pieces_arrive_as_sent_and_partial_streams_are_not_reused() -> None:
    gate = asyncio.Event()

    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        try:
            while True:
                await read_request(r)
                w.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")
                w.write(b"5\r\nfirst\r\n")
                await w.drain()
                await gate.wait()
                w.write(b"6\r\nsecond\r\n0\r\n\r\n")
                await w.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            w.close()

    server, url = await serve(handler)
    pool = Http1Pool(url)
    s = await pool.stream("POST", "/", b"{}", first_byte_timeout=2)
    it: AsyncIterator[bytes] = s.chunks()
    assert await asyncio.wait_for(it.__anext__(), 1) == b"first"  # before the rest exists
    gate.set()
    assert [c async for c in it] == [b"second"]
    await s.aclose()

    gate.clear()
    s = await pool.stream("POST", "/", b"{}", first_byte_timeout=2)
    await s.chunks().__anext__()
    await s.aclose()  # abandoned mid-stream: that connection must not be reused
    assert pool._idle == []
    await pool.aclose()
    server.close()


async def test_timeouts_and_refusals_are_httpx_errors() -> None:
    async def silent(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await read_request(r)
        await asyncio.sleep(5)

    server, url = await serve(silent)
    pool = Http1Pool(url)
    with pytest.raises(httpx.ReadTimeout):
        await pool.request("POST", "/", b"", first_byte_timeout=0.1)
    await pool.aclose()
    server.close()

    refused = Http1Pool(f"http://127.0.0.1:{free_port()}")
    with pytest.raises(httpx.ConnectError):
        await refused.request("POST", "/", b"")


async def test_malformed_answer_is_a_protocol_error() -> None:
    async def garbage(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await read_request(r)
        w.write(b"NOT HTTP AT ALL\r\n\r\n")
        await w.drain()

    server, url = await serve(garbage)
    pool = Http1Pool(url)
    with pytest.raises(httpx.RemoteProtocolError):
        await pool.request("POST", "/", b"", first_byte_timeout=1)
    await pool.aclose()
    server.close()


async def test_total_timeout_bounds_a_slow_drip_and_a_wait_for_a_connection() -> None:
    """Each piece arrives within the first-byte timeout, but the whole exchange takes longer
    than `total_timeout`: a read timeout, after about total_timeout (not first_byte_timeout)."""

    async def drip(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        try:
            await read_request(r)
            w.write(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")
            for _ in range(50):
                w.write(b"1\r\nx\r\n")
                await w.drain()
                await asyncio.sleep(0.05)
            w.write(b"0\r\n\r\n")
            await w.drain()
        except ConnectionError:
            pass
        w.close()

    server, url = await serve(drip)
    pool = Http1Pool(url, max_connections=1)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    with pytest.raises(httpx.ReadTimeout):
        await pool.request("POST", "/", b"", first_byte_timeout=1.0, total_timeout=0.3)
    assert 0.25 <= loop.time() - t0 < 0.9
    assert pool._idle == []  # a timed-out exchange's connection is not reused

    # the only connection is busy: waiting for it counts against the total timeout too
    busy = asyncio.ensure_future(pool.request("POST", "/", b"", first_byte_timeout=5.0))
    await asyncio.sleep(0.05)
    t0 = loop.time()
    with pytest.raises(httpx.PoolTimeout):
        await pool.request("POST", "/", b"", first_byte_timeout=5.0, total_timeout=0.2)
    assert 0.15 <= loop.time() - t0 < 0.8
    busy.cancel()
    with pytest.raises(asyncio.CancelledError):
        await busy
    await pool.aclose()
    server.close()


def _chunked_head() -> bytes:
    return (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
    )


async def test_the_read_timeout_counts_from_the_last_piece_however_long_the_stream() -> None:
    """Eight pieces 0.1 s apart (0.8 s in all, longer than the 0.3 s read timeout), then
    silence: every piece arrives, and the timeout fires about 0.3 s after the last one."""
    release = asyncio.Event()

    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await read_request(r)
        w.write(_chunked_head())
        for i in range(8):
            w.write(b"1\r\n%d\r\n" % i)
            await w.drain()
            await asyncio.sleep(0.1)
        await release.wait()  # silent, connection open
        w.close()

    server, url = await serve(handler)
    pool = Http1Pool(url)
    loop = asyncio.get_running_loop()
    s = await pool.stream("POST", "/v1/chat/completions", b"{}", first_byte_timeout=0.3)
    got: list[bytes] = []
    last = loop.time()
    with pytest.raises(httpx.ReadTimeout):
        while True:
            piece = await s.next_chunk()
            assert piece is not None
            got.append(piece)
            last = loop.time()
    assert b"".join(got) == b"01234567"
    assert 0.2 <= loop.time() - last < 1.5
    await s.aclose()
    release.set()
    await pool.aclose()
    server.close()


async def test_a_wait_with_a_shorter_timeout_than_the_last_one_expires_on_time() -> None:
    """The head waited with a 5 s timeout; the reader then wants a piece within 0.2 s (its
    deadline): the piece never comes, and the wait ends after about 0.2 s, not 5 s."""
    release = asyncio.Event()

    async def handler(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        await read_request(r)
        w.write(_chunked_head())
        await w.drain()
        await release.wait()
        w.close()

    server, url = await serve(handler)
    pool = Http1Pool(url)
    loop = asyncio.get_running_loop()
    s = await pool.stream("POST", "/v1/chat/completions", b"{}", first_byte_timeout=5.0)
    s.deadline = loop.time() + 0.2
    t0 = loop.time()
    with pytest.raises(httpx.ReadTimeout):
        await s.next_chunk()
    assert 0.15 <= loop.time() - t0 < 2.0
    await s.aclose()
    release.set()
    await pool.aclose()
    server.close()
