"""What one request may make the gateway hold: body bytes (checked from `Content-Length`
before anything is read, then counted while reading, so a chunked body is stopped at the limit
too and never buffered past it), messages and text characters per request. The head's size,
its field count and the read timeouts are the HTTP protocol's (gateway/httpguard.py)."""

from __future__ import annotations

from dataclasses import dataclass

import orjson
from starlette.types import Message, Receive, Scope, Send

from gateway.core.errors import GatewayError, InvalidRequest
from gateway.core.textplaces import request_texts
from gateway.core.types import ChatRequest
from gateway.settings import Settings

_DEFAULTS = Settings()
_CLOSE_HEADER = (b"connection", b"close")


class BodyTooLarge(GatewayError):
    status = 413
    type = "invalid_request_error"
    code = "request_too_large"


@dataclass(frozen=True, slots=True)
class EdgeLimits:
    max_body_bytes: int = _DEFAULTS.max_body_bytes
    max_messages: int = _DEFAULTS.max_messages
    max_content_parts: int = _DEFAULTS.max_content_parts
    max_request_chars: int = _DEFAULTS.max_request_chars
    max_choices: int = _DEFAULTS.max_choices

    @classmethod
    def of(cls, settings: Settings) -> EdgeLimits:
        return cls(
            settings.max_body_bytes,
            settings.max_messages,
            settings.max_content_parts,
            settings.max_request_chars,
            settings.max_choices,
        )

    def too_large(self) -> BodyTooLarge:
        # answered before the body was read to its end: CloseIfUnread ends the connection
        return BodyTooLarge(f"the request body is larger than {self.max_body_bytes} bytes")

    def check_declared(self, scope: Scope) -> None:
        """413 when the declared `Content-Length` is over the limit (nothing read yet)."""
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return  # the HTTP parser refuses it before the app runs
                if declared > self.max_body_bytes:
                    raise self.too_large()
                return

    def check_body(self, body: bytes) -> None:
        """400 for a body holding more messages or content parts than allowed, before it is
        parsed: parsing 100,000 tiny messages takes the event loop over a second, and 300,000
        content parts take a child seconds to parse and the loop seconds to receive. Each
        message has a `role` key and each part a `type` key, written either as the bytes
        `"role"` / `"type"` (a quote inside a JSON string is escaped, so those bytes are
        always a whole string token) or with a `\\u` escape in them; when those counts cannot
        reach the limits (every ordinary request) nothing else is done, else the messages and
        parts are counted from a plain JSON parse (several times cheaper than validating)."""
        roles = body.count(b'"role"')
        if roles > self.max_messages:
            raise self._too_many(roles, exact=False)
        escapes = body.count(b"\\u")
        types = body.count(b'"type"')
        if roles + escapes <= self.max_messages and types + escapes <= self.max_content_parts:
            return
        try:
            doc = orjson.loads(body)
        except orjson.JSONDecodeError:
            return  # the validation says what is wrong with it
        if not isinstance(doc, dict):
            return
        messages = doc.get("messages")
        if isinstance(messages, list) and len(messages) > self.max_messages:
            raise self._too_many(len(messages), exact=True)
        parts = _content_parts(doc)
        if parts > self.max_content_parts:
            raise InvalidRequest(
                f"too many content parts: {parts} (at most {self.max_content_parts})",
                param="messages",
                code="too_many_content_parts",
            )

    def _too_many(self, count: int, *, exact: bool) -> InvalidRequest:
        what = f"{count} messages" if exact else f"{count} 'role' fields"
        return InvalidRequest(
            f"too many messages: {what} (at most {self.max_messages})",
            param="messages",
            code="too_many_messages",
        )

    def check_chat(self, chat: ChatRequest, body_bytes: int | None = None) -> None:
        """400 when a parsed chat request carries more messages, text or choices than
        allowed. `body_bytes`, the size of the JSON it was parsed from, spares the walk over
        its text when it cannot hold too many characters: a character takes at least one
        byte of JSON (an escape takes six)."""
        if chat.n is not None and chat.n > self.max_choices:
            raise InvalidRequest(
                f"n is {chat.n}: at most {self.max_choices} choices per request",
                param="n",
                code="too_many_choices",
            )
        if len(chat.messages) > self.max_messages:
            raise self._too_many(len(chat.messages), exact=True)
        if body_bytes is not None and body_bytes <= self.max_request_chars:
            return
        chars = sum(len(t) for t in request_texts(chat))
        if chars > self.max_request_chars:
            raise InvalidRequest(
                f"the request carries {chars} characters of text (at most "
                f"{self.max_request_chars})",
                param="messages",
                code="request_too_long",
            )


def _content_parts(doc: dict[str, object]) -> int:
    """The content parts of a request's messages (chat, Anthropic) or input items
    (Responses), and of a system prompt given as blocks."""
    count = 0
    for key in ("messages", "input"):
        items = doc.get(key)
        if isinstance(items, list):
            for item in items:
                content = item.get("content") if isinstance(item, dict) else None
                if isinstance(content, list):
                    count += len(content)
    system = doc.get("system")
    return count + (len(system) if isinstance(system, list) else 0)


async def read_body(scope: Scope, receive: Receive, limits: EdgeLimits) -> bytes | None:
    """The whole body, or None when the client went away; `BodyTooLarge` as soon as the
    declared or the received size passes the limit (what came so far is dropped)."""
    limits.check_declared(scope)
    limit = limits.max_body_bytes
    message = await receive()
    if message["type"] != "http.request":
        return None
    body: bytes = message.get("body", b"")
    if len(body) > limit:
        raise limits.too_large()
    if not message.get("more_body", False):
        return body
    parts, size = [body], len(body)
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise limits.too_large()
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


class LimitedReceive:
    """`receive` for the routes FastAPI serves: counts the body and raises `BodyTooLarge`
    (answered in the OpenAI error shape by the app's error handlers) once it passes the
    limit, so no route can buffer more than the limit."""

    __slots__ = ("_limit", "_limits", "_receive", "_scope", "_size", "done")

    def __init__(self, scope: Scope, receive: Receive, limits: EdgeLimits) -> None:
        self._scope = scope
        self._receive = receive
        self._limits = limits
        self._limit = limits.max_body_bytes
        self._size = -1  # nothing asked yet: the declared length is checked first
        self.done = False  # the whole body was received (or the client left)

    async def __call__(self) -> Message:
        if self._size < 0:
            self._limits.check_declared(self._scope)
            self._size = 0
        message = await self._receive()
        if message["type"] == "http.request":
            self._size += len(message.get("body", b""))
            if self._size > self._limit:
                raise self._limits.too_large()
            if not message.get("more_body", False):
                self.done = True
        else:
            self.done = True
        return message


def has_body(scope: Scope) -> bool:
    """Whether the request declares a body (a length above 0, or a transfer coding)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return value.strip() not in (b"0", b"")
        if name == b"transfer-encoding":
            return True
    return False


class CloseIfUnread:
    """`send` that ends the connection after an answer given before the request body was
    read to its end (a 401 before the body, a 413): otherwise the server would go on reading
    the rest of the body, only to drop it, to keep the connection."""

    __slots__ = ("_receive", "_send")

    def __init__(self, send: Send, receive: LimitedReceive) -> None:
        self._send = send
        self._receive = receive

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start" and not self._receive.done:
            message["headers"] = [*message.get("headers", ()), _CLOSE_HEADER]
        await self._send(message)
