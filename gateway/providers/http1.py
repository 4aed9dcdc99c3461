"""A lean pooled HTTP/1.1 client (asyncio protocol + httptools) for the hottest upstream calls.

Why not httpx there: measured on the 2-core CI-like machine (bench/), one
`httpx.AsyncClient.post` to a local server costs about 3 ms of CPU at concurrency 1 and 4.7 ms at
concurrency 50 (httpcore checks every pooled connection's socket on each request); the client
layer alone, over a no-op transport, costs 0.32 ms. This client costs about 0.05-0.1 ms. It
does only what the OpenAI-style adapters need: keep-alive connections to one origin, fixed
headers, a bytes body, content-length or chunked answers (whole, or streamed chunk by chunk
as they arrive: nothing is held back), connect/first-byte/read timeouts.

Failures are raised as the matching httpx exceptions (ConnectError, ConnectTimeout,
ReadTimeout, RemoteProtocolError, ReadError), so the adapters' error classification is the
same on both clients. A request on a reused keep-alive connection that the server had already
closed (nothing received) is sent once more on a fresh connection.
"""

from __future__ import annotations

import asyncio
import os
import ssl
from collections import deque
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import httptools
import httpx

from gateway.providers.http1_route import UnsupportedProxy, open_tunnel, route_for

__all__ = ["Http1Pool", "Http1Response", "Http1Stream", "UnsupportedProxy"]


@dataclass(slots=True)
class Http1Response:
    status: int
    headers: dict[str, str]  # lower-case names
    content: bytes


class _Expired(Exception):
    """Set on a wait's future when its timer fires."""


# a timer may fire up to a millisecond early (uvloop's clock and timers count whole
# milliseconds): that close to its time a wait has expired, rather than set the timer again
_SLACK = 0.001


def _bounded(timeout: float | None, deadline: float | None) -> float | None:
    """A wait's timeout, shortened to what is left before the whole exchange's `deadline`
    (loop time); a deadline already passed raises the read timeout at once."""
    if deadline is None:
        return timeout
    left = deadline - asyncio.get_running_loop().time()
    if left <= 0:
        raise httpx.ReadTimeout("the exchange exceeded its total timeout")
    return left if timeout is None or left < timeout else timeout


class _Conn(asyncio.Protocol):
    """One keep-alive connection, one exchange at a time."""

    __slots__ = (
        "_chunks",
        "_done",
        "_error",
        "_expire_at",
        "_headers",
        "_parser",
        "_status",
        "_timer",
        "_timer_at",
        "_waiter",
        "closed",
        "got_bytes",
        "head_ready",
        "keep_alive",
        "transport",
    )

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self._parser = httptools.HttpResponseParser(self)
        self.closed = False
        # one lazy timer per connection for the waits' timeouts (see _wait)
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._expire_at: float | None = None
        self._reset()

    def _reset(self) -> None:
        self._status = 0
        self._headers: dict[str, str] = {}
        self._chunks: deque[bytes] = deque()
        self._done = False
        self._error: BaseException | None = None
        self._waiter: asyncio.Future[None] | None = None
        self.head_ready = False
        self.got_bytes = False
        self.keep_alive = True

    # ---- asyncio.Protocol --------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.got_bytes = True
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserUpgrade:  # pragma: no cover - never asked for
            self._fail(httpx.RemoteProtocolError("unexpected protocol upgrade"))
        except httptools.HttpParserError as exc:
            self._fail(httpx.RemoteProtocolError(f"malformed HTTP answer: {exc}"))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._cancel_timer()
        if not self._done:
            self._fail(httpx.ReadError("connection closed by the server"))

    # ---- httptools callbacks -----------------------------------------------------------
    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_headers_complete(self) -> None:
        self._status = self._parser.get_status_code()
        self.keep_alive = self._parser.should_keep_alive()
        self.head_ready = True
        self._wake()

    def on_body(self, body: bytes) -> None:
        self._chunks.append(body)
        self._wake()

    def on_message_complete(self) -> None:
        self._done = True
        self._wake()

    # ---- helpers -----------------------------------------------------------------------
    def _wake(self) -> None:
        w = self._waiter
        if w is not None and not w.done():
            w.set_result(None)

    def _fail(self, exc: BaseException) -> None:
        if self._error is None:
            self._error = exc
        self.closed = True
        if self.transport is not None:
            self.transport.close()
        self._wake()

    async def _wait(self, timeout: float | None) -> None:
        """Until the parser has news, at most `timeout` seconds.

        The timeout is a lazy timer, not one armed and cancelled per wait (a stream waits once
        per chunk; that was ~2 µs each; an `asyncio.timeout` context per wait had cost
        several % of the gateway's CPU before that): each wait only moves `_expire_at`, and
        the connection's one timer, when it fires, expires the wait then in progress if its
        time has come, or sets itself again for it. A wait that expires sooner than the
        timer is set for sets it earlier."""
        if self._error is not None:
            raise self._error
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        if timeout is None:
            self._expire_at = None
        else:
            at = self._expire_at = loop.time() + timeout
            timer = self._timer
            if timer is None or self._timer_at > at:
                if timer is not None:
                    timer.cancel()
                self._timer = loop.call_at(at, self._on_timer)
                self._timer_at = at
        try:
            await waiter
        except _Expired:
            self._fail(httpx.ReadTimeout("timed out waiting for the server"))
            raise httpx.ReadTimeout("timed out waiting for the server") from None
        finally:
            self._waiter = None

    def _on_timer(self) -> None:
        self._timer = None
        waiter, at = self._waiter, self._expire_at
        if waiter is None or waiter.done() or at is None:
            return  # no wait with a timeout in progress: the timer lapses
        loop = waiter.get_loop()
        if loop.time() + _SLACK >= at:
            waiter.set_exception(_Expired())
        else:  # a later wait moved the expiry on (or the timer fired a little early)
            self._timer = loop.call_at(at, self._on_timer)
            self._timer_at = at

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def send(self, data: bytes) -> None:
        self._reset()
        assert self.transport is not None
        self.transport.write(data)

    async def head(
        self, timeout: float | None, deadline: float | None = None
    ) -> tuple[int, dict[str, str]]:
        while not self.head_ready:
            if self._error is not None:
                raise self._error
            await self._wait(_bounded(timeout, deadline))
        return self._status, self._headers

    async def next_chunk(
        self, timeout: float | None, deadline: float | None = None
    ) -> bytes | None:
        """The next body piece as it arrived (de-chunked), or None at the end."""
        while True:
            if self._chunks:
                return self._chunks.popleft()
            if self._done:
                return None
            if self._error is not None:
                raise self._error
            await self._wait(_bounded(timeout, deadline))

    async def read_all(self, timeout: float | None, deadline: float | None = None) -> bytes:
        parts: list[bytes] = []
        while True:
            chunk = await self.next_chunk(timeout, deadline)
            if chunk is None:
                return b"".join(parts)
            parts.append(chunk)

    @property
    def reusable(self) -> bool:
        return self._done and self.keep_alive and not self.closed and self._error is None

    def close(self) -> None:
        self.closed = True
        self._cancel_timer()
        if self.transport is not None:
            self.transport.close()


class Http1Stream:
    """A streamed answer: `status`, `headers`, then `chunks()`; always `aclose()` it."""

    __slots__ = ("_conn", "_pool", "_read_timeout", "deadline", "headers", "status")

    def __init__(
        self,
        pool: Http1Pool,
        conn: _Conn,
        status: int,
        headers: dict[str, str],
        read_timeout: float | None,
        deadline: float | None = None,
    ) -> None:
        self._pool = pool
        self._conn: _Conn | None = conn
        self.status = status
        self.headers = headers
        self._read_timeout = read_timeout
        # loop time by which the reader wants something (e.g. the first whole event); the
        # reader clears it once it has that, and every later wait has only the read timeout
        self.deadline = deadline

    async def next_chunk(self) -> bytes | None:
        """The next body piece as it arrived (de-chunked), or None at the end."""
        conn = self._conn
        if conn is None:
            return None
        return await conn.next_chunk(self._read_timeout, self.deadline)

    async def chunks(self) -> AsyncIterator[bytes]:
        conn = self._conn
        if conn is None:
            return
        while True:
            chunk = await conn.next_chunk(self._read_timeout, self.deadline)
            if chunk is None:
                return
            yield chunk

    async def aread(self) -> bytes:
        if self._conn is None:
            return b""
        return await self._conn.read_all(self._read_timeout)

    async def aclose(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            self._pool.release(conn)


class Http1Pool:
    """Keep-alive connections to one origin (`base_url`'s scheme, host and port), direct or
    through the proxy the environment names for it (`http1_route`)."""

    def __init__(
        self,
        base_url: str,
        headers: Mapping[str, str] | None = None,
        *,
        max_connections: int = 200,
        ssl_context: ssl.SSLContext | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        u = urlsplit(base_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self._host = u.hostname
        self._port = u.port or (443 if u.scheme == "https" else 80)
        self._ssl: ssl.SSLContext | None = None
        if u.scheme == "https":
            self._ssl = ssl_context or ssl.create_default_context()
        host_header = u.netloc.rsplit("@", 1)[-1]
        fixed = {"host": host_header, "accept-encoding": "identity", **(headers or {})}
        self._route = route_for(
            base_url, u, self._ssl, ssl_context, os.environ if env is None else env
        )
        if self._route.proxy_authorization:
            fixed["proxy-authorization"] = self._route.proxy_authorization
        self._head = "".join(f"{k}: {v}\r\n" for k, v in fixed.items()).encode("latin-1")
        self._idle: list[_Conn] = []
        self._slots = asyncio.Semaphore(max_connections)
        self._all: set[_Conn] = set()

    def _encode(self, method: str, path: str, body: bytes) -> bytes:
        return (
            f"{method} {self._route.target_prefix}{path} HTTP/1.1\r\n".encode("latin-1")
            + self._head
            + b"content-length: %d\r\n\r\n" % len(body)
            + body
        )

    async def _connect(self, timeout: float | None) -> _Conn:
        loop = asyncio.get_running_loop()
        route = self._route
        where = f"{route.dial_host}:{route.dial_port}"
        try:
            async with asyncio.timeout(timeout):
                if route.tunnel is not None:
                    assert self._ssl is not None  # a tunnel is only for an https origin
                    conn = await open_tunnel(loop, route, _Conn, self._ssl, self._host, self._port)
                else:
                    _, conn = await loop.create_connection(
                        _Conn,
                        route.dial_host,
                        route.dial_port,
                        ssl=route.dial_ssl,
                        server_hostname=route.dial_host if route.dial_ssl else None,
                    )
        except TimeoutError:
            raise httpx.ConnectTimeout(f"connect to {where} timed out") from None
        except OSError as exc:
            raise httpx.ConnectError(
                f"cannot connect to {where}: {exc.strerror or type(exc).__name__}"
            ) from None
        self._all.add(conn)
        return conn

    def _take_idle(self) -> _Conn | None:
        while self._idle:
            conn = self._idle.pop()
            if not conn.closed:
                return conn
            self._all.discard(conn)
        return None

    def release(self, conn: _Conn) -> None:
        self._slots.release()
        if conn.reusable:
            self._idle.append(conn)
        else:
            conn.close()
            self._all.discard(conn)

    async def _open(
        self,
        method: str,
        path: str,
        body: bytes,
        connect_timeout: float | None,
        first_byte_timeout: float | None,
        deadline: float | None = None,
    ) -> tuple[_Conn, int, dict[str, str]]:
        """Send the request and wait for the answer's head. The caller owns a slot."""
        data = self._encode(method, path, body)
        conn = self._take_idle()
        reused = conn is not None
        while True:
            if conn is None:
                conn = await self._connect(_bounded(connect_timeout, deadline))
            conn.send(data)
            try:
                status, headers = await conn.head(first_byte_timeout, deadline)
                return conn, status, headers
            except httpx.ReadError:
                conn.close()
                self._all.discard(conn)
                if reused and not conn.got_bytes:  # a stale keep-alive connection: once more
                    conn, reused = None, False
                    continue
                raise
            except BaseException:
                conn.close()
                self._all.discard(conn)
                raise

    async def request(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        *,
        connect_timeout: float | None = None,
        first_byte_timeout: float | None = None,
        total_timeout: float | None = None,
    ) -> Http1Response:
        """One whole exchange. `total_timeout` bounds all of it (waiting for a free
        connection, connecting, the head and the body) with the waits' own timers, not an
        `asyncio.timeout` context per call, which cost ~2 % of the gateway's CPU."""
        deadline = None
        if total_timeout is not None:
            deadline = asyncio.get_running_loop().time() + total_timeout
        await self._acquire(deadline)
        conn: _Conn | None = None
        try:
            conn, status, headers = await self._open(
                method, path, body, connect_timeout, first_byte_timeout, deadline
            )
            content = await conn.read_all(first_byte_timeout, deadline)
            return Http1Response(status, headers, content)
        finally:
            if conn is None:
                self._slots.release()
            else:
                self.release(conn)  # kept only when the answer was read to its end

    async def _acquire(self, deadline: float | None) -> None:
        """A connection slot; waiting for one counts against the deadline."""
        if deadline is None or not self._slots.locked():
            await self._slots.acquire()
            return
        try:
            await asyncio.wait_for(self._slots.acquire(), _bounded(None, deadline))
        except TimeoutError:
            raise httpx.PoolTimeout("no free connection before the total timeout") from None

    async def stream(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        *,
        connect_timeout: float | None = None,
        first_byte_timeout: float | None = None,
        first_data_timeout: float | None = None,
        read_timeout: float | None = None,
    ) -> Http1Stream:
        """Open a streamed exchange (head received); read it with `chunks()`, then `aclose()`.
        `first_data_timeout` starts a deadline (`Http1Stream.deadline`) that bounds opening
        and every read until the reader clears it (e.g. once it has its first event);
        `read_timeout` (default: `first_byte_timeout`) bounds each wait for a body piece."""
        deadline = None
        if first_data_timeout is not None:
            deadline = asyncio.get_running_loop().time() + first_data_timeout
        await self._acquire(deadline)
        try:
            conn, status, headers = await self._open(
                method, path, body, connect_timeout, first_byte_timeout, deadline
            )
        except BaseException:
            self._slots.release()
            raise
        if read_timeout is None:
            read_timeout = first_byte_timeout
        return Http1Stream(self, conn, status, headers, read_timeout, deadline)

    async def aclose(self) -> None:
        for conn in list(self._all):
            conn.close()
        self._all.clear()
        self._idle.clear()
