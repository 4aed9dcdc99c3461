"""Geçit's own view of each node: requests in flight, prompt tokens still waiting for their
first token, and the speeds it measured (prefill and one decode step).

Prefill speed: each first token gives a sample (prompt tokens not served from the prefix
cache) / TTFT (a whole answer: its time less its decode steps); a node with no sample yet is
taken to be as fast as its pool's median. Queueing only makes a sample slower, so a high
percentile of the recent samples is the node's speed when it is not queued. A decode step:
the stream's time after its first token per further token, smoothed. Time is passed in;
nothing here sleeps or reads a clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

MIN_PREFILL_SAMPLE_TOKENS = 256  # shorter prompts are dominated by the step, not the prefill


@dataclass(slots=True)
class Ticket:
    node: str
    prompt_tokens: int
    expected_uncached: int
    waiting_first: bool = True


@dataclass(slots=True)
class _Node:
    in_flight: int = 0
    queued_prefill: int = 0
    prefill_samples: deque[float] = field(default_factory=lambda: deque(maxlen=64))
    step_s: float | None = None


class NodeTracker:
    def __init__(
        self,
        default_prefill_tok_s: float = 5000.0,
        default_step_s: float = 0.03,
        smoothing: float = 0.2,
    ) -> None:
        self._nodes: dict[str, _Node] = {}
        self._default_prefill = default_prefill_tok_s
        self._default_step = default_step_s
        self._alpha = smoothing

    def _n(self, node: str) -> _Node:
        n = self._nodes.get(node)
        if n is None:
            n = self._nodes[node] = _Node()
        return n

    def started(self, node: str, prompt_tokens: int, expected_cached: int) -> Ticket:
        n = self._n(node)
        uncached = max(0, prompt_tokens - expected_cached)
        n.in_flight += 1
        n.queued_prefill += uncached
        return Ticket(node, prompt_tokens, uncached)

    def first_token(
        self, t: Ticket, ttft_s: float, cached_tokens: int | None = None, *, sample: bool = True
    ) -> None:
        """`sample`: whether `ttft_s` may stand for the prefill's time (False when nothing
        sensible is left of a whole answer's time once its decoding is taken off)."""
        if not t.waiting_first:
            return
        n = self._n(t.node)
        t.waiting_first = False
        n.queued_prefill -= t.expected_uncached
        uncached = (
            t.expected_uncached
            if cached_tokens is None
            else max(0, t.prompt_tokens - cached_tokens)
        )
        if sample and uncached >= MIN_PREFILL_SAMPLE_TOKENS and ttft_s > 0:
            n.prefill_samples.append(uncached / ttft_s)

    def finished(self, t: Ticket, output_tokens: int = 0, decode_s: float = 0.0) -> None:
        n = self._n(t.node)
        if t.waiting_first:  # failed before its first token
            t.waiting_first = False
            n.queued_prefill -= t.expected_uncached
        n.in_flight -= 1
        if output_tokens > 1 and decode_s > 0:
            step = decode_s / (output_tokens - 1)
            n.step_s = (
                step if n.step_s is None else ((1 - self._alpha) * n.step_s + self._alpha * step)
            )

    def in_flight(self, node: str) -> int:
        return self._n(node).in_flight

    def queued_prefill(self, node: str) -> int:
        return self._n(node).queued_prefill

    def prefill_tok_s(self, node: str) -> float:
        """The node's measured speed; for a node not measured yet, the median of its pool's
        measured nodes (the same model: a closer guess than a fixed default, which would make
        an unmeasured node look faster, or slower, than every node that has answered)."""
        own = self._speed(node)
        if own is not None:
            return own
        others = sorted(v for v in map(self._speed, list(self._nodes)) if v is not None)
        return others[len(others) // 2] if others else self._default_prefill

    def _speed(self, node: str) -> float | None:
        samples = sorted(self._n(node).prefill_samples)
        if not samples:
            return None
        if len(samples) < 3:
            return samples[-1]
        return samples[int(0.9 * (len(samples) - 1))]

    def step_s(self, node: str) -> float:
        s = self._n(node).step_s
        return self._default_step if s is None else s
