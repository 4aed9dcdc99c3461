"""A GPU serving node as vLLM runs it, in simulated time: continuous batching under a KV-cache
block budget, prefix caching (LRU over hashed 16-token blocks), chunked prefill whose time is
proportional to the prompt tokens not found in the cache, decode steps that slow down with the
batch and its context, and a FCFS queue while the KV cache is full.

Pure and clock-free: a driver calls `begin_step(now)` for the step's duration and
`end_step(end)` for what the step produced, so the same model serves the HTTP emulator (driven
by a scaled wall clock) and the fleet benchmark (driven by an event queue).

One simplification against vLLM: a request's KV blocks for its prompt AND its `max_tokens` are
reserved when it is admitted (vLLM allocates as it goes and preempts when it runs out), so
the model never preempts and KV use reads a little higher than vLLM's under the same load.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from gateway.emulators.gpu_profiles import GpuProfile

# vLLM's own bucket bounds for vllm:time_to_first_token_seconds
TTFT_BUCKETS = (
    0.001,
    0.005,
    0.01,
    0.02,
    0.04,
    0.06,
    0.08,
    0.1,
    0.25,
    0.5,
    0.75,
    1.0,
    2.5,
    5.0,
    7.5,
    10.0,
    20.0,
    40.0,
    80.0,
    160.0,
    640.0,
    2560.0,
)


def block_hashes(tokens: Sequence[object], block_size: int = 16) -> list[int]:
    """Chained hashes of the full blocks of a token sequence (a block's hash covers every
    token before it, so equal hashes mean equal prefixes), as vLLM's prefix cache keys them."""
    out: list[int] = []
    prev = b""
    for i in range(0, len(tokens) - block_size + 1, block_size):
        h = hashlib.blake2b(
            prev + repr(tuple(tokens[i : i + block_size])).encode(), digest_size=8
        ).digest()
        out.append(int.from_bytes(h, "big"))
        prev = h
    return out


@dataclass(eq=False, slots=True)
class SimRequest:
    rid: str
    prompt_tokens: int
    output_tokens: int
    hashes: list[int]  # chained hashes of the prompt's full blocks
    arrival: float
    # filled in by the node
    cached_tokens: int = 0
    prefilled: int = 0
    generated: int = 0
    first_token_at: float | None = None
    finished_at: float | None = None
    shared: list[int] = field(default_factory=list)  # cached blocks it holds a reference to
    own: list[int] = field(default_factory=list)  # its new prompt blocks, cached once computed
    private_blocks: int = 0

    @property
    def in_prefill(self) -> bool:
        return self.prefilled < self.prompt_tokens


@dataclass(frozen=True, slots=True)
class StepEvent:
    request: SimRequest
    tokens: int  # output tokens this step produced for it (0 or 1)
    first: bool
    finished: bool


@dataclass(slots=True)
class _Plan:
    prefill: list[tuple[SimRequest, int]]
    decode: list[SimRequest]


class KvCache:
    """Block accounting: blocks in use (shared by hash, or private) and an LRU of cached blocks
    nobody uses, which count as free and are evicted oldest first."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.ref: dict[int, int] = {}
        self.lru: OrderedDict[int, None] = OrderedDict()
        self.private = 0

    @property
    def used(self) -> int:
        return len(self.ref) + self.private

    def cached_prefix(self, hashes: Sequence[int]) -> int:
        n = 0
        for h in hashes:
            if h not in self.ref and h not in self.lru:
                break
            n += 1
        return n

    def allocate(self, req: SimRequest, block_size: int, max_hit_blocks: int) -> bool:
        hits = min(self.cached_prefix(req.hashes), max_hit_blocks)
        total_blocks = -(-(req.prompt_tokens + req.output_tokens) // block_size)
        new = total_blocks - hits
        from_lru = sum(1 for h in req.hashes[:hits] if h in self.lru)
        if new > self.total - self.used - from_lru:
            return False
        for h in req.hashes[:hits]:
            if h in self.lru:
                del self.lru[h]
                self.ref[h] = 1
            else:
                self.ref[h] += 1
        while self.total - self.used - len(self.lru) < new:
            self.lru.popitem(last=False)
        req.shared = list(req.hashes[:hits])
        req.own = list(req.hashes[hits:])
        req.private_blocks = new
        req.cached_tokens = hits * block_size
        self.private += new
        return True

    def commit_prompt(self, req: SimRequest) -> None:
        """The prompt is computed: its new full blocks become cached blocks others may hit
        (a block another request cached meanwhile stays private to this one)."""
        for h in req.own:
            if h in self.ref or h in self.lru:
                continue
            self.ref[h] = 1
            self.private -= 1
            req.private_blocks -= 1
            req.shared.append(h)
        req.own = []

    def release(self, req: SimRequest) -> None:
        # tail blocks first, so they are evicted before the prefix they extend (as vLLM frees)
        for h in reversed(req.shared):
            n = self.ref[h] - 1
            if n:
                self.ref[h] = n
            else:
                del self.ref[h]
                self.lru[h] = None
        self.private -= req.private_blocks
        req.shared, req.private_blocks = [], 0


@dataclass(slots=True)
class NodeCounters:
    prompt_tokens: int = 0
    generation_tokens: int = 0
    prefix_queries: int = 0
    prefix_hits: int = 0
    requests_success: int = 0
    ttft_buckets: list[int] = field(default_factory=lambda: [0] * len(TTFT_BUCKETS))
    ttft_count: int = 0
    ttft_sum: float = 0.0

    def observe_ttft(self, seconds: float) -> None:
        self.ttft_count += 1
        self.ttft_sum += seconds
        for i, le in enumerate(TTFT_BUCKETS):
            if seconds <= le:
                self.ttft_buckets[i] += 1  # cumulative, as Prometheus buckets are


class GpuNode:
    def __init__(self, profile: GpuProfile) -> None:
        self.profile = profile
        self.kv = KvCache(profile.kv_blocks)
        self.waiting: deque[SimRequest] = deque()
        self.running: list[SimRequest] = []
        self.counters = NodeCounters()
        self._plan: _Plan | None = None

    # ---- signals vLLM exports --------------------------------------------------------
    @property
    def kv_usage(self) -> float:
        return self.kv.used / self.kv.total

    def has_work(self) -> bool:
        return bool(self.waiting or self.running)

    def submit(self, req: SimRequest) -> None:
        if (
            req.prompt_tokens + req.output_tokens > self.profile.max_model_len
            or req.prompt_tokens + req.output_tokens > self.profile.kv_tokens
        ):
            raise ValueError("request longer than the model's context")
        self.waiting.append(req)

    # ---- one engine iteration --------------------------------------------------------
    def begin_step(self, now: float) -> float:
        """Schedule one iteration at `now` and return how long it takes (0 when idle)."""
        p = self.profile
        budget = p.max_batched_tokens
        plan = _Plan([], [])
        for r in self.running:
            if not r.in_prefill:
                plan.decode.append(r)
        budget -= len(plan.decode)
        for r in self.running:
            if r.in_prefill and budget > 0:
                n = min(budget, r.prompt_tokens - r.prefilled)
                plan.prefill.append((r, n))
                budget -= n
        while self.waiting and budget > 0 and len(self.running) < p.max_num_seqs:
            r = self.waiting[0]
            # vLLM recomputes at least the prompt's last token, so a full hit stops one short
            if not self.kv.allocate(r, p.block_size, (r.prompt_tokens - 1) // p.block_size):
                break  # head-of-line waits for KV blocks, as vLLM's FCFS scheduler does
            self.waiting.popleft()
            self.running.append(r)
            self.counters.prefix_queries += r.prompt_tokens
            self.counters.prefix_hits += r.cached_tokens
            r.prefilled = r.cached_tokens
            n = min(budget, r.prompt_tokens - r.prefilled)
            plan.prefill.append((r, n))
            budget -= n
        if not plan.prefill and not plan.decode:
            self._plan = None
            return 0.0
        self._plan = plan
        context = sum(r.prompt_tokens + r.generated for r in plan.decode)
        prefill = sum(n for _, n in plan.prefill)
        self.counters.prompt_tokens += prefill
        return (
            p.base_step_s
            + len(plan.decode) * p.per_seq_s
            + context * p.kv_read_s_per_token
            + prefill / p.prefill_tok_s
        )

    def end_step(self, end: float) -> list[StepEvent]:
        plan, self._plan = self._plan, None
        if plan is None:
            return []
        events: list[StepEvent] = []
        for r, n in plan.prefill:
            r.prefilled += n
            if not r.in_prefill:
                self.kv.commit_prompt(r)
                r.first_token_at = end
                self.counters.observe_ttft(end - r.arrival)
                events.append(self._emit(r, end, first=True))
        for r in plan.decode:
            events.append(self._emit(r, end, first=False))
        done = [e.request for e in events if e.finished]
        if done:
            gone = set(map(id, done))
            self.running = [r for r in self.running if id(r) not in gone]
            for r in done:
                self.kv.release(r)
        return events

    def _emit(self, r: SimRequest, end: float, *, first: bool) -> StepEvent:
        r.generated += 1
        self.counters.generation_tokens += 1
        finished = r.generated >= r.output_tokens
        if finished:
            r.finished_at = end
            self.counters.requests_success += 1
        return StepEvent(r, 1, first, finished)
