"""The limits of one call: a rule's first-token deadline narrows the wait for a stream's first
byte only; the wait between later pieces keeps the backend's own timeout (narrowed only by what
is left of the request's total deadline)."""

from __future__ import annotations

from gateway.policy.decision import Limits
from gateway.providers.base import CallOptions
from gateway.service.call_options import CallOptionsFor


class FixedClock:
    def now(self) -> float:
        return 1_700_000_000.0

    def monotonic(self) -> float:
        return 100.0


BASE = CallOptions(connect_timeout=2.0, first_byte_timeout=30.0, total_timeout=60.0)


def options(limits: Limits, deadline: float | None = None, stream: bool = True) -> CallOptions:
    got = CallOptionsFor(lambda _name: BASE, FixedClock()).of("gpu", limits, deadline, stream)
    assert got is not None
    return got


def test_the_first_token_deadline_bounds_the_first_byte_not_the_gaps_after_it() -> None:
    got = options(Limits(ttft_deadline_s=4.0, ttft_slo_s=2.0))
    assert got.first_byte_timeout == 4.0
    assert got.between_chunks_timeout == 30.0
    assert got.ttft_slo_s == 2.0


def test_a_whole_answer_is_not_narrowed_by_the_first_token_deadline() -> None:
    got = options(Limits(ttft_deadline_s=4.0), stream=False)
    assert got.first_byte_timeout == 30.0
    assert got.between_chunks_timeout == 30.0


def test_the_request_deadline_narrows_every_wait() -> None:
    got = options(Limits(ttft_deadline_s=4.0), deadline=100.0 + 3.0)
    assert got.total_timeout == 3.0
    assert got.first_byte_timeout == 3.0
    assert got.between_chunks_timeout == 3.0
    got = options(Limits(ttft_deadline_s=4.0), deadline=100.0 + 10.0)
    assert (got.first_byte_timeout, got.between_chunks_timeout) == (4.0, 10.0)


def test_without_limits_the_backend_options_stand() -> None:
    assert options(Limits()) is BASE
