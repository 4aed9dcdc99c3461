"""Try the decided candidates in order; fall back only before anything reached the client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field

from gateway.core.clock import Clock
from gateway.core.errors import FailureKind, ProviderError, ServiceUnavailable
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.providers.base import CallOptions, Provider
from gateway.usage.records import AttemptRecord


@dataclass(slots=True)
class Outcome:
    """Filled in while a request runs; read by the usage recorder."""

    attempts: list[AttemptRecord] = field(default_factory=list)
    backend: str | None = None
    first_chunk_at: float | None = None


OptionsFor = Callable[[str], CallOptions]


class Dispatcher:
    def __init__(self, providers: Mapping[str, Provider], clock: Clock,
                 options_for: OptionsFor | None = None) -> None:
        self._providers = providers
        self._clock = clock
        self._options_for = options_for or (lambda _name: CallOptions())

    def _provider(self, name: str) -> Provider | None:
        return self._providers.get(name)

    async def complete(self, alias: str, candidates: tuple[str, ...], request: ChatRequest,
                       outcome: Outcome) -> ChatResult:
        for name in candidates:
            provider = self._provider(name)
            if provider is None:
                continue
            t0 = self._clock.monotonic()
            try:
                result = await provider.complete(request, self._options_for(name))
            except ProviderError as exc:
                self._note_failure(outcome, name, exc, t0)
                if not exc.kind.may_fall_back:
                    raise
                continue
            self._note_ok(outcome, name, t0)
            return result
        raise self._exhausted(alias, outcome)

    async def open_stream(self, alias: str, candidates: tuple[str, ...], request: ChatRequest,
                          outcome: Outcome) -> tuple[ChatChunk, AsyncIterator[ChatChunk]]:
        """Start a stream: returns the first chunk and the rest. Fallback happens only here,
        before the first chunk is handed to the client."""
        for name in candidates:
            provider = self._provider(name)
            if provider is None:
                continue
            t0 = self._clock.monotonic()
            it = provider.stream(request, self._options_for(name)).__aiter__()
            try:
                first = await it.__anext__()
            except StopAsyncIteration:
                exc = ProviderError(FailureKind.PROVIDER, f"backend '{name}' sent an empty stream",
                                    backend=name)
                self._note_failure(outcome, name, exc, t0)
                continue
            except ProviderError as exc:
                self._note_failure(outcome, name, exc, t0)
                await _close(it)
                if not exc.kind.may_fall_back:
                    raise
                continue
            outcome.first_chunk_at = self._clock.monotonic()
            self._note_ok(outcome, name, t0)
            return first, it
        raise self._exhausted(alias, outcome)

    def _note_ok(self, outcome: Outcome, name: str, t0: float) -> None:
        outcome.backend = name
        outcome.attempts.append(AttemptRecord(
            ordinal=len(outcome.attempts) + 1, backend=name, outcome="ok",
            latency_ms=(self._clock.monotonic() - t0) * 1000))

    def _note_failure(self, outcome: Outcome, name: str, exc: ProviderError, t0: float) -> None:
        outcome.attempts.append(AttemptRecord(
            ordinal=len(outcome.attempts) + 1, backend=name, outcome="failed",
            failure_kind=exc.kind.value, status=exc.status,
            latency_ms=(self._clock.monotonic() - t0) * 1000))

    @staticmethod
    def _exhausted(alias: str, outcome: Outcome) -> ServiceUnavailable:
        if not outcome.attempts:
            return ServiceUnavailable(f"no backend is available for model '{alias}'")
        tried = ", ".join(f"{a.backend} ({a.failure_kind})" for a in outcome.attempts)
        return ServiceUnavailable(f"no backend could serve model '{alias}'; tried: {tried}")


async def _close(it: AsyncIterator[ChatChunk]) -> None:
    aclose = getattr(it, "aclose", None)
    if aclose is not None:
        try:
            await aclose()
        except Exception:  # closing a failed stream must not mask the original failure
            pass
