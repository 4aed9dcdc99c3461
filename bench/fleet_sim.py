"""The fleet benchmark's simulation: multi-turn chat sessions against simulated vLLM nodes
(gateway.emulators.gpu_node, the model behind `gateway emulate vllm`), in simulated time on an
event queue, routed by round-robin, least-in-flight or Geçit's picker (gateway.fleet).

Geçit's picker sees what it would see in the gateway: its own in-flight counts and queued
prompt tokens, speeds it measured from the answers (TTFT, cached tokens as vLLM reports them in
`usage.prompt_tokens_details`), and the engines' /metrics figures as of the last scrape (every
`scrape_s`, so up to that old). It never reads the simulator's internals.
"""

from __future__ import annotations

import heapq
import itertools
import random
from dataclasses import dataclass, field

from gateway.emulators.gpu_node import GpuNode, SimRequest
from gateway.emulators.gpu_profiles import PROFILES
from gateway.fleet.picker import HashRing, NodeView, PickConfig, pick
from gateway.fleet.prefix import PrefixBlock, PrefixIndex
from gateway.fleet.tracker import NodeTracker, Ticket

FLEET = ("h100-8b", "a100-8b", "l40s-8b", "rtx6000-8b")
CLASSES = (("public", 0.6), ("personal", 0.3), ("special", 0.1))
PICK_BLOCK = 4  # the picker's prefix blocks span 4 engine blocks (64 tokens)


@dataclass(frozen=True, slots=True)
class Workload:
    apps: int = 16
    system_tokens: tuple[int, int] = (1000, 4000)
    turns: tuple[int, int] = (2, 10)
    user_tokens: tuple[int, int] = (30, 400)
    output_tokens: tuple[int, int] = (50, 500)
    think_s: float = 8.0
    burst_every_s: float = 60.0
    burst_len_s: float = 10.0
    burst_factor: float = 3.0


@dataclass(slots=True)
class Session:
    sid: int
    app: int
    data_class: str
    turns_left: int
    tokens: list[int]
    hashes: list[int] = field(default_factory=list)

    def extend(self, new: list[int]) -> None:
        self.tokens.extend(new)
        prev = self.hashes[-1] if self.hashes else 0
        for i in range(len(self.hashes) * 16, len(self.tokens) - 15, 16):
            prev = hash((prev, tuple(self.tokens[i : i + 16])))
            self.hashes.append(prev)


@dataclass(slots=True)
class First:
    arrival: float
    ttft: float  # inf: no first token before the run ended
    data_class: str
    node: str


class Router:
    name = "base"

    def choose(self, s: Session, prompt: int, now: float) -> str:
        raise NotImplementedError

    def started(self, node: str, s: Session, prompt: int) -> Ticket | None:
        return None

    def scrape(self, nodes: dict[str, GpuNode], now: float) -> None:
        pass


class RoundRobin(Router):
    name = "round-robin"

    def __init__(self, names: list[str]) -> None:
        self._it = itertools.cycle(names)

    def choose(self, s: Session, prompt: int, now: float) -> str:
        return next(self._it)


class LeastInFlight(Router):
    name = "least-in-flight"

    def __init__(self, names: list[str], tracker: NodeTracker) -> None:
        self._names, self._t = names, tracker

    def choose(self, s: Session, prompt: int, now: float) -> str:
        return min(self._names, key=self._t.in_flight)


class SessionSticky(Router):
    """Each conversation on one node for all its turns: its first turn's node, chosen on a
    consistent-hash ring weighted by the nodes' speed (no load signal)."""

    name = "session-sticky"

    def __init__(self, names: list[str]) -> None:
        self._ring = HashRing([(n, PROFILES[n].single_stream_tok_s()) for n in names])

    def choose(self, s: Session, prompt: int, now: float) -> str:
        return self._ring.walk((s.sid * 0x9E3779B97F4A7C15) & (2**64 - 1))[0]


class GecitPicker(Router):
    name = "gecit"

    def __init__(self, names: list[str], tracker: NodeTracker) -> None:
        self._names, self._t = names, tracker
        self._signals: dict[str, tuple[float, float, int]] = {}
        self._index = PrefixIndex({n: PROFILES[n].kv_tokens for n in names})
        # capacity share: the node's decode rate at a moderate batch (its /metrics do not say
        # it, so it is the operator's weight; here the profile's)
        self._weights = {n: PROFILES[n].single_stream_tok_s() for n in names}
        self._ring = HashRing([(n, self._weights[n]) for n in names])
        self.last_reason = ""
        self.config = PickConfig()

    def scrape(self, nodes: dict[str, GpuNode], now: float) -> None:
        self._signals = {
            n: (node.kv_usage, float(len(node.waiting)), node.profile.kv_tokens)
            for n, node in nodes.items()
        }

    @staticmethod
    def blocks(s: Session) -> list[PrefixBlock]:
        return [
            PrefixBlock(s.hashes[i], 16 * PICK_BLOCK)
            for i in range(PICK_BLOCK - 1, len(s.hashes), PICK_BLOCK)
        ]

    def choose(self, s: Session, prompt: int, now: float) -> str:
        blocks = self.blocks(s)
        views = []
        for n in self._names:
            kv, waiting, _cap = self._signals.get(n, (None, None, 0))
            views.append(
                NodeView(
                    name=n,
                    kv_usage=kv,
                    engine_waiting=waiting,
                    in_flight=self._t.in_flight(n),
                    queued_prefill_tokens=self._t.queued_prefill(n),
                    prefill_tok_s=self._t.prefill_tok_s(n),
                    step_s=self._t.step_s(n),
                    weight=self._weights[n],
                    cached_tokens=self._index.matched_tokens(n, blocks),
                )
            )
        got = pick(views, blocks, prompt, 1024, self._ring, self.config)
        self.last_reason = got.reason
        assert got.node is not None
        return got.node

    def started(self, node: str, s: Session, prompt: int) -> Ticket | None:
        blocks = self.blocks(s)
        cached = self._index.matched_tokens(node, blocks)
        self._index.record(node, blocks)
        return self._t.started(node, prompt, cached)


@dataclass(slots=True)
class Result:
    firsts: list[First]
    completed: int
    latency_s: float  # mean arrival-to-last-token of the completed requests
    window_s: float
    output_tokens: int
    prefix_queries: int
    prefix_hits: int
    routed: dict[str, int]


def run(
    router_kind: str,
    seed: int,
    *,
    session_rate: float | None = None,
    users: int | None = None,
    duration_s: float = 300.0,
    warmup_s: float = 60.0,
    workload: Workload = Workload(),
    scrape_s: float = 0.5,
    drain_s: float = 15.0,
) -> Result:
    """Open loop (`session_rate` sessions/s, Poisson with bursts) or closed loop (`users`
    sessions at all times, each turn sent `think_s` after the last answer). TTFTs are those of
    the requests sent between `warmup_s` and `drain_s` before the end; one still without a
    first token at the end counts as never served."""
    measured_until = duration_s - drain_s
    rng = random.Random(seed)
    names = list(FLEET)
    nodes = {n: GpuNode(PROFILES[n]) for n in names}
    tracker = NodeTracker()
    router: Router = (
        RoundRobin(names)
        if router_kind == "round-robin"
        else LeastInFlight(names, tracker)
        if router_kind == "least-in-flight"
        else SessionSticky(names)
        if router_kind == "session-sticky"
        else GecitPicker(names, tracker)
    )
    apps = [
        [a * 10_000_000 + i for i in range(rng.randint(*workload.system_tokens))]
        for a in range(workload.apps)
    ]
    zipf = [1 / (k + 1) ** 1.1 for k in range(workload.apps)]
    fresh = itertools.count(10**9)
    events: list[tuple[float, int, str, object]] = []
    seq = itertools.count()
    busy: dict[str, bool] = dict.fromkeys(names, False)
    live: dict[int, tuple[Session, SimRequest, Ticket | None, str]] = {}
    firsts: list[First] = []
    completed = 0
    latency_total = 0.0
    routed = dict.fromkeys(names, 0)
    sids = itertools.count()
    w = workload

    def push(t: float, kind: str, payload: object) -> None:
        heapq.heappush(events, (t, next(seq), kind, payload))

    def new_session(t: float) -> None:
        app = rng.choices(range(w.apps), zipf)[0]
        cls = rng.choices([c for c, _ in CLASSES], [p for _, p in CLASSES])[0]
        s = Session(next(sids), app, cls, rng.randint(*w.turns), [])
        s.extend(apps[app])
        push(t, "turn", s)

    def send(s: Session, t: float) -> None:
        s.extend([next(fresh) for _ in range(rng.randint(*w.user_tokens))])
        out = rng.randint(*w.output_tokens)
        node = router.choose(s, len(s.tokens), t)
        ticket = router.started(node, s, len(s.tokens))
        if ticket is None:
            ticket = tracker.started(node, len(s.tokens), 0)
        req = SimRequest(f"r{next(seq)}", len(s.tokens), out, list(s.hashes), t)
        nodes[node].submit(req)
        live[id(req)] = (s, req, ticket, node)
        routed[node] += 1
        if not busy[node]:
            step(node, t)

    def step(node: str, t: float) -> None:
        d = nodes[node].begin_step(t)
        busy[node] = d > 0
        if d > 0:
            push(t + d, "step", node)

    def on_step(node: str, t: float) -> None:
        nonlocal completed, latency_total
        for ev in nodes[node].end_step(t):
            s, req, ticket, _ = live[id(ev.request)]
            if ev.first:
                if ticket is not None:
                    tracker.first_token(ticket, t - req.arrival, req.cached_tokens)
                if warmup_s <= req.arrival <= measured_until:
                    firsts.append(First(req.arrival, t - req.arrival, s.data_class, node))
            if ev.finished:
                del live[id(ev.request)]
                assert req.first_token_at is not None
                if ticket is not None:
                    tracker.finished(ticket, req.output_tokens, t - req.first_token_at)
                if req.arrival >= warmup_s:
                    completed += 1
                    latency_total += t - req.arrival
                s.extend([next(fresh) for _ in range(req.output_tokens)])
                s.turns_left -= 1
                if s.turns_left > 0:
                    push(t + rng.expovariate(1 / w.think_s), "turn", s)
                elif users is not None:
                    new_session(t + rng.expovariate(1 / w.think_s))
        step(node, t)

    if users is not None:
        for _ in range(users):
            new_session(rng.uniform(0, w.think_s))
    else:
        assert session_rate is not None
        t = 0.0
        peak = session_rate * w.burst_factor
        while t < duration_s:  # thinning: a Poisson process whose rate rises in bursts
            t += rng.expovariate(peak)
            in_burst = (t % w.burst_every_s) < w.burst_len_s
            mean_factor = (
                w.burst_len_s * w.burst_factor + w.burst_every_s - w.burst_len_s
            ) / w.burst_every_s
            rate = session_rate / mean_factor * (w.burst_factor if in_burst else 1.0)
            if rng.random() < rate / peak:
                new_session(t)
    t = 0.0
    while t < duration_s:
        push(t, "scrape", None)
        t += scrape_s
    counters_at_warmup: dict[str, tuple[int, int, int]] = {}
    push(warmup_s, "mark", None)
    while events:
        t, _, kind, payload = heapq.heappop(events)
        if t > duration_s:
            break
        if kind == "turn":
            assert isinstance(payload, Session)
            send(payload, t)
        elif kind == "step":
            assert isinstance(payload, str)
            on_step(payload, t)
        elif kind == "scrape":
            router.scrape(nodes, t)
        elif kind == "mark":
            counters_at_warmup = {
                n: (x.counters.generation_tokens, x.counters.prefix_queries, x.counters.prefix_hits)
                for n, x in nodes.items()
            }
    gen = sum(x.counters.generation_tokens - counters_at_warmup[n][0] for n, x in nodes.items())
    pq = sum(x.counters.prefix_queries - counters_at_warmup[n][1] for n, x in nodes.items())
    ph = sum(x.counters.prefix_hits - counters_at_warmup[n][2] for n, x in nodes.items())
    for s_, req, _, node in live.values():
        if req.first_token_at is None and warmup_s <= req.arrival <= measured_until:
            firsts.append(First(req.arrival, float("inf"), s_.data_class, node))
    return Result(
        firsts,
        completed,
        latency_total / max(1, completed),
        duration_s - warmup_s,
        gen,
        pq,
        ph,
        routed,
    )
