"""The node picker: filters, bounded load, prefix affinity, heterogeneity, explanations."""

from __future__ import annotations

from dataclasses import replace

from gateway.fleet.picker import HashRing, NodeView, PickConfig, load_bound, pick
from gateway.fleet.prefix import PrefixBlock, PrefixIndex, prefix_blocks

BLOCKS = (PrefixBlock(11, 500), PrefixBlock(12, 500), PrefixBlock(13, 100))
PROMPT = 1100


def _views(**over: dict[str, object]) -> list[NodeView]:
    base = [
        NodeView("a", prefill_tok_s=8000),
        NodeView("b", prefill_tok_s=8000),
        NodeView("c", prefill_tok_s=8000),
    ]
    return [replace(v, **over.get(v.name, {})) for v in base]  # type: ignore[arg-type]


def test_filters_give_a_reason_for_every_dropped_node() -> None:
    views = _views(a={"healthy": False}, b={"context_length": 1024}, c={"model_loaded": False})
    got = pick(views, BLOCKS, PROMPT, 256)
    assert got.node is None and got.order == ()
    reasons = dict(got.dropped)
    assert "unhealthy" in reasons["a"] and "context 1024" in reasons["b"]
    assert "not loaded" in reasons["c"]


def test_a_node_holding_the_prefix_wins() -> None:
    got = pick(_views(b={"cached_tokens": 1000}), BLOCKS, PROMPT, 256)
    assert got.node == "b" and got.order[0] == "b" and set(got.order) == {"a", "b", "c"}
    assert "1000 of 1100 prompt tokens thought cached" in got.reason


def test_affinity_yields_to_a_long_queue() -> None:
    # b holds the prefix but 40,000 prompt tokens are queued there: 5 s of prefill
    views = _views(b={"cached_tokens": 1000, "queued_prefill_tokens": 40_000, "in_flight": 2})
    assert pick(views, BLOCKS, PROMPT, 256).node != "b"


def test_bounded_load_keeps_a_hot_prefix_from_swamping_its_node() -> None:
    views = _views(
        a={"cached_tokens": 1000, "in_flight": 6}, b={"in_flight": 1}, c={"in_flight": 1}
    )
    assert load_bound(views[0], views, 1.25) == 4  # ceil(1.25 * 9 / 3)
    got = pick(views, BLOCKS, PROMPT, 256)
    assert got.node in {"b", "c"}
    assert any(n == "a" and "load bound" in why for n, why in got.dropped)
    loose = pick(views, BLOCKS, PROMPT, 256, config=PickConfig(load_factor=3.0))
    assert loose.node == "a"


def test_a_faster_node_gets_a_cold_prompt() -> None:
    views = _views(c={"prefill_tok_s": 30_000})
    assert pick(views, BLOCKS, PROMPT, 256).node == "c"


def test_kv_headroom_filter_and_its_fallback_when_every_node_is_full() -> None:
    views = _views(a={"kv_usage": 0.99, "cached_tokens": 1000})
    got = pick(views, BLOCKS, PROMPT, 256)
    assert got.node != "a" and ("a", "KV cache 99% full") in got.dropped
    full = _views(a={"kv_usage": 0.99}, b={"kv_usage": 0.97}, c={"kv_usage": 0.98})
    assert pick(full, BLOCKS, PROMPT, 256).node in {"a", "b", "c"}


def test_ties_go_to_the_prefix_home_on_the_ring() -> None:
    ring = HashRing([("a", 1.0), ("b", 1.0), ("c", 1.0)])
    home = ring.walk(BLOCKS[0].key)[0]
    assert pick(_views(), BLOCKS, PROMPT, 256, ring).node == home
    # the same first block always finds the same home, whatever follows it
    other = (BLOCKS[0], PrefixBlock(99, 500))
    assert pick(_views(), other, PROMPT, 256, ring).node == home
    assert sorted(ring.walk(12345)) == ["a", "b", "c"]


def test_engine_waiting_counts_when_geçit_sent_nothing_there() -> None:
    views = _views(a={"engine_waiting": 5.0}, b={"in_flight": 1})
    assert pick(views, BLOCKS, PROMPT, 256).node != "a"


def test_prefix_blocks_chain_and_the_index_forgets_least_recent_first() -> None:
    system = ("system", "Sen bir hastane asistanısın. " * 40)
    turn1 = prefix_blocks([system, ("user", "Randevu almak istiyorum.")])
    turn2 = prefix_blocks(
        [
            system,
            ("user", "Randevu almak istiyorum."),
            ("assistant", "Hangi bölüm?"),
            ("user", "Kardiyoloji."),
        ]
    )
    other = prefix_blocks(
        [("system", "Sen bir hukuk asistanısın."), ("user", "Randevu almak istiyorum.")]
    )
    assert turn2[: len(turn1)] == turn1 and len(turn2) == len(turn1) + 2
    assert other[0].key != turn1[0].key and other[1].key != turn1[-1].key
    held = sum(b.tokens for b in turn1)
    index = PrefixIndex({"a": held + 5, "b": 10_000})
    index.record("a", turn1)
    assert index.matched_tokens("a", turn2) == held
    assert index.matched_tokens("b", turn2) == 0
    index.record("a", other)  # over a's capacity: turn1's tail goes first, its head stays
    assert 0 < index.matched_tokens("a", turn2) < held
    assert index.matched_tokens("a", other) == sum(b.tokens for b in other)


def test_a_conversation_keeps_its_node_unless_it_is_twice_as_slow_to_start() -> None:
    # b holds 1,000 of 1,100 tokens but is busy: 0.23 s predicted vs a cold 0.1675 s elsewhere
    views = _views(b={"cached_tokens": 1000, "queued_prefill_tokens": 1500})
    assert pick(views, BLOCKS, PROMPT, 256).node == "b"
    assert pick(views, BLOCKS, PROMPT, 256, config=PickConfig(tie_ratio=0.0)).node != "b"
    busier = _views(b={"cached_tokens": 1000, "queued_prefill_tokens": 4000})  # 0.54 s
    assert pick(busier, BLOCKS, PROMPT, 256).node != "b"
