"""Shared budgets: two gateway processes share PostgreSQL; concurrent clients spend one key's
budget through both; total spend never exceeds the budget by more than one request's worth."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from tests.e2e.helpers import budget_policy, cli_budget_key, ledger
from tests.e2e.test_ledger_crash import Gateway
from tests.unit.usage.pg import pg_available, throwaway_database

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not pg_available(), reason="PostgreSQL is not running"),
]

BUDGET = Decimal("0.1")


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        srv.state.mode = Mode(reply="bir iki üç dört", delay_s=0.01)
        yield srv


def _client(urls: list[str], key: str, worker: int, results: list[tuple[int, str]]) -> None:
    headers = {"authorization": f"Bearer {key}"}
    with httpx.Client(timeout=10, headers=headers) as client:
        for i in range(40):
            url = urls[(i + worker) % len(urls)]
            body = {
                "model": "chat",
                "max_tokens": 8,
                "stream": i % 2 == 0,
                "messages": [{"role": "user", "content": f"soru {i}"}],
            }
            r = client.post(url + "/v1/chat/completions", json=body)
            results.append((r.status_code, r.text if r.status_code != 200 else ""))


def test_two_replicas_hold_one_budget(emulator: EmulatorServer, tmp_path: Path) -> None:
    with throwaway_database("budget") as db_url:
        key = cli_budget_key(db_url, BUDGET)
        assert key.startswith("gk_")
        policy = budget_policy(emulator.url)
        gws = [
            Gateway(tmp_path, emulator.url, db_url, name=f"gw{i}", policy=policy) for i in range(2)
        ]
        try:
            for gw in gws:
                gw.start()
            probe = {"model": "chat", "messages": [{"role": "user", "content": "x"}]}
            assert (
                httpx.post(
                    gws[0].url + "/v1/chat/completions",
                    json=probe,
                    headers={"authorization": "Bearer gk_nope"},
                ).status_code
                == 401
            )
            results: list[tuple[int, str]] = []
            threads = [
                threading.Thread(target=_client, args=([g.url for g in gws], key, w, results))
                for w in range(6)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
        finally:
            for gw in gws:
                gw.stop()  # graceful: the recorders drain into the database
        with ledger(db_url) as conn:
            costs = [
                Decimal(str(c))
                for (c,) in conn.execute(
                    text("select cost from requests where tenant = 'acme' and status = 200")
                )
            ]
            refused = conn.execute(text("select count(*) from requests where status = 429")).one()[
                0
            ]
            spent, reserved = conn.execute(
                text("select spent, reserved from budgets where scope = 'key'")
            ).one()
    ok = [s for s, _ in results if s == 200]
    denied = [m for s, m in results if s == 429]
    assert len(results) == 240 and len(ok) + len(denied) == 240
    assert ok and denied and refused == len(denied)
    assert all("monthly budget of key" in m and "exhausted" in m for m in denied)
    total = sum(costs, Decimal(0))
    assert len(costs) == len(ok)
    assert total <= BUDGET + max(costs), (total, BUDGET)
    assert Decimal(str(spent)) == total and Decimal(str(reserved)) == 0
    print(f"served={len(ok)} refused={len(denied)} spent={total} of {BUDGET} USD")
