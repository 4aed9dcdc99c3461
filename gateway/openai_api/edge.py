"""The lean edge: `POST /v1/chat/completions`, `GET /healthz` and `GET /readyz` answered with raw
ASGI messages, in front of FastAPI (which serves every other route).

Same behaviour as the FastAPI handlers (same status codes, OpenAI error bodies, headers,
`x-request-id`, SSE framing, disconnect handling, ledger rows), without the per-request layers
that cost more than the work itself there: Starlette's middleware stack, routing, `Request`
objects, dependency solving and response classes. A route not listed here goes to FastAPI
through `RequestIdMiddleware` as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import orjson
from starlette.types import Message, Receive, Scope, Send

from gateway.core.clock import Clock, IdGenerator
from gateway.core.errors import GatewayError, ProviderError
from gateway.core.types import RequestContext
from gateway.fleet.choice import node_for
from gateway.openai_api.auth import client_of, split_headers
from gateway.openai_api.errors import from_provider
from gateway.openai_api.handlers import sse_events
from gateway.openai_api.intake import parse_limited
from gateway.openai_api.limits import BodyTooLarge, EdgeLimits, has_body, read_body
from gateway.openai_api.middleware import INTERNAL_ERROR
from gateway.openai_api.wire import ChunkEncoder, completion_json
from gateway.service.decision import RouteDecision

if TYPE_CHECKING:
    from gateway.runtime import Runtime

log = logging.getLogger("gateway.api")

Headers = list[tuple[bytes, bytes]]
_JSON = (b"content-type", b"application/json")
_SSE_HEADERS: Headers = [
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
    (b"content-type", b"text/event-stream; charset=utf-8"),
]
_HEALTHY = b'{"status":"ok"}'
_END: Message = {"type": "http.response.body", "body": b"", "more_body": False}
_CLOSE = (b"connection", b"close")


def route_header_list(decision: RouteDecision, backend: str | None, attempts: int) -> Headers:
    """`handlers.route_headers` as raw ASGI headers."""
    h = [(b"x-gecit-attempts", str(attempts).encode())]
    if backend:
        h.append((b"x-gecit-backend", backend.encode("latin-1")))
    if decision.data_class:
        h.append((b"x-gecit-data-class", decision.data_class.encode("latin-1")))
    if decision.rule:
        h.append((b"x-gecit-rule", decision.rule.encode("latin-1")))
    node = node_for(backend)
    if node is not None:
        h.append((b"x-gecit-node", node.node.encode("latin-1")))
    h += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in decision.headers]
    return h


def _error_message(
    exc: GatewayError, rid_header: tuple[bytes, bytes], unread: bool = False
) -> tuple[Message, Message]:
    """`errors.error_response` as (start, body) messages; `unread`: answered before the
    request's body was read to its end, so the connection ends (the rest is never read)."""
    body = orjson.dumps(exc.body())
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in exc.headers.items()]
    headers += [(b"content-length", str(len(body)).encode()), _JSON, rid_header]
    if unread:
        headers.append(_CLOSE)
    return (
        {"type": "http.response.start", "status": exc.status, "headers": headers},
        {"type": "http.response.body", "body": body},
    )


class LeanEdge:
    """Serves the hot routes; `routes` maps (method, path) to the handler."""

    def __init__(
        self,
        runtime: Callable[[], Runtime],
        ids: IdGenerator,
        clock: Clock,
        limits: EdgeLimits | None = None,
    ) -> None:
        self._runtime = runtime
        self._ids = ids
        self._clock = clock
        self._limits = limits or EdgeLimits()
        self.routes: dict[tuple[str, str], Callable[[Scope, Receive, Send], Awaitable[None]]] = {
            ("POST", "/v1/chat/completions"): self.chat,
            ("GET", "/healthz"): self.healthz,
            ("GET", "/readyz"): self.readyz,
        }

    # ---- GET /healthz, /readyz -------------------------------------------------------------
    async def healthz(self, scope: Scope, receive: Receive, send: Send) -> None:
        rid = self._ids.new_id("req_")
        headers = [(b"content-length", b"15"), _JSON, (b"x-request-id", rid.encode())]
        if has_body(scope):
            headers.append(_CLOSE)  # a body is never read here: the connection ends
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": _HEALTHY})

    async def readyz(self, scope: Scope, receive: Receive, send: Send) -> None:
        rid_header = (b"x-request-id", self._ids.new_id("req_").encode())
        try:
            ready, report = await self._runtime().readiness_report()
        except Exception as exc:
            await self._internal(send, exc, rid_header)
            return
        body = orjson.dumps(report)
        headers = [(b"content-length", str(len(body)).encode()), _JSON, rid_header]
        if has_body(scope):
            headers.append(_CLOSE)  # a body is never read here: the connection ends
        await send(
            {"type": "http.response.start", "status": 200 if ready else 503, "headers": headers}
        )
        await send({"type": "http.response.body", "body": body})

    # ---- POST /v1/chat/completions ---------------------------------------------------------
    async def chat(self, scope: Scope, receive: Receive, send: Send) -> None:
        received = self._clock.monotonic()
        rid = self._ids.new_id("req_")
        rid_header = (b"x-request-id", rid.encode())
        watch: _Watch | None = None
        unread = True  # until the whole body is in: an early answer ends the connection
        try:
            # the key before the body: an unknown caller makes the gateway read (and hold)
            # nothing, and leaves no ledger row
            ctx = await self._context(scope, rid, received)
            body = await self._body(scope, receive, ctx)
            if body is None:
                return  # the client went away before sending its body
            unread = False
            watch = _Watch.start(receive)  # from here a client that leaves cancels the work
            answer = await self._chat(ctx, body, rid_header)
        except GatewayError as exc:
            answer = _error_message(exc, rid_header, unread)
        except ProviderError as exc:
            answer = _error_message(from_provider(exc), rid_header)
        except asyncio.CancelledError:
            if watch is None or not watch.gone:
                if watch is not None:
                    watch.stop()
                raise
            asyncio.current_task().uncancel()  # type: ignore[union-attr]
            return  # the client left: the service wrote the ledger row (499)
        except Exception as exc:
            if watch is not None:
                watch.stop()
            await self._internal(send, exc, rid_header, unread)
            return
        if isinstance(answer, _Stream):
            assert watch is not None
            # once the head has gone out an exception goes to the server (it logs it and
            # closes the connection), as it did through StreamingResponse
            await _stream(watch, send, answer.headers, answer.events)
            return
        if watch is not None:
            watch.stop()
        await send(answer[0])
        await send(answer[1])

    async def _context(self, scope: Scope, rid: str, received: float) -> RequestContext:
        auth = self._runtime().auth  # gateway.openai_api.auth.Authenticator
        if auth is None:
            return RequestContext(request_id=rid, received_at=received)
        token, headers = split_headers(scope["headers"])
        ctx: RequestContext = await auth.context_for(
            rid, received, token, headers, client_of(scope)
        )
        return ctx

    async def _body(self, scope: Scope, receive: Receive, ctx: RequestContext) -> bytes | None:
        try:
            return await read_body(scope, receive, self._limits)
        except BodyTooLarge as exc:
            self._runtime().chat.record_rejected(ctx, "", exc)
            raise

    async def _chat(
        self, ctx: RequestContext, body: bytes, rid_header: tuple[bytes, bytes]
    ) -> tuple[Message, Message] | _Stream:
        """(start, body) of a whole answer, or an opened stream."""
        rt = self._runtime()
        service = rt.chat
        chat = await parse_limited(body, self._limits, ctx, service, rt.body_offload)
        created = int(rt.clock.now())
        cid = "chatcmpl-" + ctx.request_id.removeprefix("req_")
        if chat.stream:
            handle = await service.open_stream(ctx, chat)
            headers_out = route_header_list(
                handle.decision, handle.outcome.backend, handle.outcome.tried
            )
            headers_out += _SSE_HEADERS
            headers_out.append(rid_header)
            return _Stream(
                headers_out,
                sse_events(
                    handle, ChunkEncoder(cid, created, chat.model), chat.wants_usage_in_stream
                ),
            )
        served = await service.complete(ctx, chat)
        headers_out = route_header_list(
            served.decision, served.outcome.backend, served.outcome.tried
        )
        if served.cost_usd is not None:
            headers_out.append((b"x-gecit-cost-usd", str(served.cost_usd).encode()))
        out = completion_json(cid, created, chat.model, served.choices, served.usage)
        headers_out += [(b"content-length", str(len(out)).encode()), _JSON, rid_header]
        return (
            {"type": "http.response.start", "status": 200, "headers": headers_out},
            {"type": "http.response.body", "body": out},
        )

    @staticmethod
    async def _internal(
        send: Send, exc: Exception, rid_header: tuple[bytes, bytes], unread: bool = False
    ) -> None:
        """What RequestIdMiddleware answers for an unexpected exception."""
        log.error("unhandled %s on request %s", type(exc).__name__, rid_header[1].decode())
        headers = [_JSON, rid_header, _CLOSE] if unread else [_JSON, rid_header]
        await send({"type": "http.response.start", "status": 500, "headers": headers})
        await send({"type": "http.response.body", "body": INTERNAL_ERROR})


class _Stream:
    __slots__ = ("events", "headers")

    def __init__(self, headers: Headers, events: AsyncGenerator[bytes, None]) -> None:
        self.headers = headers
        self.events = events


class _Watch:
    """Cancels the request's task when the client disconnects (what StreamingResponse does
    with its task group under ASGI spec < 2.4, e.g. uvicorn's 2.3); started once the body is
    read, so a client that leaves while the upstream call runs (before its first token, or
    during a whole answer) stops that call too."""

    __slots__ = ("gone", "task", "watcher")

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.gone = False
        self.watcher: asyncio.Future[None] | None = None

    @classmethod
    def start(cls, receive: Receive) -> _Watch:
        task = asyncio.current_task()
        assert task is not None
        watch = cls(task)
        watch.watcher = asyncio.ensure_future(watch.run(receive))
        return watch

    def stop(self) -> None:
        """Before the answer's last message: its completion must not look like a leave."""
        if self.watcher is not None:
            self.watcher.cancel()
            self.watcher = None

    async def run(self, receive: Receive) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                if self.watcher is not None:  # not stopped: the client left mid-request
                    self.gone = True
                    self.task.cancel()
                return


async def _stream(
    watch: _Watch, send: Send, headers: Headers, events: AsyncGenerator[bytes, None]
) -> None:
    task = watch.task
    try:
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        async for data in events:
            await send({"type": "http.response.body", "body": data, "more_body": True})
        watch.stop()
        await send(_END)
    except asyncio.CancelledError:
        if not watch.gone:
            raise
        task.uncancel()  # the client left: the stream's ledger row says 499
    finally:
        watch.stop()
        await events.aclose()
