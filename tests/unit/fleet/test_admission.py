"""Admission to a busy pool: spillable requests are refused at once, the others wait in a bounded
queue per data class, in (tenant, rule) priority order, and are refused with Retry-After
before their first-token deadline rather than left to time out."""

from __future__ import annotations

import asyncio

import pytest

from gateway.core.errors import FailureKind, ProviderError
from gateway.fleet.admission import DEADLINE_GUARD_S, AdmissionQueue
from gateway.fleet.picker import Pick


class Busy:
    """A pool whose predicted first token is whatever the test sets."""

    def __init__(self, predicted: float) -> None:
        self.predicted = predicted

    def pick(self) -> Pick:
        return Pick("n1", ("n1",), "test", self.predicted, ())


def _queue(**bounds: int) -> AdmissionQueue:
    loop = asyncio.get_running_loop()
    return AdmissionQueue("pool", bounds or {"special": 4}, loop.time, recheck_s=0.01)


async def test_a_spillable_request_is_refused_when_the_node_would_start_late() -> None:
    q = _queue()
    pool = Busy(3.0)
    with pytest.raises(ProviderError) as exc:
        q.try_now(pool.pick(), target_s=1.0)
    assert exc.value.kind is FailureKind.RATE_LIMIT and exc.value.retry_after == 2.0
    pool.predicted = 0.5
    assert q.try_now(pool.pick(), target_s=1.0).node == "n1"


async def test_waiters_go_in_priority_order_then_arrival_order() -> None:
    q = _queue(special=8)
    pool = Busy(5.0)
    served: list[str] = []

    async def one(name: str, prio: tuple[int, int]) -> None:
        await q.wait("special", prio, pool.pick, 1.0, 30.0)
        served.append(name)
        pool.predicted = 5.0  # the admitted request fills the node again

    tasks = [
        asyncio.create_task(one("low", (0, 0))),
        asyncio.create_task(one("rule-high", (0, 5))),
        asyncio.create_task(one("tenant-high", (1, 0))),
        asyncio.create_task(one("low-later", (0, 0))),
    ]
    await asyncio.sleep(0.05)
    assert q.waiting("special") == 4 and served == []
    for _ in range(4):
        pool.predicted = 0.1  # a node frees up
        q.wake()
        await asyncio.sleep(0.03)
    await asyncio.gather(*tasks)
    assert served == ["tenant-high", "rule-high", "low", "low-later"]
    assert q.waiting() == 0


async def test_a_full_class_queue_refuses_with_retry_after_and_others_still_wait() -> None:
    q = _queue(special=1, personal=1)
    pool = Busy(4.0)
    first = asyncio.create_task(q.wait("special", (0, 0), pool.pick, 1.0, 30.0))
    await asyncio.sleep(0.02)
    with pytest.raises(ProviderError) as exc:
        await q.wait("special", (0, 0), pool.pick, 1.0, 30.0)
    assert exc.value.kind is FailureKind.RATE_LIMIT and exc.value.retry_after == 3.0
    assert "special queue is full" in exc.value.message
    other = asyncio.create_task(q.wait("personal", (0, 0), pool.pick, 1.0, 30.0))
    await asyncio.sleep(0.02)
    assert q.waiting("personal") == 1
    pool.predicted = 0.0
    q.wake()
    assert (await first).node == "n1" and (await other).node == "n1"


async def test_a_class_without_a_bound_never_waits() -> None:
    q = _queue(special=4)
    with pytest.raises(ProviderError):
        await q.wait("public", (0, 0), Busy(2.0).pick, 1.0, 30.0)


async def test_a_waiter_is_refused_before_its_deadline_not_timed_out() -> None:
    q = _queue()
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    with pytest.raises(ProviderError) as exc:
        await q.wait("special", (0, 0), Busy(0.6).pick, 0.5, 1.0)
    # it gave up once what was left of the deadline could no longer hold the predicted start
    assert loop.time() - t0 <= 1.0 - DEADLINE_GUARD_S + 0.05
    assert exc.value.kind is FailureKind.RATE_LIMIT and exc.value.retry_after is not None
    assert q.waiting() == 0


async def test_spillable_requests_do_not_jump_ahead_of_waiters() -> None:
    q = _queue()
    pool = Busy(3.0)
    waiter = asyncio.create_task(q.wait("special", (0, 0), pool.pick, 1.0, 30.0))
    await asyncio.sleep(0.02)
    pool.predicted = 0.2
    with pytest.raises(ProviderError) as exc:
        q.try_now(pool.pick(), target_s=1.0)  # the node has room, but a request is waiting
    assert "waiting" in exc.value.message
    q.wake()
    assert (await waiter).node == "n1"


async def test_a_cancelled_waiter_leaves_the_queue() -> None:
    q = _queue()
    pool = Busy(3.0)
    a = asyncio.create_task(q.wait("special", (5, 0), pool.pick, 1.0, 30.0))
    b = asyncio.create_task(q.wait("special", (0, 0), pool.pick, 1.0, 30.0))
    await asyncio.sleep(0.02)
    a.cancel()
    await asyncio.sleep(0.02)
    assert q.waiting("special") == 1
    pool.predicted = 0.1
    q.wake()
    assert (await b).node == "n1"
