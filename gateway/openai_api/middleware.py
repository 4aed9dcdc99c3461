"""A pure ASGI middleware: gives every request an id, echoes it as `x-request-id`, and turns
any unexpected exception into an OpenAI-shaped 500 (never a stack trace or raw text)."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.core.clock import Clock, IdGenerator

log = logging.getLogger("gateway.api")

INTERNAL_ERROR = orjson.dumps(
    {
        "error": {
            "message": "internal error",
            "type": "api_error",
            "param": None,
            "code": "internal_error",
        }
    }
)


class _SendWithId:
    """`send` that appends `x-request-id` to the response head (a slotted object per request
    instead of a closure cell and a nonlocal)."""

    __slots__ = ("header", "send", "started")

    def __init__(self, send: Send, header: tuple[bytes, bytes]) -> None:
        self.send = send
        self.header = header
        self.started = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
            message["headers"] = [*message.get("headers", ()), self.header]
        await self.send(message)


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp, ids: IdGenerator, clock: Clock) -> None:
        self.app = app
        self.ids = ids
        self.clock = clock

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = self.ids.new_id("req_")
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = rid
        state["received_at"] = self.clock.monotonic()
        sender = _SendWithId(send, (b"x-request-id", rid.encode()))
        try:
            await self.app(scope, receive, sender)
        except Exception as exc:
            log.error("unhandled %s on request %s", type(exc).__name__, rid)
            if sender.started:
                raise
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [(b"content-type", b"application/json"), sender.header],
                }
            )
            await send({"type": "http.response.body", "body": INTERNAL_ERROR})
