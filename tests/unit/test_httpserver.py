"""The serving protocol combines the writes of one event-loop turn (fewer syscalls): a response's
head and body leave in one write, and nothing is held past the turn it was written in."""

from __future__ import annotations

import asyncio
import socket
from typing import Any, ClassVar

import pytest
import uvicorn

from gateway.httpserver import CombiningHttpToolsProtocol, CombiningTransport


class Recording:
    """A transport that records what reaches it."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.events: list[str] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))
        self.events.append("write")

    def close(self) -> None:
        self.closing = True
        self.events.append("close")

    def abort(self) -> None:
        self.closing = True
        self.events.append("abort")

    def write_eof(self) -> None:
        self.events.append("eof")

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return 7

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 1234) if name == "peername" else default


async def test_writes_of_one_turn_leave_as_one_write_after_the_turn() -> None:
    rec = Recording()
    t = CombiningTransport(rec, asyncio.get_running_loop())  # type: ignore[arg-type]
    t.write(b"HTTP/1.1 200 OK\r\n\r\n")
    t.write(b"{}")
    assert rec.writes == []  # still this turn
    assert t.get_write_buffer_size() == 21 + 7
    await asyncio.sleep(0)
    assert rec.writes == [b"HTTP/1.1 200 OK\r\n\r\n{}"]


async def test_writes_of_separate_turns_are_not_held_for_each_other() -> None:
    rec = Recording()
    t = CombiningTransport(rec, asyncio.get_running_loop())  # type: ignore[arg-type]
    t.write(b"a")
    await asyncio.sleep(0)
    assert rec.writes == [b"a"]
    t.write(b"b")
    await asyncio.sleep(0)
    assert rec.writes == [b"a", b"b"]


async def test_close_sends_what_is_held_first_and_abort_drops_it() -> None:
    rec = Recording()
    loop = asyncio.get_running_loop()
    t = CombiningTransport(rec, loop)  # type: ignore[arg-type]
    t.write(b"last bytes")
    t.close()
    assert rec.events == ["write", "close"] and rec.writes == [b"last bytes"]
    await asyncio.sleep(0)  # the scheduled flush finds nothing more
    assert rec.writes == [b"last bytes"]

    rec2 = Recording()
    t2 = CombiningTransport(rec2, loop)  # type: ignore[arg-type]
    t2.write(b"never")
    t2.abort()
    await asyncio.sleep(0)
    assert rec2.events == ["abort"] and rec2.writes == []


async def test_a_closed_transport_gets_no_late_write_and_the_rest_is_delegated() -> None:
    rec = Recording()
    t = CombiningTransport(rec, asyncio.get_running_loop())  # type: ignore[arg-type]
    t.write(b"x")
    rec.closing = True  # the peer went away within the turn
    await asyncio.sleep(0)
    assert rec.writes == []
    assert t.get_extra_info("peername") == ("127.0.0.1", 1234)
    assert t.is_closing() is True
    t.write(b"y")
    t.write_eof()
    assert rec.events == ["eof"]


# ---- a real uvicorn server on a real socket ------------------------------------------------


class Counting(CombiningHttpToolsProtocol):
    """Counts the writes that reach the socket's transport."""

    writes: ClassVar[list[bytes]] = []

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        real_write = transport.write

        def write(data: bytes | bytearray | memoryview) -> None:
            Counting.writes.append(bytes(data))
            real_write(data)

        transport.write = write  # type: ignore[method-assign]
        super().connection_made(transport)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _serve(app: Any) -> tuple[uvicorn.Server, int, asyncio.Task[None]]:
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            lifespan="off",
            log_level="warning",
            http=Counting,
            ws="none",
        )
    )
    task = asyncio.create_task(server.serve())
    for _ in range(500):  # uvicorn.Server offers no start-up event to wait on
        if server.started:
            break
        await asyncio.sleep(0.01)
    assert server.started, "the test server did not start"
    return server, port, task


async def _read_head(reader: asyncio.StreamReader) -> bytes:
    return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)


async def test_a_whole_answer_leaves_in_one_write_and_arrives_intact() -> None:
    body = b'{"ok":true}'

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    server, port, task = await _serve(app)
    try:
        Counting.writes = []
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(2):  # keep-alive: the second answer too
            writer.write(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
            head = await _read_head(reader)
            assert head.startswith(b"HTTP/1.1 200 OK\r\n")
            assert await asyncio.wait_for(reader.readexactly(len(body)), 5) == body
        writer.close()
        assert len(Counting.writes) == 2  # one per answer, head and body together
        assert all(w.endswith(b"\r\n\r\n" + body) for w in Counting.writes)
    finally:
        server.should_exit = True
        await task


async def test_a_streamed_chunk_is_not_held_for_the_next_one() -> None:
    """The app sends the next chunk only after the client has read the previous one: a chunk
    held back until more is written would never arrive (the test would time out)."""
    read = [asyncio.Event() for _ in range(3)]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream")],
            }
        )
        for i in range(3):
            await send(
                {"type": "http.response.body", "body": b"data: %d\n\n" % i, "more_body": True}
            )
            await read[i].wait()
        await send({"type": "http.response.body", "body": b""})

    server, port, task = await _serve(app)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        head = await _read_head(reader)
        assert b"transfer-encoding: chunked" in head
        for i in range(3):
            size = await asyncio.wait_for(reader.readline(), 5)
            assert int(size, 16) == len(b"data: %d\n\n" % i)
            assert await reader.readexactly(int(size, 16) + 2) == b"data: %d\n\n\r\n" % i
            read[i].set()
        assert await asyncio.wait_for(reader.readline(), 5) == b"0\r\n"
        writer.close()
    finally:
        server.should_exit = True
        await task


async def test_a_head_is_not_held_while_the_app_waits_for_its_body() -> None:
    sent_head = asyncio.Event()
    go = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
        )
        sent_head.set()
        await go.wait()
        await send({"type": "http.response.body", "body": b"ok"})

    server, port, task = await _serve(app)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        head = await _read_head(reader)  # arrives while the body is still being awaited
        assert head.startswith(b"HTTP/1.1 200 OK") and not go.is_set()
        go.set()
        assert await asyncio.wait_for(reader.readexactly(2), 5) == b"ok"
        writer.close()
    finally:
        server.should_exit = True
        await task


@pytest.fixture(autouse=True)
def _reset_counting() -> None:
    Counting.writes = []
