"""A pooled on-prem backend: one Provider over several nodes serving the same model.

Each call asks the FleetRouter for a node (and the order to fall back in), records it as in
flight there, and hands the request to that node's own OpenAI-style provider. A node failing
before its first chunk is left for the next one in the pick's order; after the first chunk the
stream is the node's, as with any backend. The first token and the end of each answer feed
Geçit's measured speeds. The node and the reason for it go to `choice.CHOSEN_NODE`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.fleet.admission import DEFAULT_QUEUE, AdmissionQueue
from gateway.fleet.choice import CHOSEN_NODE, NodeChoice
from gateway.fleet.picker import Pick
from gateway.fleet.router import FleetRouter, request_blocks
from gateway.fleet.scraper import EngineScraper
from gateway.fleet.tracker import Ticket
from gateway.providers.attempts import as_provider_error, close_quietly
from gateway.providers.base import CallOptions, Capabilities, Provider
from gateway.providers.tokens import estimate_prompt_tokens

log = logging.getLogger("gateway.fleet")
# when no node can serve at all (all unhealthy, none has the model): health is judged again on
# the next scrapes, a few seconds away
NO_NODE_RETRY_S = 5.0


class FleetProvider:
    enforces_total_timeout = False
    enforces_first_chunk_timeout = False

    def __init__(
        self,
        name: str,
        nodes: Mapping[str, Provider],
        router: FleetRouter,
        scraper: EngineScraper | None,
        capabilities: Capabilities,
        clock: Callable[[], float] = time.monotonic,
        queue: AdmissionQueue | None = None,
    ) -> None:
        self.name = name
        self.capabilities = capabilities
        self._nodes = dict(nodes)
        self.router = router
        self._scraper = scraper
        self._scrape_task: asyncio.Task[None] | None = None
        self._clock = clock
        self.queue = queue or AdmissionQueue(name, DEFAULT_QUEUE, clock)

    def _start_scraping(self) -> None:
        if self._scraper is not None and self._scrape_task is None:
            self._scrape_task = asyncio.get_running_loop().create_task(self._scraper.run())

    async def _choose(self, request: ChatRequest, options: CallOptions) -> tuple[Pick, list[str]]:
        self._start_scraping()
        blocks = request_blocks(request)
        prompt = estimate_prompt_tokens(request)

        def choose() -> Pick:
            return self.router.choose(blocks, prompt, request.token_limit)

        # admission: a node that would start later than the rule's TTFT objective (or the
        # first-token deadline) is no place to send the request. One that may spill is
        # refused now, so it can go to the policy's next candidate (a cloud only where its
        # data class may go); one that may not waits in Geçit's queue, or is told when to
        # retry, instead of timing out in an engine's queue
        target = options.first_byte_timeout
        if options.ttft_slo_s is not None:
            target = min(target, options.ttft_slo_s)
        if options.queue_class is None:
            got = choose()
            self._no_node(got)
            return self.queue.try_now(got, target), list(got.order)
        got = await self.queue.wait(
            options.queue_class,
            options.queue_priority,
            choose,
            target,
            options.first_byte_timeout,
        )
        self._no_node(got)
        return got, list(got.order)

    def _no_node(self, got: Pick) -> None:
        if got.node is None:
            why = "; ".join(f"{n}: {r}" for n, r in got.dropped)
            raise ProviderError(
                FailureKind.UNREACHABLE,
                f"no node of '{self.name}' can serve ({why})",
                retry_after=NO_NODE_RETRY_S,
                backend=self.name,
            )

    def _begin(self, node: str, request: ChatRequest, got: Pick) -> Ticket:
        blocks = request_blocks(request)
        reason = got.reason if node == got.node else f"fallback after {got.node} failed"
        CHOSEN_NODE.set(NodeChoice(self.name, node, reason))
        return self.router.started(node, blocks, estimate_prompt_tokens(request))

    def _first_token(
        self, ticket: Ticket, ttft_s: float, cached: int | None = None, *, sample: bool = True
    ) -> None:
        self.router.tracker.first_token(ticket, ttft_s, cached, sample=sample)
        self.router.answered(ticket.node)
        self.queue.wake()  # its prefill is done: a waiting request may fit now

    def _finished(self, ticket: Ticket, output_tokens: int = 0, decode_s: float = 0.0) -> None:
        self.router.finished(ticket, output_tokens, decode_s)
        self.queue.wake()

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        got, order = await self._choose(request, options)
        last: ProviderError | None = None
        for node in order:
            ticket = self._begin(node, request, got)
            t0 = self._clock()
            try:
                async with asyncio.timeout(options.total_timeout):
                    result = await self._nodes[node].complete(request, options)
            except (ProviderError, TimeoutError) as exc:
                self._finished(ticket)
                last = as_provider_error("node", node, exc)
                if not last.kind.may_fall_back:
                    raise last from None
                continue
            usage = result.usage
            cached = usage.cached_tokens if usage else None
            tokens = usage.completion_tokens if usage else 0
            # a whole answer's time holds its decoding too: less the steps of all but its
            # first token, it stands for the first token's
            took = self._clock() - t0
            ttft = took - max(0, tokens - 1) * self.router.tracker.step_s(node)
            self._first_token(ticket, ttft if ttft > 0 else took, cached, sample=ttft > 0)
            self._finished(ticket, tokens)
            return result
        assert last is not None
        raise last

    def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        return self._stream(request, options)

    async def _stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        got, order = await self._choose(request, options)
        for i, node in enumerate(order):
            ticket = self._begin(node, request, got)
            t0 = self._clock()
            it = self._nodes[node].stream(request, options).__aiter__()
            try:
                async with asyncio.timeout(options.first_byte_timeout):
                    first = await it.__anext__()
            except (ProviderError, TimeoutError, StopAsyncIteration) as exc:
                self._finished(ticket)
                await close_quietly(it)
                err = as_provider_error("node", node, exc)
                if not err.kind.may_fall_back or i == len(order) - 1:
                    raise err from None
                continue
            first_at = self._clock()
            self._first_token(ticket, first_at - t0)
            pieces, completion = 1, None
            try:
                yield first
                async for chunk in it:
                    if chunk.text:
                        pieces += 1
                    if chunk.usage is not None:
                        completion = chunk.usage.completion_tokens
                    yield chunk
            finally:
                self._finished(ticket, completion or pieces, self._clock() - first_at)
                await close_quietly(it)
            return

    async def check(self) -> bool:
        results = await asyncio.gather(
            *(p.check() for p in self._nodes.values()), return_exceptions=True
        )
        return any(r is True for r in results)

    async def aclose(self) -> None:
        if self._scrape_task is not None:
            self._scrape_task.cancel()
        if self._scraper is not None:
            await self._scraper.aclose()
        for p in self._nodes.values():
            await p.aclose()
