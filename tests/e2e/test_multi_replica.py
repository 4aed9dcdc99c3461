"""Replicas: two `gateway serve` processes on different ports share one
PostgreSQL database and one Redis. Concurrent clients on both: the ledger totals are exact, one
key's budget holds across both, and a policy PUT through replica A is served by replica B
within a few seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
import redis
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from tests.e2e.helpers import budget_policy, cli_budget_key, ledger
from tests.e2e.test_ledger_crash import Gateway
from tests.unit.usage.pg import pg_available, throwaway_database

REDIS_URL = os.environ.get("GECIT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_available() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not pg_available(), reason="PostgreSQL is not running"),
    pytest.mark.skipif(not _redis_available(), reason="Redis is not running"),
]

ADMIN = "multi-replica-admin"
BUDGET = Decimal("0.05")
REQUESTS_PER_CLIENT = 24


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        srv.state.mode = Mode(reply="bir iki üç dört beş", delay_s=0.01)
        yield srv


def _client(urls: list[str], key: str | None, worker: int, results: list[tuple[int, str]]) -> None:
    headers = {"authorization": f"Bearer {key}"} if key else {}
    with httpx.Client(timeout=15, headers=headers) as client:
        for i in range(REQUESTS_PER_CLIENT):
            url = urls[(i + worker) % len(urls)]
            body = {
                "model": "chat",
                "max_tokens": 8,
                "stream": i % 2 == 0,
                "messages": [{"role": "user", "content": f"soru {worker} {i}"}],
            }
            if body["stream"]:
                with client.stream("POST", url + "/v1/chat/completions", json=body) as r:
                    lines = [ln for ln in r.iter_lines() if ln]
                    ok = r.status_code == 200 and lines[-1] == "data: [DONE]"
                    results.append(
                        (
                            200 if ok else r.status_code,
                            "" if ok else r.read().decode() if not lines else "\n".join(lines),
                        )
                    )
            else:
                r = client.post(url + "/v1/chat/completions", json=body)
                results.append((r.status_code, "" if r.status_code == 200 else r.text))


def _terminate(gw: Gateway) -> int | None:
    if gw.proc is None:
        return None
    gw.proc.send_signal(signal.SIGTERM)
    try:
        return gw.proc.wait(30)
    except subprocess.TimeoutExpired:
        gw.proc.kill()
        return gw.proc.wait()


def _models(url: str) -> list[str]:
    r = httpx.get(url + "/v1/models", timeout=2)
    return [m["id"] for m in r.json()["data"]] if r.status_code == 200 else []


def test_two_replicas_share_ledger_budget_and_policy(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    prefix = f"gecit-test-{os.urandom(4).hex()}:"
    with throwaway_database("replicas") as db_url:
        gws = [
            Gateway(
                tmp_path, emulator.url, db_url, name=f"gw{i}", policy=budget_policy(emulator.url)
            )
            for i in range(2)
        ]
        for gw in gws:
            gw.env.update(
                GECIT_REDIS_URL=REDIS_URL,
                GECIT_REDIS_PREFIX=prefix,
                GECIT_ADMIN_KEY=ADMIN,
                GECIT_LOG_LEVEL="info",
            )
        a, b = gws
        try:
            starters = [threading.Thread(target=gw.start) for gw in gws]
            for t in starters:  # together, on an empty database
                t.start()
            for t in starters:
                t.join(60)
            assert all(gw.proc is not None and gw.proc.poll() is None for gw in gws)
            key = cli_budget_key(db_url, BUDGET)  # a key made after start-up is seen by both
            # (a) + (b): concurrent clients on both replicas, anonymous and with the budget key
            results: dict[str, list[tuple[int, str]]] = {"anon": [], "key": []}
            threads = [
                threading.Thread(
                    target=_client,
                    args=(
                        [a.url, b.url],
                        key if w % 2 else None,
                        w,
                        results["key" if w % 2 else "anon"],
                    ),
                )
                for w in range(6)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(180)
            # (c): a policy change PUT through A is served by B
            notices = redis.Redis.from_url(REDIS_URL).pubsub()  # type: ignore[no-untyped-call]
            notices.subscribe(prefix + "policy")
            assert "chat2" not in _models(b.url)
            new = budget_policy(emulator.url, "\n  chat2: {backends: [cloud]}")
            put_at = time.monotonic()
            r = httpx.put(
                a.url + "/admin/policy",
                content=new,
                headers={"authorization": f"Bearer {ADMIN}"},
                timeout=10,
            )
            assert r.status_code == 200, r.text
            assert "chat2" in _models(a.url)
            while "chat2" not in _models(b.url):
                assert time.monotonic() - put_at < 5, "replica B did not take the new policy"
                time.sleep(0.05)
            seen_after = time.monotonic() - put_at
            answer = httpx.post(
                b.url + "/v1/chat/completions",
                timeout=10,
                json={"model": "chat2", "messages": [{"role": "user", "content": "merhaba"}]},
            )
            assert answer.status_code == 200, answer.text
            msgs = [notices.get_message(timeout=2) for _ in range(2)]
            notices.close()
            bad = httpx.put(
                b.url + "/admin/policy",
                content="version: 1\nbackends: {}\n",
                headers={"authorization": f"Bearer {ADMIN}"},
                timeout=10,
            )
            assert bad.status_code == 422  # refused, nothing shared
        finally:
            codes = [_terminate(gw) for gw in gws]  # graceful: the recorders drain
        with ledger(db_url) as conn:
            rows, pt, ct = conn.execute(
                text(
                    "select count(*), coalesce(sum(prompt_tokens), 0), "
                    "coalesce(sum(completion_tokens), 0) from requests where status = 200"
                )
            ).one()
            costs = [
                Decimal(str(c))
                for (c,) in conn.execute(
                    text("select cost from requests where tenant = 'acme' and status = 200")
                )
            ]
            spent, reserved = conn.execute(
                text("select spent, reserved from budgets where scope = 'key'")
            ).one()
            docs = conn.execute(text("select count(*) from policy_documents")).one()[0]
    assert codes == [0, 0]
    anon, keyed = results["anon"], results["key"]
    assert len(anon) == len(keyed) == 3 * REQUESTS_PER_CLIENT
    assert all(s == 200 for s, _ in anon), [m for s, m in anon if s != 200][:3]
    ok_key = [s for s, _ in keyed if s == 200]
    denied = [m for s, m in keyed if s == 429]
    assert ok_key and denied and len(ok_key) + len(denied) == len(keyed)
    assert all("budget" in m and "exhausted" in m for m in denied)
    # (a) exact totals: one row per answered request, tokens == what the emulator served
    answered = len(anon) + len(ok_key) + 1  # + the chat2 answer
    assert rows == answered
    assert (pt, ct) == (
        emulator.state.served_prompt_tokens,
        emulator.state.served_completion_tokens,
    )
    # (b) the key's budget held across both replicas
    total = sum(costs, Decimal(0))
    assert len(costs) == len(ok_key) and total <= BUDGET + max(costs), (total, BUDGET)
    assert Decimal(str(spent)) == total and Decimal(str(reserved)) == 0
    # (c) one shared document for the start-up policy, one for the PUT; notice on Redis
    assert docs == 2
    assert any(m and m["type"] == "message" for m in msgs), msgs
    assert seen_after < 5
    print(
        f"answered={answered} refused={len(denied)} key spent={total} of {BUDGET} USD; "
        f"tokens={pt}+{ct}; policy on B after {seen_after * 1000:.0f} ms"
    )
