"""Chat orchestration: route, dispatch, settle usage, record. The HTTP edge stays thin."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

from gateway.core.clock import Clock
from gateway.core.errors import FailureKind, GatewayError, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult, RequestContext, Usage
from gateway.providers.tokens import estimate_prompt_tokens, estimate_text_tokens
from gateway.service.decision import RouteDecision
from gateway.service.dispatcher import Dispatcher, Outcome
from gateway.usage.records import UsageRecord


class Router(Protocol):
    def route(self, ctx: RequestContext, request: ChatRequest) -> RouteDecision: ...


class Sink(Protocol):
    def record(self, rec: UsageRecord) -> None: ...


@dataclass(slots=True)
class StreamHandle:
    """An opened stream. `usage` is set once `chunks` has been consumed to the end."""

    decision: RouteDecision
    outcome: Outcome
    chunks: AsyncIterator[ChatChunk]
    usage: Usage | None = None


@dataclass(slots=True)
class Served:
    """A non-streamed answer with what the edge needs for headers."""

    result: ChatResult
    usage: Usage
    decision: RouteDecision
    outcome: Outcome


class ChatService:
    def __init__(self, router: Router, dispatcher: Dispatcher, sink: Sink, clock: Clock) -> None:
        self._router = router
        self._dispatcher = dispatcher
        self._sink = sink
        self._clock = clock

    def decide(self, ctx: RequestContext, request: ChatRequest) -> RouteDecision:
        try:
            return self._router.route(ctx, request)
        except GatewayError as exc:
            self._record(ctx, request, None, Outcome(), None, exc.status, _code(exc), False)
            raise

    async def complete(self, ctx: RequestContext, request: ChatRequest) -> Served:
        decision = self.decide(ctx, request)
        outcome = Outcome()
        try:
            result = await self._dispatcher.complete(decision.alias, decision.candidates,
                                                     request, outcome)
        except GatewayError as exc:
            self._record(ctx, request, decision, outcome, None, exc.status, _code(exc), False)
            raise
        except ProviderError as exc:
            self._record(ctx, request, decision, outcome, None, 502, exc.kind.value, False)
            raise
        usage = result.usage or Usage(
            prompt_tokens=estimate_prompt_tokens(request),
            completion_tokens=estimate_text_tokens(result.text or ""), estimated=True)
        self._record(ctx, request, decision, outcome, usage, 200, None, False, model=result.model)
        return Served(result=result, usage=usage, decision=decision, outcome=outcome)

    async def open_stream(self, ctx: RequestContext, request: ChatRequest) -> StreamHandle:
        decision = self.decide(ctx, request)
        outcome = Outcome()
        try:
            first, rest = await self._dispatcher.open_stream(decision.alias, decision.candidates,
                                                             request, outcome)
        except GatewayError as exc:
            self._record(ctx, request, decision, outcome, None, exc.status, _code(exc), True)
            raise
        except ProviderError as exc:
            self._record(ctx, request, decision, outcome, None, 502, exc.kind.value, True)
            raise
        handle = StreamHandle(decision, outcome, _empty())
        handle.chunks = self._settle(ctx, request, handle, first, rest)
        return handle

    async def _settle(self, ctx: RequestContext, request: ChatRequest, handle: StreamHandle,
                      first: ChatChunk, rest: AsyncIterator[ChatChunk]
                      ) -> AsyncIterator[ChatChunk]:
        decision, outcome = handle.decision, handle.outcome
        usage: Usage | None = None
        pieces = 0
        chars: list[str] = []
        status, error = 200, None
        try:
            chunk = first
            while True:
                if chunk.usage is not None:
                    usage = chunk.usage
                if chunk.text:
                    pieces += 1
                    chars.append(chunk.text)
                yield chunk
                try:
                    chunk = await rest.__anext__()
                except StopAsyncIteration:
                    break
        except ProviderError as exc:
            status, error = 502, (exc.kind.value if exc.kind != FailureKind.INTERRUPTED
                                  else "interrupted")
            raise
        except BaseException:  # client went away (cancelled) or the server is stopping
            status, error = 499, "client_closed"
            raise
        finally:
            if usage is None:
                text = "".join(chars)
                completion = pieces if pieces else estimate_text_tokens(text)
                usage = Usage(prompt_tokens=estimate_prompt_tokens(request),
                              completion_tokens=completion, estimated=True)
            handle.usage = usage
            self._record(ctx, request, decision, outcome, usage, status, error, True)

    def _record(self, ctx: RequestContext, request: ChatRequest, decision: RouteDecision | None,
                outcome: Outcome, usage: Usage | None, status: int, error: str | None,
                streamed: bool, model: str | None = None) -> None:
        now = self._clock.monotonic()
        ttft = None
        if outcome.first_chunk_at is not None:
            ttft = (outcome.first_chunk_at - ctx.received_at) * 1000
        rec = UsageRecord(
            request_id=ctx.request_id, created_at=self._clock.now(), alias=request.model,
            status=status, tenant=ctx.tenant, app=ctx.app, key_id=ctx.key_id,
            backend=outcome.backend, model=model,
            data_class=decision.data_class if decision else None,
            rule=decision.rule if decision else None, error_kind=error,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            cached_tokens=usage.cached_tokens if usage else 0,
            estimated=usage.estimated if usage else False, streamed=streamed,
            latency_ms=(now - ctx.received_at) * 1000,
            ttft_ms=ttft if streamed else (now - ctx.received_at) * 1000 if usage else None,
            attempts=outcome.attempts, trace=decision.trace() if decision else None,
        )
        self._sink.record(rec)


async def _empty() -> AsyncIterator[ChatChunk]:
    return
    yield  # pragma: no cover


def _code(exc: GatewayError) -> str:
    return exc.code or exc.type
