"""The policy's rate limits on `/v1/embeddings`, counted on the shared Redis (a unique key
prefix, its keys deleted afterwards; the server is never flushed): the real openai SDK against
an in-process gateway served by uvicorn, the OpenAI emulator behind it. An embeddings request is
charged one request and the estimated tokens of its inputs, like a chat request; a refusal is a
429 in the OpenAI error shape with `Retry-After` and `x-ratelimit-*`, never reaches the backend
and still gets its ledger row; an admitted answer carries the headers, and its token charge is
corrected to the tokens the backend reported."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import openai
import pytest
import redis

from gateway.core.tokens import estimate_text_tokens
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.settings import Settings
from tests.e2e.helpers import ServedGateway, new_key

REDIS_URL = os.environ.get("GECIT_TEST_REDIS", "redis://127.0.0.1:6379/0")
REQUESTS = 3  # per minute, for tenant acme
TOKENS = 40  # per minute, for alias `embed`


def _redis_available() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


pytestmark = pytest.mark.skipif(not _redis_available(), reason="Redis is not running")


def _policy(cloud: str) -> str:
    return f"""
version: 1
backends:
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: {cloud}
    model: emulated-model
    price: {{input_per_mtok: "0.02", output_per_mtok: "0"}}
aliases:
  embed: {{backends: [cloud]}}
  search: {{backends: [cloud]}}
rules:
  - {{name: public-only, match: {{data_classes: [personal, special]}}, action: block}}
rate_limits:
  tenants:
    acme: {{requests_per_minute: {REQUESTS}}}
  aliases:
    search: {{tokens_per_minute: {TOKENS}}}
"""


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        yield srv


@pytest.fixture
def served(emulator: EmulatorServer, tmp_path: Path) -> Iterator[tuple[ServedGateway, str]]:
    """A gateway counting on the shared Redis under its own prefix, and that prefix."""
    prefix = f"gecit-test-{os.urandom(4).hex()}:"
    db = tmp_path / "ledger.db"
    url = f"sqlite:///{db}"
    settings = Settings(
        database_url=url,
        local_engine=False,
        require_keys=True,
        journal_path=str(tmp_path / "journal"),
        probe_interval_s=0,
        policy_watch_s=0,
        redis_url=REDIS_URL,
        redis_prefix=prefix,
    )
    key = new_key(url, "acme", "search")
    try:
        with ServedGateway(settings, _policy(emulator.url), key=key, db=db, graceful_s=1) as gw:
            yield gw, prefix
    finally:
        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


def _client(gw: ServedGateway) -> openai.OpenAI:
    return openai.OpenAI(base_url=gw.url + "/v1", api_key=gw.key, max_retries=0, timeout=10)


def _embedding_calls(srv: EmulatorServer) -> int:
    return sum(1 for r in srv.state.requests if r.path == "/v1/embeddings")


def _ledger(db: Path | None) -> list[tuple[int, str | None, int]]:
    assert db is not None
    deadline = time.monotonic() + 10
    while True:  # the recorder writes in the background
        with sqlite3.connect(db) as conn:
            rows = conn.execute(
                "select status, error_kind, prompt_tokens from requests order by created_at"
            ).fetchall()
        if len(rows) >= REQUESTS + 1 or time.monotonic() > deadline:
            return rows
        time.sleep(0.05)


def test_the_request_limit_refuses_the_next_embeddings_call_with_429(
    served: tuple[ServedGateway, str], emulator: EmulatorServer
) -> None:
    gw, prefix = served
    client = _client(gw)
    remaining = []
    for i in range(REQUESTS):
        raw = client.embeddings.with_raw_response.create(model="embed", input=f"kargo {i}")
        assert raw.http_response.status_code == 200
        assert raw.headers["x-ratelimit-limit-requests"] == str(REQUESTS)
        remaining.append(int(raw.headers["x-ratelimit-remaining-requests"]))
        assert raw.headers["x-ratelimit-reset-requests"].endswith("s")
        assert raw.parse().data[0].embedding == [float(len(f"kargo {i}") % 7), 0.5, -0.25]
    assert remaining == [2, 1, 0]
    with pytest.raises(openai.RateLimitError) as caught:
        client.embeddings.create(model="embed", input=["kargo", "fiyat"])
    r = caught.value.response
    err = r.json()["error"]
    assert err["type"] == "rate_limit_error" and err["code"] == "rate_limit_exceeded"
    assert "tenant:acme" in err["message"]
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert r.headers["x-ratelimit-limit-requests"] == str(REQUESTS)
    assert r.headers["x-ratelimit-remaining-requests"] == "0"
    assert _embedding_calls(emulator) == REQUESTS  # the refused call never left
    # counted on the shared Redis, under this gateway's prefix
    shared = redis.Redis.from_url(REDIS_URL)
    assert shared.zcard(prefix + "rl:tenant:acme:log") == REQUESTS
    shared.close()
    rows = _ledger(gw.db)
    assert [s for s, _, _ in rows] == [200] * REQUESTS + [429]
    assert rows[-1][1] == "rate_limit_exceeded" and rows[-1][2] == 0


def test_tokens_are_counted_from_the_input_and_corrected_to_the_backends_count(
    served: tuple[ServedGateway, str], emulator: EmulatorServer
) -> None:
    gw, prefix = served
    client = _client(gw)
    # one long word: the gateway estimates ceil(22 / 4) = 6 tokens, the emulator counts 1
    word = "kargotakipnumaralarını"
    estimate = estimate_text_tokens(word)
    assert estimate == 6
    raw = client.embeddings.with_raw_response.create(model="search", input=[word])
    assert raw.headers["x-ratelimit-limit-tokens"] == str(TOKENS)
    assert raw.headers["x-ratelimit-remaining-tokens"] == str(TOKENS - estimate)
    assert raw.parse().usage.prompt_tokens == 1
    shared = redis.Redis.from_url(REDIS_URL)
    deadline = time.monotonic() + 5
    while shared.get(prefix + "rl:alias:search:sum") != b"1":  # settled off the request path
        assert time.monotonic() < deadline, shared.get(prefix + "rl:alias:search:sum")
        time.sleep(0.02)
    shared.close()
    # 40 short words estimate 40 tokens: more than the 39 left, refused before the call
    big = " ".join(["bir"] * TOKENS)
    calls = _embedding_calls(emulator)
    with pytest.raises(openai.RateLimitError) as caught:
        client.embeddings.create(model="search", input=big)
    r = caught.value.response
    assert "alias:search" in r.json()["error"]["message"]
    assert r.headers["x-ratelimit-limit-tokens"] == str(TOKENS)
    assert r.headers["x-ratelimit-remaining-tokens"] == str(TOKENS - 1)
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert _embedding_calls(emulator) == calls
    # what fits the 39 left passes: 39 tokens of input
    ok = client.embeddings.with_raw_response.create(model="search", input=["bir"] * (TOKENS - 1))
    assert ok.headers["x-ratelimit-remaining-tokens"] == "0"
