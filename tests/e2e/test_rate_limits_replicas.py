"""Rate limits across replicas: real `gateway serve` processes counting on a real Redis.

(1) Two replicas on the shared Redis (a unique key prefix, its keys deleted afterwards; the
server is never flushed or stopped): a burst of concurrent requests split across both admits no
more than the limit, refusals are 429s in the OpenAI error shape with `Retry-After` and
`x-ratelimit-*`, admitted answers (plain and streamed) carry the headers too.
(2) A Redis outage, on a private `redis-server` this test starts on its own port and stops:
while it is down a replica counts alone at its documented share of the limit (or refuses with
503 when told to fail closed), and after Redis restarts empty at most one more limit's worth
gets through in that minute: never an unlimited burst."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import redis

from gateway.emulators.base import EmulatorServer, Mode, free_port
from gateway.emulators.openai import build_app as openai_app
from tests.e2e.gateway_proc import GatewayProcess

REDIS_URL = os.environ.get("GECIT_TEST_REDIS", "redis://127.0.0.1:6379/0")
LIMIT = 10


def _redis_available() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


pytestmark = pytest.mark.e2e


def _policy(url: str) -> str:
    return f"""
version: 1
backends:
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: {url}
    model: emulated-model
    price: {{input_per_mtok: "1", output_per_mtok: "2"}}
aliases:
  chat: {{backends: [cloud]}}
rules:
  - {{name: public-only, match: {{data_classes: [personal, special]}}, action: block}}
rate_limits:
  tenants:
    "*": {{requests_per_minute: {LIMIT}}}
"""


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        srv.state.mode = Mode(reply="bir iki üç", delay_s=0.01)
        yield srv


def _call(url: str, i: int) -> httpx.Response:
    body = {
        "model": "chat",
        "max_tokens": 8,
        "stream": i % 2 == 0,
        "messages": [{"role": "user", "content": f"soru {i}"}],
    }
    with httpx.Client(timeout=15) as client:
        if body["stream"]:
            with client.stream("POST", url + "/v1/chat/completions", json=body) as r:
                r.read()
                return r
        return client.post(url + "/v1/chat/completions", json=body)


def _burst(urls: list[str], n: int) -> list[httpx.Response]:
    with ThreadPoolExecutor(max_workers=12) as pool:
        return list(pool.map(lambda i: _call(urls[i % len(urls)], i), range(n)))


def _gateway(tmp: Path, name: str, emulator_url: str, **env: str) -> GatewayProcess:
    """A `gateway serve` with its own directory (ledger, journal, policy); started later."""
    home = tmp / name
    home.mkdir()
    policy = home / "policy.yaml"
    policy.write_text(_policy(emulator_url))
    return GatewayProcess(
        home,
        "--no-local-engine",
        "--policy",
        str(policy),
        env={"GECIT_JOURNAL_PATH": str(home / "journal"), "GECIT_LOG_LEVEL": "warning", **env},
    )


def _drop_keys(prefix: str) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=prefix + "*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.mark.skipif(not _redis_available(), reason="Redis is not running")
def test_two_replicas_on_one_redis_admit_no_more_than_the_limit(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    prefix = f"gecit-test-{os.urandom(4).hex()}:"
    gws = [
        _gateway(
            tmp_path, f"gw{i}", emulator.url, GECIT_REDIS_URL=REDIS_URL, GECIT_REDIS_PREFIX=prefix
        )
        for i in range(2)
    ]
    try:
        for gw in gws:
            gw.start()
        answers = _burst([gw.url for gw in gws], 6 * LIMIT)
    finally:
        for gw in gws:
            gw.stop()
        _drop_keys(prefix)
    ok = [r for r in answers if r.status_code == 200]
    refused = [r for r in answers if r.status_code == 429]
    print(f"two replicas, limit {LIMIT}/min: {len(ok)} of {len(answers)} admitted")
    assert len(ok) + len(refused) == len(answers), {r.status_code for r in answers}
    assert LIMIT <= len(ok) <= LIMIT + 1, len(ok)
    served_by = {r.url.port for r in ok}
    assert len(served_by) == 2  # both replicas admitted some: the count is shared
    for r in refused:
        err = r.json()["error"]
        assert err["type"] == "rate_limit_error" and err["code"] == "rate_limit_exceeded"
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert r.headers["x-ratelimit-limit-requests"] == str(LIMIT)
        assert r.headers["x-ratelimit-remaining-requests"] == "0"
    streamed = [r for r in ok if r.headers["content-type"].startswith("text/event-stream")]
    assert streamed and len(streamed) < len(ok)
    remaining = sorted(int(r.headers["x-ratelimit-remaining-requests"]) for r in ok)
    assert remaining == list(range(LIMIT - len(ok), LIMIT))


class PrivateRedis:
    """A redis-server of this test's own, on its own port, without persistence."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.dir = tmp
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=0.2).ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("private redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")
def test_a_redis_outage_and_restart_never_let_an_unlimited_burst_through(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    private = PrivateRedis(tmp_path)
    private.start()
    common = {"GECIT_REDIS_URL": private.url, "GECIT_RATE_LIMIT_RETRY_S": "0.5"}
    local = _gateway(
        tmp_path,
        "local",
        emulator.url,
        GECIT_RATE_LIMIT_LOCAL_SHARE="0.5",
        GECIT_REDIS_PREFIX="a:",
        **common,
    )
    closed = _gateway(
        tmp_path,
        "closed",
        emulator.url,
        GECIT_RATE_LIMIT_FALLBACK="closed",
        GECIT_REDIS_PREFIX="b:",
        **common,
    )
    try:
        local.start()
        closed.start()
        before = _burst([local.url], 4)  # all admitted and counted on Redis (and locally)
        assert [r.status_code for r in before] == [200] * 4
        private.stop()
        down = _burst([local.url], 3 * LIMIT)
        down_closed = _burst([closed.url], 10)
        private.start()  # back, empty: the minute's history is gone
        time.sleep(1.0)  # past GECIT_RATE_LIMIT_RETRY_S: the replicas try Redis again
        after = _burst([local.url], 3 * LIMIT)
        after_closed = _burst([closed.url], 3 * LIMIT)
    finally:
        local.stop()
        closed.stop()
        private.stop()
    # down: this replica alone, at half the limit, with its 4 earlier requests counted
    down_ok = sum(r.status_code == 200 for r in down)
    assert down_ok == LIMIT // 2 - 4, [r.status_code for r in down]
    assert {r.status_code for r in down} <= {200, 429}
    assert {r.status_code for r in down_closed} == {503}
    assert all(r.json()["error"]["code"] == "rate_limit_unavailable" for r in down_closed)
    assert all(r.headers["retry-after"] == "1" for r in down_closed)
    # restarted empty: at most one limit more in this minute, not unlimited
    after_ok = sum(r.status_code == 200 for r in after)
    print(f"outage, limit {LIMIT}/min, share 0.5: before 4, down {down_ok}, after {after_ok}")
    assert after_ok == LIMIT
    assert sum(r.status_code == 200 for r in after_closed) == LIMIT
    # in that minute: 4 + 1 + 10 = 15 admitted against a limit of 10 (the documented bound:
    # the limit, plus each replica's share while Redis is away, plus one limit after it
    # restarts empty)
    assert 4 + down_ok + after_ok == LIMIT + LIMIT // 2
