"""One pooled backend's node choice: engine signals (scraper), Geçit's own counts and speeds
(tracker), where prefixes were sent (prefix index) and the ring, put in front of the pure
picker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gateway.core.types import ChatRequest
from gateway.fleet.picker import HashRing, NodeView, Pick, PickConfig, pick
from gateway.fleet.prefix import PrefixBlock, PrefixIndex, prefix_blocks
from gateway.fleet.scraper import EngineScraper, NodeTarget
from gateway.fleet.signals import NodeSignals
from gateway.fleet.tracker import NodeTracker, Ticket

DEFAULT_KV_TOKENS = 100_000  # an engine that does not report its cache size, none configured
DEFAULT_MAX_TOKENS = 512


@dataclass(frozen=True, slots=True)
class PoolNode:
    target: NodeTarget
    weight: float = 1.0
    kv_capacity_tokens: int | None = None


def request_blocks(request: ChatRequest) -> tuple[PrefixBlock, ...]:
    """The request's prefix blocks: the system prompt, then the conversation so far."""
    return prefix_blocks((m.role, m.text()) for m in request.messages)


class FleetRouter:
    def __init__(
        self,
        nodes: Sequence[PoolNode],
        scraper: EngineScraper | None,
        clock: Callable[[], float],
        config: PickConfig = PickConfig(),
    ) -> None:
        self._nodes = {n.target.name: n for n in nodes}
        self._scraper = scraper
        self._clock = clock
        self._config = config
        self.tracker = NodeTracker()
        self._index = PrefixIndex(
            {n.target.name: n.kv_capacity_tokens or DEFAULT_KV_TOKENS for n in nodes}
        )
        self._ring = HashRing([(n.target.name, n.weight) for n in nodes], config.ring_replicas)
        self._last_finish: dict[str, float] = {}
        self._busy_since: dict[str, float] = {}
        self._answered: dict[str, float] = {}
        self._busy_s: dict[str, float] = {}
        self._output: dict[str, int] = {}

    @property
    def names(self) -> list[str]:
        return list(self._nodes)

    def choose(
        self, blocks: Sequence[PrefixBlock], prompt_tokens: int, max_tokens: int | None
    ) -> Pick:
        views = [self._view(n, blocks) for n in self._nodes.values()]
        return pick(
            views, blocks, prompt_tokens, max_tokens or DEFAULT_MAX_TOKENS, self._ring, self._config
        )

    def started(self, node: str, blocks: Sequence[PrefixBlock], prompt_tokens: int) -> Ticket:
        cached = self._index.matched_tokens(node, blocks)
        self._index.record(node, blocks)
        if self.tracker.in_flight(node) == 0:
            self._busy_since[node] = self._clock()
        return self.tracker.started(node, prompt_tokens, cached)

    def finished(self, ticket: Ticket, output_tokens: int = 0, decode_s: float = 0.0) -> None:
        self.tracker.finished(ticket, output_tokens, decode_s)
        node, now = ticket.node, self._clock()
        self._last_finish[node] = now
        self._output[node] = self._output.get(node, 0) + max(0, output_tokens)
        if self.tracker.in_flight(node) == 0 and node in self._busy_since:
            self._busy_s[node] = self._busy_s.get(node, 0.0) + now - self._busy_since.pop(node)

    def answered(self, node: str) -> None:
        """The node sent a first token (or a whole answer) just now."""
        self._answered[node] = self._clock()

    def _answered_lately(self, node: str) -> bool:
        """An engine that serves requests one at a time (llama-cpp-python's server) does not
        answer its metrics while it generates: an answer of its own within the figures'
        freshness window says it is up all the same."""
        at = self._answered.get(node)
        return (
            at is not None
            and self._scraper is not None
            and (self._clock() - at <= self._scraper.max_age_s)
        )

    def served(self, node: str) -> tuple[int, float]:
        """(output tokens, seconds with at least one of Geçit's requests on it) since start."""
        busy = self._busy_s.get(node, 0.0)
        if node in self._busy_since:
            busy += self._clock() - self._busy_since[node]
        return self._output.get(node, 0), busy

    def signals(self, node: str) -> NodeSignals | None:
        return self._scraper.signals(node) if self._scraper is not None else None

    def weight(self, node: str) -> float:
        return self._nodes[node].weight

    def _engine_waiting(self, name: str, waiting: float | None) -> float | None:
        """The engine's queue, only if read after Geçit's own last request there ended: an
        older reading may still count requests of Geçit's that are gone."""
        if waiting is None or self._scraper is None:
            return None
        at = self._scraper.scraped_at(name)
        if at is None or at <= self._last_finish.get(name, float("-inf")):
            return None
        return waiting

    def _view(self, n: PoolNode, blocks: Sequence[PrefixBlock]) -> NodeView:
        name = n.target.name
        sig = self._scraper.signals(name) if self._scraper is not None else None
        healthy = (
            self._scraper is None or self._scraper.healthy(name) or self._answered_lately(name)
        )
        if sig is not None and sig.kv_capacity_tokens and not n.kv_capacity_tokens:
            self._index.set_capacity(name, sig.kv_capacity_tokens)
        t = self.tracker
        return NodeView(
            name=name,
            healthy=healthy,
            model_loaded=sig.model_loaded if sig else None,
            context_length=sig.context_length if sig else None,
            kv_usage=sig.kv_usage if sig else None,
            engine_waiting=self._engine_waiting(name, sig.waiting if sig else None),
            in_flight=t.in_flight(name),
            queued_prefill_tokens=t.queued_prefill(name),
            prefill_tok_s=t.prefill_tok_s(name),
            step_s=t.step_s(name),
            weight=n.weight,
            cached_tokens=self._index.matched_tokens(name, blocks),
        )
