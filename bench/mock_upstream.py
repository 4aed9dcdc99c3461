"""A fast mock OpenAI upstream for the benchmark: raw asyncio protocol + httptools on uvloop.

It is deliberately not FastAPI/Starlette: the mock must never be the bottleneck of the thing
it measures (one core of it serves tens of thousands of small requests per second).

  POST /v1/chat/completions   JSON answer, or SSE when the body asks `"stream": true`:
                              first token after --ttft-ms, then one event per token every
                              --itl-ms, the finish chunk, a usage chunk, `data: [DONE]`
  GET  /v1/models             one model (--model)
  GET  /health                200

Non-streamed answers wait --delay-ms (default 0: answer at once). Every event of a stream
carries the mock's send time in microseconds (`"t": ...` in the chunk id) so a client can see
whether a proxy in between held chunks back.

    python bench/mock_upstream.py --port 9101 [--tokens 16 --ttft-ms 5 --itl-ms 1]
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time
from typing import Any

import httptools
import orjson

try:
    import uvloop
except ImportError:  # pragma: no cover - the project depends on uvicorn[standard]
    uvloop = None  # type: ignore[assignment]


class Config:
    def __init__(
        self, model: str, tokens: int, ttft_ms: float, itl_ms: float, delay_ms: float
    ) -> None:
        self.model = model
        self.tokens = tokens
        self.ttft = ttft_ms / 1000
        self.itl = itl_ms / 1000
        self.delay = delay_ms / 1000
        words = [f"tok{i} " for i in range(tokens)]
        completion = {
            "id": "chatcmpl-mock",
            "object": "chat.completion",
            "created": 1700000000,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "".join(words)},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": 20,
                "completion_tokens": tokens,
                "total_tokens": 20 + tokens,
            },
        }
        self.completion = _response(200, b"application/json", orjson.dumps(completion))
        models = {
            "object": "list",
            "data": [{"id": model, "object": "model", "created": 0, "owned_by": "mock"}],
        }
        self.models = _response(200, b"application/json", orjson.dumps(models))
        self.health = _response(200, b"application/json", b'{"status":"ok"}')
        self.not_found = _response(
            404, b"application/json", b'{"error":{"message":"not found","type":"not_found"}}'
        )
        self.stream_head = (
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
            b"cache-control: no-cache\r\ntransfer-encoding: chunked\r\n\r\n"
        )
        self.words = words
        self.usage_event = _sse(
            {
                "id": "chatcmpl-mock",
                "object": "chat.completion.chunk",
                "created": 1700000000,
                "model": model,
                "choices": [],
                "usage": completion["usage"],
            }
        )
        self.done_event = b"data: [DONE]\n\n"

    def token_event(self, i: int, first: bool) -> bytes:
        delta: dict[str, Any] = {"content": self.words[i]}
        if first:
            delta["role"] = "assistant"
        return _sse(
            {
                "id": f"chatcmpl-mock-t{time.time_ns() // 1000}",
                "object": "chat.completion.chunk",
                "created": 1700000000,
                "model": self.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
            }
        )

    def finish_event(self) -> bytes:
        return _sse(
            {
                "id": "chatcmpl-mock",
                "object": "chat.completion.chunk",
                "created": 1700000000,
                "model": self.model,
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            }
        )


def _response(status: int, ctype: bytes, body: bytes) -> bytes:
    reason = b"OK" if status == 200 else b"Not Found"
    return (
        b"HTTP/1.1 %d %s\r\ncontent-type: %s\r\ncontent-length: %d\r\n\r\n"
        % (status, reason, ctype, len(body))
    ) + body


def _sse(obj: dict[str, Any]) -> bytes:
    return b"data: " + orjson.dumps(obj) + b"\n\n"


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


class MockProtocol(asyncio.Protocol):
    __slots__ = ("_body", "_busy", "_cfg", "_method", "_parser", "_queue", "_transport", "_url")

    def __init__(self, cfg: Config) -> None:
        self._cfg = cfg
        self._parser = httptools.HttpRequestParser(self)
        self._transport: asyncio.Transport | None = None
        self._url = b""
        self._body: list[bytes] = []
        self._queue: list[tuple[bytes, bytes, bytes]] = []
        self._busy = False

    # ---- asyncio.Protocol ------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserError:
            if self._transport is not None:
                self._transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None

    # ---- httptools callbacks ---------------------------------------------------------
    def on_message_begin(self) -> None:
        self._url = b""
        self._body = []

    def on_url(self, url: bytes) -> None:
        self._url += url

    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        method = self._parser.get_method()
        self._queue.append((method, self._url, b"".join(self._body)))
        if not self._busy:
            self._serve_queue()

    # ---- answers ---------------------------------------------------------------------
    def _serve_queue(self) -> None:
        while self._queue and not self._busy:
            method, url, body = self._queue.pop(0)
            self._answer(method, url, body)

    def _answer(self, method: bytes, url: bytes, body: bytes) -> None:
        t = self._transport
        if t is None:
            return
        cfg = self._cfg
        path = url.split(b"?", 1)[0]
        if method == b"POST" and path.endswith(b"/chat/completions"):
            if b'"stream"' in body and _wants_stream(body):
                self._busy = True
                asyncio.get_running_loop().create_task(self._stream())
            elif cfg.delay > 0:
                self._busy = True
                asyncio.get_running_loop().call_later(cfg.delay, self._delayed)
            else:
                t.write(cfg.completion)
        elif path.endswith(b"/models"):
            t.write(cfg.models)
        elif path == b"/health":
            t.write(cfg.health)
        else:
            t.write(cfg.not_found)

    def _delayed(self) -> None:
        self._busy = False
        if self._transport is not None:
            self._transport.write(self._cfg.completion)
        self._serve_queue()

    async def _stream(self) -> None:
        cfg = self._cfg
        try:
            t = self._transport
            if t is None:
                return
            t.write(cfg.stream_head)
            if cfg.ttft > 0:
                await asyncio.sleep(cfg.ttft)
            for i in range(cfg.tokens):
                if i and cfg.itl > 0:
                    await asyncio.sleep(cfg.itl)
                t = self._transport
                if t is None:
                    return
                t.write(_chunk(cfg.token_event(i, i == 0)))
            t = self._transport
            if t is None:
                return
            t.write(_chunk(cfg.finish_event() + cfg.usage_event + cfg.done_event) + b"0\r\n\r\n")
        finally:
            self._busy = False
            self._serve_queue()


def _wants_stream(body: bytes) -> bool:
    try:
        return bool(orjson.loads(body).get("stream"))
    except (orjson.JSONDecodeError, AttributeError):
        return False


async def serve(host: str, port: int, cfg: Config) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: MockProtocol(cfg), host, port, backlog=4096, reuse_address=True
    )
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=9101)
    ap.add_argument("--model", default="mock-model")
    ap.add_argument("--tokens", type=int, default=16, help="completion tokens per answer")
    ap.add_argument("--ttft-ms", type=float, default=5.0, help="streams: delay to first token")
    ap.add_argument("--itl-ms", type=float, default=1.0, help="streams: delay between tokens")
    ap.add_argument("--delay-ms", type=float, default=0.0, help="non-streamed answers: delay")
    a = ap.parse_args()
    if a.host not in ("127.0.0.1", "localhost", "::1"):
        ap.error("the mock only listens on loopback")
    cfg = Config(a.model, a.tokens, a.ttft_ms, a.itl_ms, a.delay_ms)
    if uvloop is not None:
        uvloop.run(serve(a.host, a.port, cfg))
    else:
        asyncio.run(serve(a.host, a.port, cfg))


if __name__ == "__main__":
    main()
