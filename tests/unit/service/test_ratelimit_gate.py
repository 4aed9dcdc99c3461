"""The rate gate: which limits a request is charged to, the 429 it gets (OpenAI error shape,
`Retry-After`, `x-ratelimit-*`), the headers an admitted request carries, and what happens when
the shared counter cannot be reached (a real Redis client pointed at a port nobody listens on):
the local fallback holds each limit times its share, or the gate refuses with 503."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from gateway.core.errors import RateLimited, ServiceUnavailable
from gateway.core.types import ChatRequest, RequestContext
from gateway.emulators.base import free_port
from gateway.policy.decision import RouteDecision
from gateway.policy.loader import load_text
from gateway.service.rate_windows import LocalWindow, RedisWindow
from gateway.service.ratelimit import RateGate, _duration

POLICY = """
version: 1
backends:
  cloud: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: m}
aliases:
  chat: {backends: [cloud]}
rules:
  - {name: public-only, match: {data_classes: [personal, special]}, action: block}
rate_limits:
  tenants:
    acme: {requests_per_minute: 4}
    "*": {requests_per_minute: 100}
  keys:
    k1: {tokens_per_minute: 1000}
  aliases:
    chat: {requests_per_minute: 50}
"""


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return 1_700_000_000 + self.t

    def monotonic(self) -> float:
        return self.t


def _gate(clock: Clock, **kw: object) -> RateGate:
    policy = load_text(POLICY).policy
    local = LocalWindow(lambda: clock.monotonic() * 1000, share=kw.pop("share", 1.0))  # type: ignore[arg-type]
    return RateGate(lambda: policy, local, clock, **kw)  # type: ignore[arg-type]


def _request(
    i: int, tenant: str = "acme", key: str | None = "k1"
) -> tuple[RequestContext, ChatRequest, RouteDecision]:
    ctx = RequestContext(request_id=f"req_{i}", tenant=tenant, key_id=key)
    req = ChatRequest(model="chat", messages=[{"role": "user", "content": "merhaba"}])
    return ctx, req, RouteDecision(alias="chat", candidates=("cloud",), prompt_tokens=100)


async def test_the_tightest_limit_refuses_with_openai_headers() -> None:
    gate = _gate(Clock())
    for i in range(4):
        decision, grant = await gate.admit(*_request(i))
        assert grant is not None
        assert {s.name for s in grant.scopes} == {"tenant:acme", "key:k1", "alias:chat"}
    headers = dict(decision.headers)
    assert headers["x-ratelimit-limit-requests"] == "4"
    assert headers["x-ratelimit-remaining-requests"] == "0"
    assert headers["x-ratelimit-limit-tokens"] == "1000"
    assert headers["x-ratelimit-remaining-tokens"] == "600"
    with pytest.raises(RateLimited) as caught:
        await gate.admit(*_request(9))
    err = caught.value
    assert err.status == 429 and err.body()["error"]["type"] == "rate_limit_error"
    assert err.body()["error"]["code"] == "rate_limit_exceeded"
    assert "tenant:acme" in err.message
    assert err.headers["retry-after"] == "60"
    assert err.headers["x-ratelimit-remaining-requests"] == "0"
    # another tenant falls under "*", counted on its own
    _, grant = await gate.admit(*_request(10, tenant="other", key=None))
    assert grant is not None and [s.name for s in grant.scopes] == ["tenant:other", "alias:chat"]


async def test_no_limit_that_applies_costs_nothing() -> None:
    policy = load_text(POLICY.split("rate_limits:")[0]).policy
    gate = RateGate(lambda: policy, LocalWindow(lambda: 0.0), Clock())
    decision, grant = await gate.admit(*_request(1))
    assert grant is None and decision.headers == ()


def _unreachable() -> RedisWindow:
    client = aioredis.from_url(
        f"redis://127.0.0.1:{free_port()}/0", socket_timeout=0.2, socket_connect_timeout=0.2
    )
    return RedisWindow(client, "gecit-test:")


async def test_redis_away_falls_back_to_the_local_share_never_unlimited() -> None:
    clock = Clock()
    gate = _gate(clock, shared=_unreachable(), share=0.5, retry_s=5.0)
    admitted = 0
    for i in range(20):
        try:
            await gate.admit(*_request(i))
            admitted += 1
        except RateLimited:
            pass
    assert admitted == 2  # acme's 4 per minute, half of it on this replica alone


async def test_redis_away_fails_closed_when_told_to() -> None:
    gate = _gate(Clock(), shared=_unreachable(), fallback="closed", retry_s=3.0)
    for i in range(3):  # the first finds Redis away; the others, within retry_s, too
        with pytest.raises(ServiceUnavailable) as caught:
            await gate.admit(*_request(i))
        assert caught.value.status == 503 and caught.value.headers["retry-after"] == "3"


@pytest.mark.parametrize(
    ("ms", "text"), [(20, "20ms"), (1500, "1.5s"), (60_000, "1m0s"), (59_999, "59.999s")]
)
def test_durations_are_spelled_like_openai(ms: int, text: str) -> None:
    assert _duration(ms) == text
