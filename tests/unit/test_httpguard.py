"""The HTTP protocol's limits on real sockets: a head too large or with too many fields gets 431
before the application sees it, and connections trickling a head or a body are closed when
their read timeout runs out (an idle-gap timeout would never fire: every byte resets it)."""

from __future__ import annotations

import asyncio
import functools
import socket
from typing import Any

import orjson
import uvicorn

from gateway.httpguard import ConnectionLimits, GuardedHttpToolsProtocol

LIMITS = ConnectionLimits(
    max_header_bytes=4096, max_headers=20, head_timeout_s=0.5, body_timeout_s=0.5
)


class App:
    """Echoes the size of the body it read; counts the requests it saw."""

    def __init__(self) -> None:
        self.seen = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.seen += 1
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            size += len(message.get("body", b""))
            more = message.get("more_body", False)
        body = orjson.dumps({"size": size})
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _serve(app: Any) -> tuple[uvicorn.Server, int, asyncio.Task[None]]:
    port = _free_port()
    protocol = functools.partial(GuardedHttpToolsProtocol, limits=LIMITS)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            lifespan="off",
            log_level="warning",
            http=protocol,  # type: ignore[arg-type]
            ws="none",
        )
    )
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    assert server.started
    return server, port, task


async def _answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, Any], bool]:
    """(status, JSON body, whether the server then closed the connection)."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    status = int(head.split(b" ", 2)[1])
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    body = orjson.loads(await asyncio.wait_for(reader.readexactly(length), 5))
    closed = await asyncio.wait_for(reader.read(1), 5) == b""
    return status, body, closed


async def _stop(server: uvicorn.Server, task: asyncio.Task[None]) -> None:
    server.should_exit = True
    await asyncio.wait_for(task, 10)


async def test_a_head_over_the_byte_limit_gets_431_before_the_app_runs() -> None:
    app = App()
    server, port, task = await _serve(app)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nhost: x\r\nx-big: ")
        for _ in range(64):  # 64 KiB in pieces, never a head end
            writer.write(b"a" * 1024)
            await writer.drain()
        status, body, closed = await _answer(reader)
        assert status == 431 and closed
        assert body["error"]["code"] == "request_header_too_large"
        assert app.seen == 0
        writer.close()
        # a head within the limit followed by a body in the same write is served
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        payload = b"x" * 20_000
        writer.write(
            b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: %d\r\n\r\n" % len(payload) + payload
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 200")
        writer.close()
    finally:
        await _stop(server, task)


async def test_too_many_header_fields_get_431() -> None:
    app = App()
    server, port, task = await _serve(app)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        fields = b"".join(b"x-%d: 1\r\n" % i for i in range(LIMITS.max_headers + 1))
        writer.write(b"GET / HTTP/1.1\r\nhost: x\r\n" + fields + b"\r\n")
        status, body, closed = await _answer(reader)
        assert status == 431 and closed
        assert body["error"]["code"] == "too_many_headers"
        assert app.seen == 0
        writer.close()
    finally:
        await _stop(server, task)


async def _trickle(port: int, first: bytes, stop: asyncio.Event, drip: bool = True) -> bool:
    """Send `first`, then one byte every 50 ms (each would reset an idle timeout), or nothing
    with `drip` off; True when the server closed the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(first)
        while not stop.is_set():
            if reader.at_eof():
                return True
            try:
                if drip:
                    writer.write(b"a")
                    await writer.drain()
            except ConnectionError:
                return True
            try:
                data = await asyncio.wait_for(reader.read(65536), 0.05)
            except TimeoutError:
                continue
            except ConnectionError:
                return True
            if data == b"":
                return True
            while data:  # an answer (408) is read to its end: then the close
                try:
                    data = await asyncio.wait_for(reader.read(65536), 1)
                except (TimeoutError, ConnectionError):
                    return True
            return True
        return False
    finally:
        writer.close()


async def test_connections_trickling_a_head_or_a_body_are_closed() -> None:
    app = App()
    server, port, task = await _serve(app)
    try:
        stop = asyncio.Event()
        heads = [_trickle(port, b"GET / HTTP/1.1\r\nhost: x\r\nx-slow: ", stop) for _ in range(40)]
        bodies = [
            _trickle(port, b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100000\r\n\r\n", stop)
            for _ in range(40)
        ]
        idle = [_trickle(port, b"", stop, drip=False) for _ in range(10)]
        asyncio.get_running_loop().call_later(5, stop.set)
        closed = await asyncio.gather(*heads, *bodies, *idle)
        assert all(closed), f"{closed.count(False)} of {len(closed)} slow connections stayed"
        for _ in range(100):  # the server side ends once each client has closed its side
            if not server.server_state.connections:
                break
            await asyncio.sleep(0.05)
        assert len(server.server_state.connections) == 0
        # and the server still serves a normal request
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 200")
        writer.close()
    finally:
        await _stop(server, task)


async def test_a_body_that_misses_its_timeout_gets_408() -> None:
    app = App()
    server, port, task = await _serve(app)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 10\r\n\r\nabc")
        status, body, closed = await _answer(reader)
        assert status == 408 and closed
        assert body["error"]["code"] == "request_timeout"
        writer.close()
    finally:
        await _stop(server, task)


async def test_a_keep_alive_connection_gets_a_fresh_head_timeout_per_request() -> None:
    app = App()
    server, port, task = await _serve(app)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(3):  # 3 x 0.3 s > one head timeout: each request has its own clock
            await asyncio.sleep(0.3)
            writer.write(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.startswith(b"HTTP/1.1 200")
            await asyncio.wait_for(reader.readexactly(10), 5)
        writer.close()
    finally:
        await _stop(server, task)


class CountingApp(App):
    """App that keeps the size of every body message it received."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[int] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def counted() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                self.messages.append(len(message.get("body", b"")))
            return message

        await super().__call__(scope, counted, send)


async def test_a_trickled_body_wakes_the_app_per_64_kib_or_at_its_end_not_per_piece() -> None:
    """A thousand clients trickling bodies would otherwise wake a thousand tasks per turn."""
    app = CountingApp()
    server, port, task = await _serve(app)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 40\r\n\r\n")
        for _ in range(40):  # a byte at a time, each in its own segment
            writer.write(b"a")
            await writer.drain()
            await asyncio.sleep(0.005)
        status, body, _ = await _answer_open(reader)
        assert status == 200 and body == {"size": 40}
        assert app.messages == [40]  # one wake-up, with the whole body
        app.messages.clear()
        # a large body still flows in full reads: every message but the last is >= 64 KiB
        size = 300_000
        writer.write(b"POST / HTTP/1.1\r\nhost: x\r\ncontent-length: %d\r\n\r\n" % size)
        for _ in range(size // 3000):
            writer.write(b"b" * 3000)
            await writer.drain()
        status, body, _ = await _answer_open(reader)
        assert status == 200 and body == {"size": size}
        assert sum(app.messages) == size
        assert all(n >= 65536 for n in app.messages[:-1]), app.messages
        writer.close()
    finally:
        await _stop(server, task)


async def _answer_open(reader: asyncio.StreamReader) -> tuple[int, dict[str, Any], None]:
    """(status, JSON body) of an answer on a connection that stays open."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    body = orjson.loads(await asyncio.wait_for(reader.readexactly(length), 5))
    return int(head.split(b" ", 2)[1]), body, None
