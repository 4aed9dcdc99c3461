"""A request read from its body within the edge's limits: the one seam every client API's body
goes through (chat, Responses, Anthropic Messages, legacy completions, embeddings).

A body up to `offload_body_bytes` is parsed on the event loop: that is every ordinary request,
and the hot path. A larger one (up to `max_body_bytes`, 8 MiB by default) is parsed, validated,
translated and checked against the limits in a child process (gateway.core.offload):
pydantic-core parses it in one C call that holds the GIL for tens of milliseconds, which would
stall every other connection. The loop only hands over the bytes and takes back the request."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gateway.core.errors import InvalidRequest, ServiceUnavailable
from gateway.core.offload import ChildPool, OffloadFailed
from gateway.core.types import ChatRequest, RequestContext
from gateway.openai_api.chat_options import refuse_unservable
from gateway.openai_api.errors import from_validation
from gateway.openai_api.limits import EdgeLimits
from gateway.openai_api.strict import parse_strict
from gateway.service.chat import ChatService
from gateway.service.embeddings import EmbeddingsRequest, parse_embeddings

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
C = TypeVar("C", bound=ChatRequest | None)


@dataclass(frozen=True, slots=True)
class Refusal:
    """An `InvalidRequest` as data (an exception with keyword fields does not survive the
    trip back from a child); `model` is the alias it named, once it was parsed."""

    message: str
    param: str | None
    code: str | None
    model: str

    @classmethod
    def of(cls, exc: InvalidRequest, model: str = "") -> Refusal:
        return cls(exc.message, exc.param, exc.code, model)

    def error(self) -> InvalidRequest:
        return InvalidRequest(self.message, param=self.param, code=self.code)


@dataclass(frozen=True, slots=True)
class BodyOffload:
    """Bodies larger than `min_bytes` are parsed in `pool`, waiting at most `timeout_s`."""

    pool: ChildPool
    min_bytes: int
    timeout_s: float


def parse_chat(body: bytes) -> ChatRequest:
    try:
        chat = ChatRequest.model_validate_json(body)
    except ValidationError as exc:
        raise from_validation(exc) from None
    refuse_unservable(chat)
    return chat


def checked(body: bytes, limits: EdgeLimits) -> ChatRequest | Refusal:
    """The chat request in `body`, or why it is refused (in a child or on the loop)."""
    model = ""
    try:
        limits.check_body(body)
        chat = parse_chat(body)
        model = chat.model
        limits.check_chat(chat, len(body))
    except InvalidRequest as exc:
        return Refusal.of(exc, model)
    return chat


def translated(
    body: bytes,
    limits: EdgeLimits,
    wire: type[M],
    translate: Callable[[M], C],
) -> tuple[M, C] | Refusal:
    """A client API's body: parsed strictly as `wire`, translated onto chat and the chat
    checked against the limits; or why it is refused. `translate` may answer None when the
    translation needs what only the handler has (a kept conversation): the handler then
    translates and checks it."""
    try:
        limits.check_body(body)  # messages carry a "role": too many are refused unparsed
        req = parse_strict(wire, body)
        chat = translate(req)
        if chat is not None:
            limits.check_chat(chat, len(body))
    except InvalidRequest as exc:
        return Refusal.of(exc)
    return req, chat


async def parse_body(
    body: bytes, offload: BodyOffload | None, parse: Callable[..., T], *args: Any
) -> T:
    """`parse(body, *args)` on the loop for a body up to `offload.min_bytes`, in a child
    process for a larger one. `parse` and its arguments are pickled by reference (module-level
    functions and classes) and it answers a refusal as data (`Refusal`): an exception with
    keyword fields does not come back from a child intact. A child pool that is busy past
    `timeout_s` (or broken) is a 503: the body is never parsed on the loop instead."""
    if offload is None or len(body) <= offload.min_bytes:
        return parse(body, *args)
    try:
        return await offload.pool.run(offload.timeout_s, parse, body, *args)
    except (TimeoutError, OffloadFailed):
        raise ServiceUnavailable(
            "the gateway is busy reading other large requests; retry shortly",
            code="server_busy",
            headers={"retry-after": "1"},
        ) from None


async def parse_limited(
    body: bytes,
    limits: EdgeLimits,
    ctx: RequestContext,
    service: ChatService,
    offload: BodyOffload | None = None,
) -> ChatRequest:
    """The chat request in `body` within the edge's limits; a refusal gets its ledger row."""
    try:
        found = await parse_body(body, offload, checked, limits)
    except ServiceUnavailable as exc:
        service.record_rejected(ctx, "", exc)
        raise
    if isinstance(found, Refusal):
        error = found.error()
        service.record_rejected(ctx, found.model, error)
        raise error
    return found


def embeddings_checked(body: bytes, limits: EdgeLimits) -> EmbeddingsRequest | Refusal:
    """The embeddings request in `body`, its inputs checked as chat messages (their count and
    characters), or why it is refused."""
    try:
        req = parse_embeddings(body)
        limits.check_chat(req.as_chat())
    except InvalidRequest as exc:
        return Refusal.of(exc)
    return req
