"""Execute a RouteDecision: try candidates in order under deadlines, retry transient failures
with jittered backoff (honouring Retry-After within the deadline), fall back to the next
candidate, and never cross the data boundary: each candidate's zone is checked again, here,
against the zones the decision allows, before any call. No fallback once the first streamed
chunk has gone to the client; every attempt is recorded and feeds the live stats."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol, TypeVar

from gateway.core.clock import Clock
from gateway.core.errors import (
    FailureKind,
    GatewayError,
    InvalidRequest,
    ProviderError,
    ServiceUnavailable,
    UpstreamTimeout,
)
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.policy.decision import Limits, RouteDecision
from gateway.providers.attempts import as_provider_error, close_quietly
from gateway.providers.base import CallOptions, Provider, require_capabilities
from gateway.service.call_options import CallOptionsFor
from gateway.service.stats import LiveStats
from gateway.usage.records import AttemptRecord

log = logging.getLogger("gateway.dispatch")

# retried on the same backend; a timeout is not (it would likely eat the deadline again)
_RETRY_SAME = frozenset({FailureKind.TRANSIENT, FailureKind.RATE_LIMIT, FailureKind.UNREACHABLE})


@dataclass(slots=True)
class Outcome:
    """Filled in while a request runs; read by the usage recorder."""

    attempts: list[AttemptRecord] = field(default_factory=list)
    backend: str | None = None
    first_chunk_at: float | None = None
    interrupted: bool = False
    unsupported: list[str] = field(default_factory=list)  # what each backend said it lacks
    onprem_cost_usd: Decimal | None = None  # its share of on-prem nodes' hourly cost
    retry_after: float | None = None  # the soonest retry a failed backend suggested
    parts: list[Outcome] = field(default_factory=list)  # a fanned-out request's choices

    @property
    def tried(self) -> int:
        """Calls actually made (retries included); a skipped backend is no attempt."""
        return sum(1 for a in self.attempts if a.outcome != "skipped")


OptionsFor = Callable[[str], CallOptions]
ZoneOf = Callable[[str], str | None]
RequestFor = Callable[[str], ChatRequest]
T = TypeVar("T")
# one try of one backend: raises ProviderError (or TimeoutError) on failure
Attempt = Callable[[str, Provider, CallOptions], Awaitable[T]]
# the walls before a backend is tried: the provider, or None (skip; the reason is noted)
Admit = Callable[[RouteDecision, str, Outcome], Provider | None]


class AttemptCosts(Protocol):
    """Shares out on-prem nodes' hourly cost (gateway.usage.onprem_cost.OnPremCosts)."""

    def started(self, backend: str, key: object, now: float) -> None: ...

    def finished(self, key: object, now: float) -> Decimal | None: ...


class Dispatcher:
    def __init__(
        self,
        providers: Mapping[str, Provider],
        clock: Clock,
        options_for: OptionsFor | None = None,
        *,
        stats: LiveStats | None = None,
        zone_of: ZoneOf | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rand: Callable[[], float] | None = None,
        costs: AttemptCosts | None = None,
    ) -> None:
        self._providers = providers
        self._costs = costs
        self._clock = clock
        self._options_for = options_for or (lambda _name: CallOptions())
        self._stats = stats or LiveStats()
        self._zone_of = zone_of or (lambda _name: None)
        self._sleep = sleep
        self._rand = rand or (lambda: 0.5)
        self._call_options = CallOptionsFor(self._options_for, clock)

    # ---- non-streamed ------------------------------------------------------------------
    async def complete(
        self, decision: RouteDecision, request_for: RequestFor, outcome: Outcome
    ) -> ChatResult:
        async def call(name: str, provider: Provider, options: CallOptions) -> ChatResult:
            if provider.capabilities.enforces_total_timeout:
                # the provider bounds the whole call by options.total_timeout itself: a second
                # `asyncio.timeout` around it is pure CPU on the hot path
                return await provider.complete(request_for(name), options)
            async with asyncio.timeout(options.total_timeout):
                return await provider.complete(request_for(name), options)

        deadline = self._deadline(decision.limits)
        name, t0, result = await self._attempts(
            decision, outcome, deadline, call, stream=False, admit=self._chat_admit(request_for)
        )
        self._served(outcome, name, t0, result.usage.completion_tokens if result.usage else None)
        return result

    # ---- streamed ----------------------------------------------------------------------
    async def open_stream(
        self, decision: RouteDecision, request_for: RequestFor, outcome: Outcome
    ) -> tuple[ChatChunk, AsyncIterator[ChatChunk]]:
        """Start a stream: the first chunk and the rest. Fallback happens only here, before
        the first chunk is handed to the client."""

        async def call(
            name: str, provider: Provider, options: CallOptions
        ) -> tuple[ChatChunk, AsyncIterator[ChatChunk]]:
            it = provider.stream(request_for(name), options).__aiter__()
            try:
                if provider.capabilities.enforces_first_chunk_timeout:
                    # the provider bounds its first chunk by options.first_byte_timeout itself
                    # (an asyncio.timeout context per stream is CPU on the hot path)
                    return await it.__anext__(), it
                async with asyncio.timeout(options.first_byte_timeout):
                    return await it.__anext__(), it
            except (ProviderError, TimeoutError, StopAsyncIteration) as raw:
                await close_quietly(it)
                raise as_provider_error("backend", name, raw) from None
            except asyncio.CancelledError:  # the client left: the upstream call ends now
                await close_quietly(it)
                raise

        deadline = self._deadline(decision.limits)
        name, t0, (first, it) = await self._attempts(
            decision, outcome, deadline, call, stream=True, admit=self._chat_admit(request_for)
        )
        now = self._clock.monotonic()
        outcome.first_chunk_at = now
        record = self._note(outcome, name, "ok", t0)
        outcome.backend = name
        return first, self._tail(name, it, t0, now, record, outcome, deadline)

    async def _tail(
        self,
        name: str,
        it: AsyncIterator[ChatChunk],
        t0: float,
        first_at: float,
        record: AttemptRecord,
        outcome: Outcome,
        deadline: float | None,
    ) -> AsyncIterator[ChatChunk]:
        pieces = 1
        completion: int | None = None
        # one timer for the whole tail, not an `asyncio.timeout` context per chunk (CPU):
        # when it fires it cancels the task only while that task waits for the next chunk;
        # between chunks it just marks the deadline as passed
        deadline_state = _TailDeadline()
        timer = None
        if deadline is not None:
            timer = asyncio.get_running_loop().call_later(
                max(0.0, deadline - self._clock.monotonic()), deadline_state.fire
            )
        try:
            while True:
                try:
                    if deadline_state.expired:
                        raise TimeoutError
                    task = deadline_state.task = asyncio.current_task()
                    cancelling = task.cancelling() if task is not None else 0
                    try:
                        chunk = await it.__anext__()
                    except asyncio.CancelledError:
                        if (
                            deadline_state.expired
                            and task is not None
                            and task.uncancel() <= cancelling
                        ):
                            raise TimeoutError from None
                        raise
                    finally:
                        deadline_state.task = None
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    raise ProviderError(
                        FailureKind.INTERRUPTED,
                        f"backend '{name}' exceeded the total deadline",
                        backend=name,
                    ) from None
                if chunk.text:
                    pieces += 1
                if chunk.usage is not None:
                    completion = chunk.usage.completion_tokens
                yield chunk
        except ProviderError as exc:
            record.outcome, record.failure_kind = "interrupted", FailureKind.INTERRUPTED.value
            outcome.interrupted = True
            self._stats.of(name).failure(self._clock.monotonic(), exc.kind)
            raise
        finally:
            if timer is not None:
                timer.cancel()
            await close_quietly(it)
            self.settle_cost(outcome)
        end = self._clock.monotonic()
        record.latency_ms = (end - t0) * 1000
        gen_s = end - first_at
        tps = (completion or pieces) / gen_s if gen_s > 0 else None
        self._stats.of(name).success(end, (first_at - t0) * 1000, (end - t0) * 1000, tps)

    # ---- the attempt loop (chat, streamed chat and embeddings share it) ------------------
    async def _attempts(
        self,
        decision: RouteDecision,
        outcome: Outcome,
        deadline: float | None,
        call: Attempt[T],
        *,
        stream: bool,
        admit: Admit | None = None,
    ) -> tuple[str, float, T]:
        """Try the decision's candidates in order, each up to `retries` more times on a
        retryable failure, until `call` succeeds: the backend that served, when its successful
        attempt started and what `call` returned. Every failure is recorded and fed to the live
        stats; the caller records the success. Raises when no backend could serve."""
        admit = admit or self._admit
        last = len(decision.candidates) - 1
        for i, name in enumerate(decision.candidates):
            provider = admit(decision, name, outcome)
            if provider is None:
                continue
            for attempt in range(decision.limits.retries + 1):
                options = self._call_options.of(name, decision.limits, deadline, stream=stream)
                if options is None:
                    raise self._timed_out(decision.alias, outcome)
                if i == last:
                    options = self._call_options.may_wait(options, decision)
                t0 = self._clock.monotonic()
                if self._costs is not None:
                    self._costs.started(name, id(outcome), t0)
                try:
                    value = await call(name, provider, options)
                except (ProviderError, TimeoutError) as raw:
                    self.settle_cost(outcome)
                    exc = as_provider_error("backend", name, raw)
                    self._failed(outcome, name, exc, t0)
                    if not exc.kind.may_fall_back:
                        raise exc from None
                    if await self._should_retry(exc, attempt, decision.limits, deadline):
                        continue
                    break
                if not stream:  # a stream's attempt lasts until its tail ends
                    self.settle_cost(outcome)
                return name, t0, value
        raise self._exhausted(decision, outcome)

    # ---- helpers -----------------------------------------------------------------------
    def settle_cost(self, outcome: Outcome) -> None:
        """End the outcome's running attempt for the on-prem cost share (idempotent: the
        service calls it again when a request ends, for a stream whose tail never ran)."""
        if outcome.parts:  # the sum of its choices' shares
            for part in outcome.parts:
                self.settle_cost(part)
            shares = [p.onprem_cost_usd for p in outcome.parts if p.onprem_cost_usd is not None]
            outcome.onprem_cost_usd = sum(shares[1:], shares[0]) if shares else None
            return
        if self._costs is None:
            return
        share = self._costs.finished(id(outcome), self._clock.monotonic())
        if share is not None:
            outcome.onprem_cost_usd = share + (outcome.onprem_cost_usd or 0)

    def _chat_admit(self, request_for: RequestFor) -> Admit:
        """The walls of `_admit`, with what the backend says it can do checked before its
        circuit: a backend that lacks a capability the request needs (tools, JSON mode,
        streaming) is skipped, not called: no attempt, no fallback, no half-open probe used."""

        def admit(decision: RouteDecision, name: str, outcome: Outcome) -> Provider | None:
            return self._admit(decision, name, outcome, request_for)

        return admit

    def _admit(
        self,
        decision: RouteDecision,
        name: str,
        outcome: Outcome,
        request_for: RequestFor | None = None,
    ) -> Provider | None:
        """The second wall of the data boundary, then availability, the capabilities the
        request needs (when `request_for` is given) and the circuit."""
        zone = self._zone_of(name) or "cloud"  # unknown counts as cloud: fail closed
        if zone not in decision.allowed_zones:
            log.error(
                "refused to call %s: zone %s is outside the decision's %s",
                name,
                zone,
                sorted(decision.allowed_zones),
            )
            self._note(outcome, name, "skipped", None, "data_boundary")
            return None
        provider = self._providers.get(name)
        if provider is None:
            self._note(outcome, name, "skipped", None, "not_running")
            return None
        if request_for is not None:
            try:
                require_capabilities(provider, request_for(name))
            except ProviderError as exc:
                self._note(outcome, name, "skipped", None, FailureKind.UNSUPPORTED.value)
                outcome.unsupported.append(exc.message)
                return None
        if not self._stats.of(name).begin_attempt(self._clock.monotonic()):
            self._note(outcome, name, "skipped", None, "circuit_open")
            return None
        return provider

    def _deadline(self, limits: Limits) -> float | None:
        if limits.total_deadline_s is None:
            return None
        return self._clock.monotonic() + limits.total_deadline_s

    async def _should_retry(
        self, exc: ProviderError, attempt: int, limits: Limits, deadline: float | None
    ) -> bool:
        if exc.kind not in _RETRY_SAME or attempt >= limits.retries:
            return False
        backoff = min(limits.max_backoff_s, limits.backoff_s * (2**attempt))
        delay = backoff * (0.5 + self._rand())  # jitter: 50%..150%
        if exc.retry_after is not None:
            delay = max(delay, exc.retry_after)
        if deadline is not None and self._clock.monotonic() + delay >= deadline:
            return False  # waiting would break the deadline: fall back instead
        await self._sleep(delay)
        return True

    def _served(self, outcome: Outcome, name: str, t0: float, tokens: int | None) -> None:
        """Record a whole answer (not a stream) from `name`: `tokens` generated, if known."""
        outcome.backend = name
        rec = self._note(outcome, name, "ok", t0)
        secs = rec.latency_ms / 1000
        tps = tokens / secs if tokens and secs > 0 else None
        self._stats.of(name).success(self._clock.monotonic(), None, rec.latency_ms, tps)

    def _failed(self, outcome: Outcome, name: str, exc: ProviderError, t0: float) -> None:
        self._note(outcome, name, "failed", t0, exc.kind.value, exc.status)
        if exc.retry_after is not None:
            outcome.retry_after = min(exc.retry_after, outcome.retry_after or exc.retry_after)
        if exc.kind == FailureKind.UNSUPPORTED:
            outcome.unsupported.append(exc.message)
        if caller_fault(exc):
            # the backend answered; the request was at fault: one tenant's bad requests must
            # not open the circuit (or raise the error rate) for every tenant
            self._stats.of(name).refused_request()
            return
        self._stats.of(name).failure(self._clock.monotonic(), exc.kind)

    def _note(
        self,
        outcome: Outcome,
        name: str,
        result: str,
        t0: float | None,
        kind: str | None = None,
        status: int | None = None,
    ) -> AttemptRecord:
        latency = 0.0 if t0 is None else (self._clock.monotonic() - t0) * 1000
        rec = AttemptRecord(
            ordinal=len(outcome.attempts) + 1,
            backend=name,
            outcome=result,
            failure_kind=kind,
            status=status,
            latency_ms=latency,
        )
        outcome.attempts.append(rec)
        return rec

    @staticmethod
    def _timed_out(alias: str, outcome: Outcome) -> UpstreamTimeout:
        return UpstreamTimeout(
            f"no backend answered model '{alias}' within the deadline; tried: {_tried(outcome)}"
        )

    @staticmethod
    def _exhausted(decision: RouteDecision, outcome: Outcome) -> GatewayError:
        alias = decision.alias
        if outcome.unsupported and len(outcome.unsupported) == len(outcome.attempts):
            # every backend lacks what the request needs: the caller's to fix
            return InvalidRequest(
                f"model '{alias}' cannot serve this request: "
                + "; ".join(dict.fromkeys(outcome.unsupported)),
                code="unsupported_capability",
            )
        if not outcome.attempts:
            why = "; ".join(f"{d.backend}: {d.reason}" for d in decision.dropped)
            return ServiceUnavailable(
                f"no backend is available for model '{alias}'" + (f" ({why})" if why else "")
            )
        why = "".join(f"; {d.backend}: {d.reason}" for d in decision.dropped)
        retry = (
            {"Retry-After": str(max(1, math.ceil(outcome.retry_after)))}
            if outcome.retry_after is not None
            else None
        )
        return ServiceUnavailable(
            f"no backend could serve model '{alias}' (data class: "
            f"{decision.data_class}); tried: {_tried(outcome)}{why}",
            headers=retry,
        )


class _TailDeadline:
    """The total deadline of a stream's tail: set when its timer fires; cancels the task that
    is waiting for a chunk at that moment, if any."""

    __slots__ = ("expired", "task")

    def __init__(self) -> None:
        self.expired = False
        self.task: asyncio.Task[object] | None = None

    def fire(self) -> None:
        self.expired = True
        if self.task is not None:
            self.task.cancel()


# an upstream's answer that the request itself was wrong (bad value, unknown model name,
# too large, unprocessable); 401/403/429 and 5xx say something about the backend instead
CALLER_STATUSES = frozenset({400, 404, 413, 422})
_CALLER_KINDS = frozenset({FailureKind.CALLER, FailureKind.CONTEXT_LENGTH, FailureKind.UNSUPPORTED})


def caller_fault(exc: ProviderError) -> bool:
    """Whether a failure is the caller's (never counted against the backend's health)."""
    return exc.kind in _CALLER_KINDS or exc.status in CALLER_STATUSES


def _tried(outcome: Outcome) -> str:
    return ", ".join(f"{a.backend} ({a.failure_kind or a.outcome})" for a in outcome.attempts)
