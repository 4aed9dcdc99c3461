"""Execute a RouteDecision for an embeddings call: the same walls and fallback as chat (each
candidate's zone checked again against the decision, circuit, deadlines, jittered retries on
the same backend, then the next candidate), but the call is `provider.embed(inputs)`."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from gateway.core.errors import ProviderError
from gateway.policy.decision import RouteDecision
from gateway.providers.base import CallOptions
from gateway.service.dispatcher import Dispatcher, Outcome, _as_provider_error


@runtime_checkable
class Embedder(Protocol):
    """A provider that can embed (openai_compat, ollama, bedrock, vertex)."""

    async def embed(self, inputs: list[str],
                    options: CallOptions) -> tuple[list[list[float]], int]: ...


class EmbedDispatcher(Dispatcher):
    def can_embed(self, name: str) -> bool:
        """Whether the running backend `name` has an `embed` method at all."""
        provider: Any = self._providers.get(name)
        return provider is not None and callable(getattr(provider, "embed", None))

    async def embed(self, decision: RouteDecision, inputs: Sequence[str], outcome: Outcome
                    ) -> tuple[list[list[float]], int]:
        deadline = self._deadline(decision.limits)
        for name in decision.candidates:
            provider = self._admit(decision, name, outcome)
            if provider is None:
                continue
            if not isinstance(provider, Embedder):
                self._note(outcome, name, "skipped", None, "no_embeddings")
                continue
            for attempt in range(decision.limits.retries + 1):
                options = self._options(name, decision.limits, deadline, stream=False)
                if options is None:
                    raise self._timed_out(decision.alias, outcome)
                t0 = self._clock.monotonic()
                try:
                    async with asyncio.timeout(options.total_timeout):
                        vectors, tokens = await provider.embed(list(inputs), options)
                except (ProviderError, TimeoutError) as raw:
                    exc = _as_provider_error(name, raw)
                    self._failed(outcome, name, exc, t0)
                    if not exc.kind.may_fall_back:
                        raise exc from None
                    if await self._should_retry(exc, attempt, decision.limits, deadline):
                        continue
                    break
                outcome.backend = name
                rec = self._note(outcome, name, "ok", t0)
                self._stats.of(name).success(self._clock.monotonic(), None, rec.latency_ms,
                                             None)
                return vectors, tokens
        raise self._exhausted(decision, outcome)
