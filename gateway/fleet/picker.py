"""Picking the on-prem node for one request: filter, bounded load, prefix affinity, score.

1. Filter: the node is healthy, has the model loaded, its context fits the prompt and
   `max_tokens`, and its KV cache has headroom (engine-reported use below `kv_high`; when no
   node has headroom, all stay and the engines queue).
2. Bounded load (consistent hashing with bounded loads, Mirrokni et al. 2018): a node may
   carry at most `load_factor` x its capacity share of Geçit's in-flight requests (+1); a node
   at its bound is skipped, so one hot prefix cannot swamp a node.
3. Score: the predicted time to first token on the node: the prompt tokens queued ahead of the
   request (Geçit's own, or the engine's waiting count when it reports more) plus the request's
   tokens the node does NOT already hold in its prefix cache, at the node's prefill speed, plus
   one decode step. Prefix affinity is this term: a node thought to hold the system prompt and
   the conversation so far skips their prefill.
4. Ties (within `tie_ratio` x the best prediction + `tie_s`) go to the node holding the longest
   prefix, then to the prefix's home on a consistent-hash ring keyed by its first block, so the
   sessions of one system prompt gather on one node before any of them has been served (and
   every gateway replica agrees where).

Pure: the caller passes what it knows about each node at this instant.
"""

from __future__ import annotations

import bisect
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from gateway.fleet.prefix import PrefixBlock


@dataclass(frozen=True, slots=True)
class NodeView:
    name: str
    healthy: bool = True
    model_loaded: bool | None = None
    context_length: int | None = None
    kv_usage: float | None = None  # engine-reported, 0..1; None when unknown or stale
    engine_waiting: float | None = None
    in_flight: int = 0  # Geçit's requests on the node that have not finished
    queued_prefill_tokens: int = 0  # Geçit's requests there still waiting for a first token
    prefill_tok_s: float = 5000.0  # measured (or configured) prefill speed
    step_s: float = 0.03  # measured time of one decode step under the node's current batch
    weight: float = 1.0  # capacity share for the load bound
    cached_tokens: int = 0  # tokens of this request's prefix the node is thought to hold


@dataclass(frozen=True, slots=True)
class PickConfig:
    kv_high: float = 0.95
    load_factor: float = 1.25
    tie_s: float = 0.02
    # also a tie: within this fraction of the best prediction. Leaving the node that holds a
    # conversation costs its next turns their cache too, which one prediction does not see;
    # 1.0 (tuned on bench/fleet.py's seed 1) keeps it unless it is twice as slow to start
    tie_ratio: float = 1.0
    ring_replicas: int = 64


@dataclass(frozen=True, slots=True)
class Pick:
    node: str | None
    order: tuple[str, ...]  # best first; the dispatcher falls back along it
    reason: str
    predicted_ttft_s: float | None
    dropped: tuple[tuple[str, str], ...]


class HashRing:
    """A consistent-hash ring of node names (`replicas` points each, scaled by weight)."""

    def __init__(self, nodes: Sequence[tuple[str, float]], replicas: int = 64) -> None:
        points: list[tuple[int, str]] = []
        top = max((w for _, w in nodes), default=1.0) or 1.0
        for name, w in nodes:
            for i in range(max(1, round(replicas * w / top))):
                points.append((_h(f"{name}#{i}".encode()), name))
        points.sort()
        self._keys = [k for k, _ in points]
        self._names = [n for _, n in points]

    def walk(self, key: int) -> list[str]:
        """Every node once, in ring order from `key`."""
        if not self._keys:
            return []
        start = bisect.bisect(self._keys, key)
        seen: dict[str, None] = {}
        for i in range(len(self._keys)):
            seen.setdefault(self._names[(start + i) % len(self._keys)], None)
        return list(seen)


def _h(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def predicted_ttft(v: NodeView, prompt_tokens: int) -> float:
    queued = v.queued_prefill_tokens
    if v.engine_waiting is not None and v.in_flight == 0:
        # requests from elsewhere are waiting there; count them at this prompt's size
        queued = max(queued, int(v.engine_waiting * prompt_tokens))
    uncached = max(0, prompt_tokens - v.cached_tokens)
    return (queued + uncached) / max(v.prefill_tok_s, 1.0) + v.step_s


def load_bound(view: NodeView, views: Sequence[NodeView], factor: float) -> int:
    total = sum(v.in_flight for v in views) + 1
    weight = sum(v.weight for v in views) or 1.0
    return max(1, math.ceil(factor * total * view.weight / weight))


def pick(
    views: Sequence[NodeView],
    blocks: Sequence[PrefixBlock],
    prompt_tokens: int,
    max_tokens: int,
    ring: HashRing | None = None,
    config: PickConfig = PickConfig(),
) -> Pick:
    dropped: list[tuple[str, str]] = []
    ok: list[NodeView] = []
    for v in views:
        why = _unfit(v, prompt_tokens, max_tokens, config)
        if why:
            dropped.append((v.name, why))
        else:
            ok.append(v)
    if not ok:
        return Pick(None, (), "no node can take the request", None, tuple(dropped))
    roomy = [v for v in ok if v.kv_usage is None or v.kv_usage < config.kv_high]
    if roomy:
        dropped.extend((v.name, f"KV cache {v.kv_usage:.0%} full") for v in ok if v not in roomy)
        ok = roomy
    bounded = [v for v in ok if v.in_flight < load_bound(v, ok, config.load_factor)]
    for v in ok:
        if v not in bounded:
            dropped.append((v.name, f"at its load bound ({v.in_flight} in flight)"))
    pool = bounded or ok
    home = ring.walk(blocks[0].key) if (ring is not None and blocks) else []
    rank = {name: i for i, name in enumerate(home)}
    scored = sorted(((predicted_ttft(v, prompt_tokens), v) for v in pool), key=lambda sv: sv[0])
    best_t = scored[0][0]
    near = [sv for sv in scored if sv[0] <= best_t * (1 + config.tie_ratio) + config.tie_s]
    near.sort(key=lambda sv: (-sv[1].cached_tokens, rank.get(sv[1].name, len(rank)), sv[0]))
    chosen_t, chosen = near[0]
    order = (
        chosen.name,
        *(v.name for _, v in scored if v is not chosen),
        *(v.name for v in ok if v not in pool),
    )
    reason = (
        f"predicted TTFT {chosen_t * 1000:.0f} ms ({chosen.cached_tokens} of "
        f"{prompt_tokens} prompt tokens thought cached, {chosen.queued_prefill_tokens} "
        f"queued, {chosen.in_flight} in flight"
        + (f", KV {chosen.kv_usage:.0%}" if chosen.kv_usage is not None else "")
        + ")"
    )
    if len(near) > 1 and chosen.cached_tokens == max(sv[1].cached_tokens for sv in near):
        reason += "; prefix home" if rank.get(chosen.name) == 0 else ""
    return Pick(chosen.name, order, reason, chosen_t, tuple(dropped))


def _unfit(v: NodeView, prompt_tokens: int, max_tokens: int, config: PickConfig) -> str | None:
    if not v.healthy:
        return "unhealthy (its metrics did not answer)"
    if v.model_loaded is False:
        return "model not loaded"
    if v.context_length is not None and prompt_tokens + max_tokens > v.context_length:
        return f"context {v.context_length} < {prompt_tokens} + {max_tokens} tokens"
    return None
