"""The failed-authentication limit per client address: a sliding window, a Retry-After that
says when the next try is allowed, addresses kept apart, and bounded memory."""

from __future__ import annotations

import pytest

from gateway.core.errors import RateLimited
from gateway.openai_api.auth import FailedAuthLimiter


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def monotonic(self) -> float:
        return self.t

    def now(self) -> float:
        return self.t


def test_the_limit_slides_with_the_window_and_says_when_to_retry() -> None:
    clock = Clock()
    limiter = FailedAuthLimiter(clock, 3, window_s=60)  # type: ignore[arg-type]
    for step in range(3):
        limiter.check("10.0.0.1")
        limiter.failed("10.0.0.1")
        clock.t += 10 * (step < 2)
    with pytest.raises(RateLimited) as refused:
        limiter.check("10.0.0.1")
    assert refused.value.status == 429
    assert refused.value.headers["retry-after"] == "40"  # the first failure leaves at +60 s
    limiter.check("10.0.0.2")  # another address is not affected
    clock.t += 40
    limiter.check("10.0.0.1")  # the oldest failure has left the window


def test_memory_is_bounded_by_the_number_of_addresses() -> None:
    clock = Clock()
    limiter = FailedAuthLimiter(clock, 1, max_clients=100)  # type: ignore[arg-type]
    for i in range(1000):
        limiter.failed(f"10.0.{i // 256}.{i % 256}")
    assert len(limiter._failures) == 100
    with pytest.raises(RateLimited):
        limiter.check("10.0.3.231")  # the most recent are kept
    limiter.check("10.0.0.0")  # the oldest were dropped
