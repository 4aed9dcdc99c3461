"""Execute a RouteDecision for an embeddings call: the same walls and fallback as chat (each
candidate's zone checked again against the decision, circuit, deadlines, jittered retries on
the same backend, then the next candidate), but the call is `provider.embed(inputs)`."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import cast

from gateway.policy.decision import RouteDecision
from gateway.providers.base import CallOptions, Embedder, Provider
from gateway.service.dispatcher import Dispatcher, Outcome


class EmbedDispatcher(Dispatcher):
    def can_embed(self, name: str) -> bool:
        """Whether the running backend `name` is an `Embedder` at all."""
        return isinstance(self._providers.get(name), Embedder)

    async def embed(
        self, decision: RouteDecision, inputs: Sequence[str], outcome: Outcome
    ) -> tuple[list[list[float]], int]:
        async def call(
            name: str, provider: Provider, options: CallOptions
        ) -> tuple[list[list[float]], int]:
            embedder = cast(Embedder, provider)  # `_admit_embedder` lets only those through
            async with asyncio.timeout(options.total_timeout):
                return await embedder.embed(list(inputs), options)

        deadline = self._deadline(decision.limits)
        name, t0, (vectors, tokens) = await self._attempts(
            decision, outcome, deadline, call, stream=False, admit=self._admit_embedder
        )
        self._served(outcome, name, t0, None)  # no generation speed for embeddings
        return vectors, tokens

    def _admit_embedder(
        self, decision: RouteDecision, name: str, outcome: Outcome
    ) -> Provider | None:
        """The chat walls (zone, running, circuit), then: can this backend embed at all."""
        provider = self._admit(decision, name, outcome)
        if provider is not None and not isinstance(provider, Embedder):
            self._note(outcome, name, "skipped", None, "no_embeddings")
            return None
        return provider
