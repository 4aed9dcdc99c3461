"""The HTTP protocol's own limits: what a connection may make the server hold or wait for
before the application sees a request.

- The head (request line + header fields) is counted while it arrives, before the parser sees
  it: httptools accumulates a header field in memory until it ends, so a 16 MB field would be
  held whole (and re-concatenated piece by piece) before any callback could refuse it. Past
  `max_header_bytes` the answer is 431, as it is past `max_headers` fields.
- The whole head must arrive within `head_timeout_s` of the connection opening (or of its
  first byte after a keep-alive pause), the whole body within `body_timeout_s` of the head's
  end. A client trickling a byte at a time keeps no connection, file descriptor or task past
  them: an idle-gap timeout would be reset by every byte.

Refusals are answered in the OpenAI error shape and close the connection. The body's size is
the application's to count (gateway/openai_api/limits.py): uvicorn stops reading past 64 KiB
until the application asks for more, so the protocol never holds more than that.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import orjson
from uvicorn.protocols.http.flow_control import HIGH_WATER_LIMIT

from gateway.httpserver import CombiningHttpToolsProtocol
from gateway.settings import Settings

_REASONS = {
    408: b"Request Timeout",
    413: b"Content Too Large",
    431: b"Request Header Fields Too Large",
}
_TERMINATOR = b"\r\n\r\n"
_LINGER_S = 1.0  # how long a refused connection is drained before it is closed


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    max_header_bytes: int
    max_headers: int
    head_timeout_s: float
    body_timeout_s: float

    @classmethod
    def of(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            settings.max_header_bytes,
            settings.max_headers,
            settings.head_timeout_s,
            settings.body_timeout_s,
        )


def refusal(status: int, message: str, code: str) -> bytes:
    """A whole HTTP/1.1 answer in the OpenAI error shape that closes the connection."""
    body = orjson.dumps(
        {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": None,
                "code": code,
            }
        }
    )
    return (
        b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
        b"connection: close\r\n\r\n" % (status, _REASONS[status], len(body))
    ) + body


class _Refused(Exception):
    """Raised from a parser callback to stop parsing; uvicorn then calls
    `send_400_response`, which sends the refusal instead."""


class GuardedHttpToolsProtocol(CombiningHttpToolsProtocol):
    """Pass as `uvicorn.Config(http=functools.partial(GuardedHttpToolsProtocol,
    limits=ConnectionLimits(...)))`."""

    def __init__(self, *args: Any, limits: ConnectionLimits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._limits = limits
        self._in_head = True  # between messages or inside a head
        self._head_seen = 0
        self._tail = b""  # the last bytes of the head so far: a terminator may straddle reads
        self._timer: asyncio.TimerHandle | None = None
        self._refusal: bytes | None = None

    # ---- the connection --------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self._limits.head_timeout_s, self._head_expired)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refusal is not None:
            return  # refused: the connection is closing, nothing more is parsed
        if self._in_head:
            if self._timer is None:  # the first byte after a keep-alive pause
                self._arm(self._limits.head_timeout_s, self._head_expired)
            if not self._head_fits(data):
                self._refuse(
                    431,
                    f"the request head is larger than {self._limits.max_header_bytes} bytes",
                    "request_header_too_large",
                )
                return
        super().data_received(data)

    def _head_fits(self, data: bytes) -> bool:
        limit = self._limits.max_header_bytes
        seen = self._head_seen + len(data)
        if seen <= limit:
            self._head_seen = seen
            self._tail = (self._tail + data)[-3:]
            return True
        # over the limit only if the head does not end within it (the rest is body)
        probe = self._tail + data
        end = probe.find(_TERMINATOR)
        if end < 0 or self._head_seen - len(self._tail) + end + 4 > limit:
            return False
        self._head_seen = seen
        return True

    # ---- parser callbacks ------------------------------------------------------------------
    def on_headers_complete(self) -> None:
        # the fields are counted once the head is in, not per field: the head's byte limit
        # already bounds how many there can be, and a callback per field costs every request
        if len(self.headers) > self._limits.max_headers:
            self._refusal = refusal(
                431, f"more than {self._limits.max_headers} header fields", "too_many_headers"
            )
            raise _Refused
        self._in_head = False
        self._head_seen, self._tail = 0, b""
        self._arm(self._limits.body_timeout_s, self._body_expired)
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            held = len(cycle.body) + len(body)
            if held < HIGH_WATER_LIMIT:
                # held until the body ends or a full read's worth arrived: the application's
                # task is woken once per 64 KiB, not once per segment (a client trickling a
                # byte at a time would wake it for every byte, a thousand of them every turn)
                cycle.body += body
                return
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._in_head = True
        self._disarm()  # the next head's clock starts with its first byte
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        refused = self._refusal
        if refused is None:
            super().send_400_response(msg)
            return
        self._send_and_linger(refused)

    # ---- timeouts --------------------------------------------------------------------------
    def _arm(self, delay: float, expired: Any) -> None:
        self._disarm()
        self._timer = self.loop.call_later(delay, expired)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _head_expired(self) -> None:
        self._timer = None
        if self._head_seen or self._tail:
            self._refuse(408, "the request head did not arrive in time", "request_timeout")
        elif not self.transport.is_closing():
            self.transport.close()  # nothing was sent at all: just close

    def _body_expired(self) -> None:
        self._timer = None
        cycle = self.cycle
        if cycle is not None and cycle.response_started:
            self.transport.close()  # too late for an answer: just end the connection
            return
        self._refuse(408, "the request body did not arrive in time", "request_timeout")

    def _refuse(self, status: int, message: str, code: str) -> None:
        self._refusal = refusal(status, message, code)
        self._send_and_linger(self._refusal)

    def _send_and_linger(self, answer: bytes) -> None:
        """Send `answer`, end our side, and close a moment later. Closing at once while the
        client is still sending makes the kernel answer with a reset, which can destroy the
        answer before the client reads it; meanwhile what arrives is read and dropped."""
        self._disarm()
        transport = self.transport
        if transport.is_closing():
            return
        transport.write(answer)
        if transport.can_write_eof():
            transport.write_eof()
        self.flow.resume_reading()
        self._timer = self.loop.call_later(_LINGER_S, transport.close)
