"""The Python side of the load: open-loop latency and streaming TTFT, on raw keep-alive
connections (asyncio protocol + httptools, uvloop), so the client adds as little as possible.

  open    fixed arrival rate (open loop: latency counts from the scheduled send time, so a slow
          server cannot hide its queueing), non-streamed requests
  stream  N concurrent streaming clients: time to first token, total time, and the gaps
          between token events (a proxy that holds chunks back shows gaps near 0 and a later
          first token)

Every run is bounded by a request count AND a duration, and stops by itself. It prints one JSON
object. Only loopback targets are accepted.

    python bench/loadgen.py open --url http://127.0.0.1:8080 --model m --rate 25 --duration 8
    python bench/loadgen.py stream --url ... --concurrency 20 --count 400 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httptools
import orjson

try:
    import uvloop
except ImportError:  # pragma: no cover
    uvloop = None  # type: ignore[assignment]

PROMPT = (
    "Merhaba! Önümüzdeki hafta İstanbul'daki ekip toplantısı için kısa bir gündem "
    "hazırlar mısın? Konular: üçüncü çeyrek satış sonuçları, yeni ürün lansmanı, "
    "müşteri geri bildirimleri ve bütçe planlaması. Please keep it under ten bullet "
    "points and add a one-line summary at the end."
)
LOOPBACK = ("127.0.0.1", "localhost", "::1")
# every request's user prompt ends with its own letter code (" (talep kbqa)"): results the
# gateway remembers per exact text (the classifier's cache) then help only the repeated system
# message, as in a real app, never the prompt being measured. post.lua does the same for wrk.
MARK = "@@N@@"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def tag(n: int) -> str:
    """n as a letters-only code (no digits: a number would be a different workload)."""
    out = ""
    while True:
        n, r = divmod(n, 26)
        out += _LETTERS[r]
        if n == 0:
            return out


# the code is glued to "zq": on its own, a letter code spells now and then an abbreviation the
# classifier knows ("ibd", "hiv", "ocd": 81 of the first 20,000 codes), which made 0.4% of
# the hot-path load a special-category topic and sent it to the language-model judge
# (~0.1-0.2 s of one core each); "zq..." is no word
def chat_body(model: str, stream: bool, prompt: str = PROMPT + " (talep zq" + MARK + ")") -> bytes:
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": 64,
        "messages": [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": prompt},
        ],
    }
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return orjson.dumps(body)


def build_request(
    host: str, port: int, path: str, body: bytes, key: str | None, headers: tuple[str, ...] = ()
) -> bytes:
    head = (
        f"POST {path} HTTP/1.1\r\nhost: {host}:{port}\r\n"
        f"content-type: application/json\r\ncontent-length: {len(body)}\r\n"
    )
    if key:
        head += f"authorization: Bearer {key}\r\n"
    head += "".join(f"{h}\r\n" for h in headers)
    return head.encode() + b"\r\n" + body


class Requests:
    """The raw request bytes, with MARK in the body replaced by a per-request code."""

    def __init__(
        self,
        host: str,
        port: int,
        path: str,
        body: bytes,
        key: str | None,
        headers: tuple[str, ...] = (),
    ) -> None:
        self._args = (host, port, path)
        self._headers = headers
        self._head, _, self._tail = body.partition(MARK.encode())
        self._marked = bool(_)
        self._key = key
        self.n = 0

    def next(self) -> bytes:
        body = self._head
        if self._marked:
            body += tag(self.n).encode() + self._tail
        self.n += 1
        return build_request(*self._args, body, self._key, self._headers)


@dataclass
class Exchange:
    sent: float
    status: int = 0
    first_token: float | None = None
    done: float | None = None
    events: list[float] = field(default_factory=list)


class Conn(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection; one exchange at a time."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.current: Exchange | None = None
        self.waiter: asyncio.Future[Exchange] | None = None
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError("connection closed"))

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            if self.waiter is not None and not self.waiter.done():
                self.waiter.set_exception(exc)

    def on_headers_complete(self) -> None:
        if self.current is not None:
            self.current.status = self.parser.get_status_code()

    def on_body(self, body: bytes) -> None:
        ex = self.current
        if ex is None:
            return
        now = time.perf_counter()
        n = body.count(b'"content"')
        if n:
            if ex.first_token is None:
                ex.first_token = now
            ex.events.extend([now] * n)

    def on_message_complete(self) -> None:
        ex = self.current
        if ex is not None:
            ex.done = time.perf_counter()
            self.current = None
            if self.waiter is not None and not self.waiter.done():
                self.waiter.set_result(ex)

    async def exchange(self, request: bytes, sent: float) -> Exchange:
        assert self.transport is not None
        self.current = Exchange(sent=sent)
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return await self.waiter


class Pool:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.idle: list[Conn] = []
        self.all: list[Conn] = []

    async def get(self) -> Conn:
        while self.idle:
            c = self.idle.pop()
            if not c.closed:
                return c
        _, conn = await asyncio.get_running_loop().create_connection(Conn, self.host, self.port)
        self.all.append(conn)
        return conn

    def put(self, c: Conn) -> None:
        if not c.closed:
            self.idle.append(c)

    def close(self) -> None:
        for c in self.all:
            if c.transport is not None:
                c.transport.close()


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def ms(v: float | None) -> float | None:
    return None if v is None else round(v * 1000, 3)


async def run_open(
    host: str,
    port: int,
    path: str,
    body: bytes,
    key: str | None,
    rate: float,
    duration: float,
    count: int,
    timeout: float,
    headers: tuple[str, ...] = (),
) -> dict[str, Any]:
    requests = Requests(host, port, path, body, key, headers)
    pool = Pool(host, port)
    # warm a few connections so the first requests do not pay the TCP handshake
    warm = [await pool.get() for _ in range(4)]
    for c in warm:
        pool.put(c)
    latencies: list[float] = []
    errors = 0
    start = time.perf_counter() + 0.05
    total = min(count, int(rate * duration))

    async def one(at: float) -> None:
        nonlocal errors
        delay = at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        conn = await pool.get()
        try:
            ex = await asyncio.wait_for(conn.exchange(requests.next(), at), timeout)
        except (TimeoutError, ConnectionError, httptools.HttpParserError):
            errors += 1
            return
        pool.put(conn)
        if ex.status != 200 or ex.done is None:
            errors += 1
            return
        latencies.append(ex.done - at)  # from the scheduled time: no coordinated omission

    tasks = [asyncio.create_task(one(start + i / rate)) for i in range(total)]
    await asyncio.wait_for(asyncio.gather(*tasks), duration + timeout + 5)
    pool.close()
    return {
        "mode": "open",
        "rate": rate,
        "requests": len(latencies),
        "errors": errors,
        "p50_ms": ms(pct(latencies, 50)),
        "p99_ms": ms(pct(latencies, 99)),
        "max_ms": ms(max(latencies) if latencies else None),
    }


async def run_stream(
    host: str,
    port: int,
    path: str,
    body: bytes,
    key: str | None,
    concurrency: int,
    duration: float,
    count: int,
    timeout: float,
    headers: tuple[str, ...] = (),
) -> dict[str, Any]:
    requests = Requests(host, port, path, body, key, headers)
    pool = Pool(host, port)
    ttft: list[float] = []
    total: list[float] = []
    gaps: list[float] = []
    tokens: list[int] = []
    errors = 0
    issued = 0
    stop_at = time.perf_counter() + duration

    async def worker() -> None:
        nonlocal errors, issued
        while issued < count and time.perf_counter() < stop_at:
            issued += 1
            conn = await pool.get()
            sent = time.perf_counter()
            try:
                ex = await asyncio.wait_for(conn.exchange(requests.next(), sent), timeout)
            except (TimeoutError, ConnectionError, httptools.HttpParserError):
                errors += 1
                continue
            pool.put(conn)
            if ex.status != 200 or ex.first_token is None or ex.done is None:
                errors += 1
                continue
            ttft.append(ex.first_token - sent)
            total.append(ex.done - sent)
            tokens.append(len(ex.events))
            gaps.extend(b - a for a, b in zip(ex.events, ex.events[1:], strict=False))

    await asyncio.wait_for(
        asyncio.gather(*(worker() for _ in range(concurrency))), duration + timeout + 5
    )
    pool.close()
    return {
        "mode": "stream",
        "concurrency": concurrency,
        "streams": len(ttft),
        "errors": errors,
        "ttft_p50_ms": ms(pct(ttft, 50)),
        "ttft_p99_ms": ms(pct(ttft, 99)),
        "total_p50_ms": ms(pct(total, 50)),
        "total_p99_ms": ms(pct(total, 99)),
        "gap_p50_ms": ms(pct(gaps, 50)),
        "gap_p10_ms": ms(pct(gaps, 10)),
        "token_events_p50": pct([float(t) for t in tokens], 50),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="bounded load for the Geçit benchmark")
    ap.add_argument("mode", choices=["open", "stream"])
    ap.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:8080")
    ap.add_argument("--model", default="mock-model")
    ap.add_argument("--key", help="API key sent as a bearer token")
    ap.add_argument(
        "--header",
        action="append",
        default=[],
        help="'name: value' sent with every request (repeatable)",
    )
    ap.add_argument("--rate", type=float, default=25.0, help="open: requests per second")
    ap.add_argument("--concurrency", type=int, default=20, help="stream: parallel streams")
    ap.add_argument("--duration", type=float, default=8.0, help="upper bound, seconds")
    ap.add_argument("--count", type=int, default=1000, help="upper bound, requests")
    ap.add_argument("--timeout", type=float, default=10.0, help="per request, seconds")
    a = ap.parse_args(argv)
    u = urlsplit(a.url)
    if u.hostname not in LOOPBACK:
        ap.error("load is only ever sent to loopback addresses")
    host, port = u.hostname or "127.0.0.1", u.port or 80
    path = (u.path.rstrip("/") or "") + "/v1/chat/completions"
    body = chat_body(a.model, a.mode == "stream")
    if a.mode == "open":
        coro = run_open(
            host, port, path, body, a.key, a.rate, a.duration, a.count, a.timeout, tuple(a.header)
        )
    else:
        coro = run_stream(
            host,
            port,
            path,
            body,
            a.key,
            a.concurrency,
            a.duration,
            a.count,
            a.timeout,
            tuple(a.header),
        )
    result = uvloop.run(coro) if uvloop is not None else asyncio.run(coro)
    sys.stdout.write(orjson.dumps(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
