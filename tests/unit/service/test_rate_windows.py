"""The sliding-minute counters: in memory, and on a real Redis (a unique key prefix per test,
its keys deleted afterwards; the shared server is never flushed). Both count alike: a request
limit admits exactly its number in a minute, a token limit charges the estimate and takes the
correction, a refusal says how long to wait, and the minute slides."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import pytest
import redis
import redis.asyncio as aioredis

from gateway.policy.rate_limits import Scope
from gateway.service.rate_windows import LocalWindow, RedisWindow

REDIS_URL = os.environ.get("GECIT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


class FakeTime:
    def __init__(self) -> None:
        self.ms = 1_000_000.0

    def __call__(self) -> float:
        return self.ms


@pytest.fixture
async def shared() -> AsyncIterator[RedisWindow]:
    if not _redis_up():
        pytest.skip("Redis is not running")
    prefix = f"gecit-test-{os.urandom(4).hex()}:"
    client = aioredis.from_url(REDIS_URL)
    try:
        yield RedisWindow(client, prefix)
    finally:
        keys = [k async for k in client.scan_iter(match=prefix + "*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


REQ = Scope("tenant:acme", 3, 0)
TOK = Scope("key:k1", 0, 100)


async def test_local_request_limit_admits_exactly_its_number_then_slides() -> None:
    now = FakeTime()
    w = LocalWindow(now)
    got = [await w.take([REQ], f"r{i}", 1) for i in range(5)]
    assert [t.allowed for t in got] == [True, True, True, False, False]
    assert got[2].scopes[0].requests == 3
    assert got[3].scopes[0].wait_ms == 60_000
    now.ms += 30_000
    assert (await w.take([REQ], "r5", 1)).scopes[0].wait_ms == 30_000
    now.ms += 30_000  # the first three leave the minute
    assert (await w.take([REQ], "r6", 1)).allowed


async def test_local_token_limit_charges_the_estimate_and_takes_the_correction() -> None:
    w = LocalWindow(FakeTime())
    assert (await w.take([TOK], "a", 60)).allowed
    assert not (await w.take([TOK], "b", 60)).allowed  # 120 > 100
    await w.adjust([TOK], "a", -30)  # the call used 30 tokens, not 60
    t = await w.take([TOK], "b", 60)
    assert t.allowed and t.scopes[0].tokens == 90


async def test_local_share_scales_each_limit_and_all_scopes_charge_or_none() -> None:
    w = LocalWindow(FakeTime(), share=0.5)
    tight, loose = Scope("alias:chat", 10, 0), Scope("tenant:t", 2, 0)
    assert (await w.take([tight, loose], "a", 0)).allowed
    refused = await w.take([tight, loose], "b", 0)  # tenant: 2 * 0.5 = 1
    assert not refused.allowed
    assert refused.scopes[0].wait_ms == 0 and refused.scopes[1].wait_ms > 0
    # the alias was not charged for the refused request
    assert (await w.take([tight], "c", 0)).scopes[0].requests == 2


async def test_local_keeps_a_bounded_number_of_scopes() -> None:
    w = LocalWindow(FakeTime(), max_scopes=3)
    for i in range(10):
        await w.take([Scope(f"key:{i}", 1, 0)], "a", 0)
    assert len(w._logs) == 3


async def test_redis_request_limit_holds_under_concurrent_takes(shared: RedisWindow) -> None:
    scope = Scope("tenant:acme", 10, 0)
    got = await asyncio.gather(*(shared.take([scope], f"r{i}", 1) for i in range(50)))
    assert sum(t.allowed for t in got) == 10
    refused = [t for t in got if not t.allowed]
    assert all(0 < t.scopes[0].wait_ms <= 60_000 for t in refused)
    assert max(t.scopes[0].requests for t in got if t.allowed) == 10


async def test_redis_token_limit_and_correction(shared: RedisWindow) -> None:
    assert (await shared.take([TOK], "a", 60)).allowed
    refused = await shared.take([TOK], "b", 60)
    assert not refused.allowed and refused.scopes[0].tokens == 60
    await shared.adjust([TOK], "a", -30)
    t = await shared.take([TOK], "b", 60)
    assert t.allowed and t.scopes[0].tokens == 90
    await shared.adjust([TOK], "gone", 500)  # a request not in the log changes nothing
    assert (await shared.take([TOK], "c", 10)).scopes[0].tokens == 100


async def test_redis_charges_every_scope_or_none(shared: RedisWindow) -> None:
    tenant, key = Scope("tenant:t", 1, 0), Scope("key:k", 5, 0)
    assert (await shared.take([tenant, key], "a", 0)).allowed
    assert not (await shared.take([tenant, key], "b", 0)).allowed
    assert (await shared.take([key], "c", 0)).scopes[0].requests == 2


async def test_a_request_bigger_than_the_token_limit_waits_a_whole_window(
    shared: RedisWindow,
) -> None:
    for w in (shared, LocalWindow(FakeTime())):
        t = await w.take([Scope("alias:big", 0, 100)], "x", 500)
        assert not t.allowed and t.scopes[0].wait_ms == 60_000
