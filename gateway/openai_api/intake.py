"""A chat request read from its body within the edge's limits.

A body up to `offload_body_bytes` is parsed on the event loop: that is every ordinary request,
and the hot path. A larger one (up to `max_body_bytes`, 8 MiB by default) is parsed, validated
and checked against the limits in a child process (gateway.core.offload): pydantic-core parses
it in one C call that holds the GIL for tens of milliseconds, which would stall every other
connection. The loop only hands over the bytes and takes back the request."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError

from gateway.core.errors import InvalidRequest, ServiceUnavailable
from gateway.core.offload import ChildPool, OffloadFailed
from gateway.core.types import ChatRequest, RequestContext
from gateway.openai_api.chat_options import refuse_unservable
from gateway.openai_api.errors import from_validation
from gateway.openai_api.limits import EdgeLimits
from gateway.service.chat import ChatService


@dataclass(frozen=True, slots=True)
class Refusal:
    """An `InvalidRequest` as data (an exception with keyword fields does not survive the
    trip back from a child); `model` is the alias it named, once it was parsed."""

    message: str
    param: str | None
    code: str | None
    model: str

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
        return Refusal(exc.message, exc.param, exc.code, model)
    return chat


async def parse_limited(
    body: bytes,
    limits: EdgeLimits,
    ctx: RequestContext,
    service: ChatService,
    offload: BodyOffload | None = None,
) -> ChatRequest:
    """The chat request in `body` within the edge's limits; a refusal gets its ledger row.
    A child pool that is busy past `timeout_s` (or broken) is a 503: the body is not parsed
    on the loop instead."""
    if offload is None or len(body) <= offload.min_bytes:
        found = checked(body, limits)
    else:
        try:
            found = await offload.pool.run(offload.timeout_s, checked, body, limits)
        except (TimeoutError, OffloadFailed):
            exc = ServiceUnavailable(
                "the gateway is busy reading other large requests; retry shortly",
                code="server_busy",
                headers={"retry-after": "1"},
            )
            service.record_rejected(ctx, "", exc)
            raise exc from None
    if isinstance(found, Refusal):
        error = found.error()
        service.record_rejected(ctx, found.model, error)
        raise error
    return found
