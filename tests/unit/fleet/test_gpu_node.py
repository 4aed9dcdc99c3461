"""The simulated vLLM node: prefix caching, prefill cost, batching, KV budget and queueing."""

from __future__ import annotations

from dataclasses import replace

from gateway.emulators.gpu_node import GpuNode, SimRequest, block_hashes
from gateway.emulators.gpu_profiles import PROFILES


def _req(rid: str, tokens: list[int], out: int = 4, at: float = 0.0) -> SimRequest:
    return SimRequest(rid, len(tokens), out, block_hashes(tokens), at)


def _drain(node: GpuNode, t: float = 0.0) -> float:
    while node.has_work():
        d = node.begin_step(t)
        assert d > 0
        node.end_step(t + d)
        t += d
    return t


def test_block_hashes_chain_over_the_whole_prefix() -> None:
    a = block_hashes(list(range(64)))
    b = block_hashes([*range(16), 999, *range(17, 64)])
    assert len(a) == 4 and a[0] == b[0] and a[1] != b[1] and a[2:] != b[2:]
    assert block_hashes(list(range(15))) == []


def test_a_shared_prefix_is_served_from_the_cache_and_prefills_faster() -> None:
    node = GpuNode(PROFILES["a100-8b"])
    system = list(range(2048))
    first = _req("a", [*system, *range(10_000, 10_100)])
    node.submit(first)
    t = _drain(node)
    second = _req("b", [*system, *range(20_000, 20_100)], at=t)
    node.submit(second)
    _drain(node, t)
    assert first.cached_tokens == 0
    assert second.cached_tokens == 2048  # the 128 full blocks of the system prompt
    assert first.first_token_at is not None and second.first_token_at is not None
    assert second.first_token_at - second.arrival < (first.first_token_at - first.arrival) / 5
    assert node.counters.prefix_queries == first.prompt_tokens + second.prompt_tokens
    assert node.counters.prefix_hits == 2048


def test_prefill_time_is_proportional_to_uncached_tokens() -> None:
    p = PROFILES["l40s-8b"]
    times = []
    for n in (1024, 4096):
        node = GpuNode(p)
        node.submit(_req("x", list(range(n)), out=1))
        times.append(node.begin_step(0.0) - p.base_step_s)
    assert abs(times[1] / times[0] - 4.0) < 0.01


def test_decode_steps_slow_down_with_the_batch() -> None:
    node = GpuNode(PROFILES["h100-8b"])
    for i in range(32):
        node.submit(_req(f"r{i}", list(range(i * 1000, i * 1000 + 100)), out=50))
    t = 0.0
    d = node.begin_step(t)  # all prefills in one step
    node.end_step(t + d)
    batch_step = node.begin_step(t + d)
    single = GpuNode(PROFILES["h100-8b"])
    single.submit(_req("s", list(range(100)), out=50))
    d1 = single.begin_step(0.0)
    single.end_step(d1)
    single_step = single.begin_step(d1)
    assert batch_step > 1.5 * single_step
    assert 32 / batch_step > 10 * (1 / single_step)  # but the batch's throughput is far higher


def test_requests_queue_when_the_kv_cache_is_full_and_never_exceed_it() -> None:
    tiny = replace(PROFILES["l40s-8b"], kv_blocks=64)  # 1,024 tokens of KV
    node = GpuNode(tiny)
    reqs = [_req(f"r{i}", list(range(i * 1000, i * 1000 + 400)), out=80) for i in range(4)]
    for r in reqs:
        node.submit(r)
    node.begin_step(0.0)
    assert len(node.running) == 2 and len(node.waiting) == 2  # 2 x 30 blocks fit, not 3
    t = 0.0
    while node.has_work():
        assert node.kv.used <= tiny.kv_blocks
        d = node.begin_step(t)
        node.end_step(t + d)
        t += d
    assert all(r.finished_at is not None for r in reqs)
    assert reqs[2].first_token_at is not None and reqs[1].finished_at is not None
    assert reqs[2].first_token_at >= reqs[1].finished_at  # waited for blocks to free


def test_cached_blocks_are_evicted_least_recently_used_first() -> None:
    tiny = replace(PROFILES["l40s-8b"], kv_blocks=40)
    node = GpuNode(tiny)
    a, b = list(range(320)), list(range(1000, 1320))  # 20 blocks each
    t = 0.0
    for rid, toks in (("a", a), ("b", b), ("b2", b)):
        node.submit(_req(rid, toks, out=1, at=t))
        t = _drain(node, t)
    c = list(range(5000, 5320))
    node.submit(_req("c", c, out=1, at=t))  # needs room: evicts a (older), keeps b
    t = _drain(node, t)
    again_b, again_a = _req("b3", b, out=1, at=t), _req("a2", a, out=1, at=t)
    node.submit(again_b)
    t = _drain(node, t)
    node.submit(again_a)
    _drain(node, t)
    assert again_b.cached_tokens > 0
    assert again_a.cached_tokens == 0
