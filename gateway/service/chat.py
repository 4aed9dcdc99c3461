"""Chat orchestration: classify + route, redact for cloud candidates when the decision says so,
dispatch, restore redacted values in the answer (streamed too), settle usage, record."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from gateway.core.clock import Clock
from gateway.core.errors import (
    Blocked,
    GatewayError,
    InvalidRequest,
    ProviderError,
    ServiceUnavailable,
)
from gateway.core.types import (
    ChatChunk,
    ChatRequest,
    ChatResult,
    RequestContext,
    Usage,
)
from gateway.fleet.choice import node_for
from gateway.providers.tokens import estimate_prompt_tokens, estimate_text_tokens
from gateway.service.admission import Admission, Attribution
from gateway.service.choices import complete_all, open_all, summed
from gateway.service.decision import Dropped, DropReason, RouteDecision
from gateway.service.dispatcher import Dispatcher, Outcome
from gateway.service.restoring import (
    RedactionMapLike,
    restore_result,
    restore_stream,
)
from gateway.service.tally import Tally
from gateway.usage.records import UsageRecord

log = logging.getLogger("gateway.chat")


class Router(Protocol):
    async def route(self, ctx: RequestContext, request: ChatRequest) -> RouteDecision: ...


class Sink(Protocol):
    def record(self, rec: UsageRecord) -> Decimal | None:
        """Queue the ledger row; its cost in USD as the ledger keeps it (None: unknown)."""
        ...


# (request, the routing decision's classification of it or None) -> (redacted copy, map)
Redact = Callable[[ChatRequest, Any], Awaitable[tuple[ChatRequest, RedactionMapLike]]]


@dataclass(slots=True)
class StreamHandle:
    """An opened stream. `usage` is set once `chunks` has been consumed to the end."""

    decision: RouteDecision
    outcome: Outcome
    chunks: AsyncIterator[ChatChunk]
    usage: Usage | None = None
    grant: Any = None  # the rate-limit charge, settled with the stream's real usage
    cost_usd: Decimal | None = None  # set with `usage`: the ledger's cost of the request


@dataclass(slots=True)
class Served:
    """A non-streamed answer with what the edge needs for headers."""

    result: ChatResult
    usage: Usage
    decision: RouteDecision
    outcome: Outcome
    choices: tuple[ChatResult, ...] = ()  # all `n` answers, `result` first
    cost_usd: Decimal | None = None  # the ledger's cost of the request (None: unknown)


@dataclass(slots=True)
class _Prepared:
    decision: RouteDecision
    original: ChatRequest
    redacted: ChatRequest | None = None
    mapping: RedactionMapLike | None = None
    grant: Any = None  # the rate-limit charge (service/ratelimit.Grant)

    def request_for(self, backend: str) -> ChatRequest:
        if self.decision.needs_redaction(backend):
            assert self.redacted is not None  # prepared before dispatch, or backend dropped
            return self.redacted
        return self.original

    def restorer_for(self, backend: str | None) -> RedactionMapLike | None:
        if backend is not None and self.decision.needs_redaction(backend):
            return self.mapping
        return None


INTERNAL = "internal_error"


class ChatService:
    def __init__(
        self,
        router: Router,
        dispatcher: Dispatcher,
        sink: Sink,
        clock: Clock,
        redact: Redact | None = None,
        budgets: Admission | None = None,
        extra: Attribution = Attribution(),
    ) -> None:
        self._budgets = budgets
        self._rates = extra.rates
        self._tagger = extra.tags
        self._router = router
        self._dispatcher = dispatcher
        self._sink = sink
        self._clock = clock
        self._redact = redact

    def record_rejected(self, ctx: RequestContext, alias: str, exc: GatewayError) -> None:
        """A request refused before routing (unreadable body, bad key): still one ledger row."""
        now = self._clock.monotonic()
        self._sink.record(
            UsageRecord(
                request_id=ctx.request_id,
                created_at=self._clock.now(),
                alias=alias,
                status=exc.status,
                tenant=ctx.tenant,
                app=ctx.app,
                key_id=ctx.key_id,
                error_kind=_code(exc),
                latency_ms=(now - ctx.received_at) * 1000,
            )
        )

    async def decide(self, ctx: RequestContext, request: ChatRequest) -> RouteDecision:
        decision: RouteDecision | None = None
        try:
            decision = await self._router.route(ctx, request)
            _refuse_if_empty(decision)
            return decision
        except GatewayError as exc:
            self._record(ctx, request, decision, Outcome(), None, exc.status, _code(exc), False)
            raise
        except Exception:  # a bug is still a request: it gets its (500) row
            self._record(ctx, request, decision, Outcome(), None, 500, INTERNAL, False)
            raise

    def _tags(self, ctx: RequestContext, request: ChatRequest) -> str | None:
        if self._tagger is None:
            return None
        try:
            return self._tagger(ctx, request)
        except GatewayError:  # refused by `check_tags` before anything ran
            return None

    def check_tags(self, ctx: RequestContext, request: ChatRequest) -> None:
        """400 for tags out of bounds, before the request is routed (and still one row)."""
        if self._tagger is None:
            return
        try:
            self._tagger(ctx, request)
        except GatewayError as exc:
            self._record(ctx, request, None, Outcome(), None, exc.status, _code(exc), False)
            raise

    async def _prepare(self, ctx: RequestContext, request: ChatRequest) -> _Prepared:
        self.check_tags(ctx, request)
        decision = await self.decide(ctx, request)
        prepared = _Prepared(decision, request)
        if not any(decision.needs_redaction(c) for c in decision.candidates):
            return prepared
        try:
            if self._redact is None:
                raise RuntimeError("no redactor configured")
            prepared.redacted, prepared.mapping = await self._redact(request, decision.sensitivity)
            decision.extra["redaction"] = {
                "placeholders": len(prepared.mapping.placeholders)
                if hasattr(prepared.mapping, "placeholders")
                else None
            }
        except Exception as exc:  # fail closed: what would need redaction does not leave
            log.warning("redaction failed (%s); cloud candidates dropped", type(exc).__name__)
            keep = tuple(c for c in decision.candidates if not decision.needs_redaction(c))
            gone = tuple(
                Dropped(c, "redaction failed", "redaction_required")
                for c in decision.candidates
                if c not in keep
            )
            prepared.decision = dataclasses.replace(
                decision, candidates=keep, dropped=decision.dropped + gone
            )
            try:
                _refuse_if_empty(prepared.decision)
            except GatewayError as err:
                self._record(
                    ctx,
                    request,
                    prepared.decision,
                    Outcome(),
                    None,
                    err.status,
                    _code(err),
                    request.stream,
                )
                raise
        return prepared

    async def _admit(
        self, ctx: RequestContext, request: ChatRequest, prepared: _Prepared
    ) -> RouteDecision:
        if self._budgets is not None or self._rates is not None:
            try:
                if self._rates is not None:
                    prepared.decision, prepared.grant = await self._rates.admit(
                        ctx, request, prepared.decision
                    )
                if self._budgets is not None:
                    prepared.decision = await self._budgets.admit(ctx, request, prepared.decision)
            except GatewayError as exc:
                self._record(
                    ctx,
                    request,
                    prepared.decision,
                    Outcome(),
                    None,
                    exc.status,
                    _code(exc),
                    request.stream,
                )
                raise
            except Exception:
                self._record(
                    ctx, request, prepared.decision, Outcome(), None, 500, INTERNAL, request.stream
                )
                raise
        return prepared.decision

    async def complete(self, ctx: RequestContext, request: ChatRequest) -> Served:
        prepared = await self._prepare(ctx, request)
        decision = await self._admit(ctx, request, prepared)
        outcome = Outcome()
        count = request.n or 1
        try:
            if count == 1:
                results = [await self._dispatcher.complete(decision, prepared.request_for, outcome)]
            else:
                results = await complete_all(
                    self._dispatcher, decision, prepared.request_for, outcome, count
                )
        except GatewayError as exc:
            self._record(ctx, request, decision, outcome, None, exc.status, _code(exc), False)
            raise
        except ProviderError as exc:
            self._record(ctx, request, decision, outcome, None, 502, exc.kind.value, False)
            raise
        except asyncio.CancelledError:  # the client left (or the server stops): the call ends
            self._record(ctx, request, decision, outcome, None, 499, "client_closed", False)
            raise
        except Exception:  # a bug is still a request: it gets its (500) row
            self._record(ctx, request, decision, outcome, None, 500, INTERNAL, False)
            raise
        backends = [p.backend for p in outcome.parts] or [outcome.backend]
        results = [
            restore_result(r, m) if (m := prepared.restorer_for(b)) is not None else r
            for r, b in zip(results, backends, strict=True)
        ]
        usage = summed(
            [
                r.usage
                or Usage(
                    prompt_tokens=_prompt_tokens(decision, request),
                    completion_tokens=estimate_text_tokens(r.text or ""),
                    estimated=True,
                )
                for r in results
            ]
        )
        cost = self._record(
            ctx, request, decision, outcome, usage, 200, None, False, model=results[0].model
        )
        if self._rates is not None:
            self._rates.settle(prepared.grant, usage.prompt_tokens + usage.completion_tokens)
        return Served(
            result=results[0],
            usage=usage,
            decision=decision,
            outcome=outcome,
            choices=tuple(results),
            cost_usd=cost,
        )

    async def open_stream(self, ctx: RequestContext, request: ChatRequest) -> StreamHandle:
        prepared = await self._prepare(ctx, request)
        decision = await self._admit(ctx, request, prepared)
        outcome = Outcome()
        count = request.n or 1

        def wrap(
            first: ChatChunk, rest: AsyncIterator[ChatChunk], part: Outcome
        ) -> AsyncIterator[ChatChunk]:
            mapping = prepared.restorer_for(part.backend)
            if mapping is None:
                return _chain(first, rest)
            return restore_stream(_chain(first, rest), mapping.stream_restorer(), mapping)

        try:
            if count == 1:
                first, rest = await self._dispatcher.open_stream(
                    decision, prepared.request_for, outcome
                )
            else:
                merged = await open_all(
                    self._dispatcher, decision, prepared.request_for, outcome, count, wrap
                )
        except GatewayError as exc:
            self._record(ctx, request, decision, outcome, None, exc.status, _code(exc), True)
            raise
        except ProviderError as exc:
            self._record(ctx, request, decision, outcome, None, 502, exc.kind.value, True)
            raise
        except asyncio.CancelledError:  # the client left before the first token
            self._record(ctx, request, decision, outcome, None, 499, "client_closed", True)
            raise
        except Exception:
            self._record(ctx, request, decision, outcome, None, 500, INTERNAL, True)
            raise
        handle = StreamHandle(decision, outcome, _empty(), grant=prepared.grant)
        if count > 1:
            handle.chunks = self._settle(ctx, request, handle, None, merged)
            return handle
        head: ChatChunk | None = first
        chunks = rest
        mapping = prepared.restorer_for(outcome.backend)
        if mapping is not None:
            head, chunks = (
                None,
                restore_stream(_chain(first, rest), mapping.stream_restorer(), mapping),
            )
        handle.chunks = self._settle(ctx, request, handle, head, chunks)
        return handle

    async def _settle(
        self,
        ctx: RequestContext,
        request: ChatRequest,
        handle: StreamHandle,
        first: ChatChunk | None,
        chunks: AsyncIterator[ChatChunk],
    ) -> AsyncIterator[ChatChunk]:
        """`first` (if any) then `chunks`, counted; the ledger row when they end. The first
        chunk is taken here, not through a chaining generator: each generator layer costs
        every chunk a step."""
        decision, outcome = handle.decision, handle.outcome
        tally = Tally()
        status, error = 200, None
        try:
            if first is not None:
                tally.add(first)
                yield first
            async for chunk in chunks:
                tally.add(chunk)
                yield chunk
        except ProviderError as exc:
            status, error = 502, exc.code or exc.kind.value
            raise
        except Exception:
            status, error = 500, INTERNAL
            raise
        except BaseException:  # client went away (cancelled) or the server is stopping
            status, error = 499, "client_closed"
            raise
        finally:
            usage = tally.usage
            if usage is None:
                completion = tally.pieces or estimate_text_tokens("".join(tally.chars))
                usage = Usage(
                    prompt_tokens=_prompt_tokens(decision, request) * (request.n or 1),
                    completion_tokens=completion,
                    estimated=True,
                )
            handle.usage = usage
            handle.cost_usd = self._record(
                ctx, request, decision, outcome, usage, status, error, True
            )
            if self._rates is not None:
                self._rates.settle(handle.grant, usage.prompt_tokens + usage.completion_tokens)

    def _record(
        self,
        ctx: RequestContext,
        request: ChatRequest,
        decision: RouteDecision | None,
        outcome: Outcome,
        usage: Usage | None,
        status: int,
        error: str | None,
        streamed: bool,
        model: str | None = None,
    ) -> Decimal | None:
        self._dispatcher.settle_cost(outcome)  # a stream whose tail never ran
        now = self._clock.monotonic()
        ttft = None
        if outcome.first_chunk_at is not None:
            ttft = (outcome.first_chunk_at - ctx.received_at) * 1000
        rec = UsageRecord(
            request_id=ctx.request_id,
            created_at=self._clock.now(),
            alias=request.model,
            status=status,
            tenant=ctx.tenant,
            app=ctx.app,
            key_id=ctx.key_id,
            backend=outcome.backend,
            model=model,
            data_class=decision.data_class if decision else None,
            sensitivity_band=decision.band if decision else None,
            rule=decision.rule if decision else None,
            error_kind=error,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            cached_tokens=usage.cached_tokens if usage else 0,
            estimated=usage.estimated if usage else False,
            streamed=streamed,
            latency_ms=(now - ctx.received_at) * 1000,
            ttft_ms=ttft if streamed else (now - ctx.received_at) * 1000 if usage else None,
            attempts=outcome.attempts,
            trace=decision.trace() if decision else None,
            onprem_cost_usd=outcome.onprem_cost_usd,
            tags=self._tags(ctx, request),
            node=_node_of(outcome),
        )
        return self._sink.record(rec)


def _node_of(outcome: Outcome) -> str | None:
    """The pool node that served the answer (set in this request's context by the pooled
    provider, as the `x-gecit-node` header reads it); None for a backend that is not a pool."""
    choice = node_for(outcome.backend)
    return choice.node if choice is not None else None


def _refuse_if_empty(decision: RouteDecision) -> None:
    """A blocked decision is a 403; no candidate left is a 503 that says why."""
    if decision.blocked is not None:
        raise Blocked(decision.blocked)
    if decision.candidates:
        return
    if decision.dropped and all(d.code == DropReason.CAPABILITY for d in decision.dropped):
        raise InvalidRequest(
            f"model '{decision.alias}' cannot serve this request: "
            + "; ".join(f"backend '{d.backend}' {d.reason}" for d in decision.dropped),
            code="unsupported_capability",
        )
    why = "; ".join(f"{d.backend}: {d.reason}" for d in decision.dropped) or "none configured"
    raise ServiceUnavailable(
        f"no backend may serve this request for model '{decision.alias}' "
        f"(data class: {decision.data_class}); {why}"
    )


async def _chain(first: ChatChunk, rest: AsyncIterator[ChatChunk]) -> AsyncIterator[ChatChunk]:
    yield first
    async for chunk in rest:
        yield chunk


async def _empty() -> AsyncIterator[ChatChunk]:
    return
    yield  # pragma: no cover


def _prompt_tokens(decision: RouteDecision, request: ChatRequest) -> int:
    """The router's estimate (made once per request), else count now."""
    return decision.prompt_tokens or estimate_prompt_tokens(request)


def _code(exc: GatewayError) -> str:
    return exc.code or exc.type
