"""Geçit's own per-node counts and measured speeds."""

from __future__ import annotations

from gateway.fleet.tracker import NodeTracker


def test_in_flight_and_queued_prefill_follow_each_request() -> None:
    t = NodeTracker()
    a = t.started("n", prompt_tokens=3000, expected_cached=2000)
    b = t.started("n", prompt_tokens=500, expected_cached=0)
    assert (t.in_flight("n"), t.queued_prefill("n")) == (2, 1500)
    t.first_token(a, 0.2, cached_tokens=2000)
    t.first_token(a, 0.2)  # a second first token changes nothing
    assert t.queued_prefill("n") == 500
    t.finished(b)  # failed before its first token
    assert (t.in_flight("n"), t.queued_prefill("n")) == (1, 0)
    t.finished(a, output_tokens=11, decode_s=0.5)
    assert t.in_flight("n") == 0 and abs(t.step_s("n") - 0.05) < 1e-9


def test_prefill_speed_is_a_high_percentile_so_queueing_does_not_hide_it() -> None:
    t = NodeTracker(default_prefill_tok_s=1234)
    assert t.prefill_tok_s("n") == 1234
    for ttft in (0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 2.0):  # one queued behind others
        t.first_token(t.started("n", 1000, 0), ttft, cached_tokens=0)
    assert t.prefill_tok_s("n") == 10_000
    small = t.started("m", 100, 0)  # too short to say anything about prefill
    t.first_token(small, 0.5, cached_tokens=0)
    # not measured: taken to be as fast as the pool's measured nodes, not the fixed default
    assert t.prefill_tok_s("m") == 10_000
    assert NodeTracker(default_prefill_tok_s=1234).prefill_tok_s("m") == 1234


def test_a_time_that_says_nothing_of_the_prefill_is_no_sample() -> None:
    t = NodeTracker(default_prefill_tok_s=1234)
    for _ in range(3):
        t.first_token(t.started("n", 1000, 0), 8.0, cached_tokens=0, sample=False)
    assert t.prefill_tok_s("n") == 1234 and t.queued_prefill("n") == 0
