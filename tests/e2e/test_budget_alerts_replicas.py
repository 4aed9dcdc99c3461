"""Budget alerts from two real gateway processes sharing one ledger database (SQLite file and
PostgreSQL): a daily tag budget made with `gateway budgets create` is spent through both
replicas until it refuses; the receiver on 127.0.0.1 gets 50, 80 and 100 % once each, every
delivery signed, and no log line or body carries the secret."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from tests.e2e.helpers import budget_policy
from tests.e2e.test_budget_alerts import SECRET, Receiver, receiver  # noqa: F401 (fixture)
from tests.e2e.test_ledger_crash import Gateway
from tests.unit.usage.pg import pg_available, throwaway_database

pytestmark = pytest.mark.e2e


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        srv.state.mode = Mode(reply="bir iki üç dört")
        yield srv


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ledger.db'}"
        return
    if not pg_available():
        pytest.skip("PostgreSQL is not running")
    with throwaway_database("alertgw") as url:
        yield url


def _cli(db_url: str, *argv: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "gateway", "budgets", *argv],
        env={**os.environ, "GECIT_DATABASE_URL": db_url},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_two_gateways_alert_each_threshold_once(
    receiver: Receiver,  # noqa: F811 (the fixture)
    emulator: EmulatorServer,
    db_url: str,
    tmp_path: Path,
) -> None:
    _cli(db_url, "create", "--tag", "project=atlas", "0.05 USD", "--period", "day")
    policy = budget_policy(emulator.url) + "tags:\n  keys: [project]\n"
    gws = [Gateway(tmp_path, emulator.url, db_url, name=f"gw{i}", policy=policy) for i in range(2)]
    for gw in gws:
        gw.env.update(
            GECIT_BUDGET_ALERT_URL=receiver.url,
            GECIT_BUDGET_ALERT_SECRET=SECRET,
            GECIT_BUDGET_ALERT_CHECK_S="0.2",
            GECIT_LOG_LEVEL="info",
        )
    statuses: list[int] = []
    try:
        for gw in gws:
            gw.start()
        body = {
            "model": "chat",
            "max_tokens": 8,
            "messages": [{"role": "user", "content": "soru"}],
        }
        with httpx.Client(timeout=10, headers={"x-gecit-tags": "project=atlas"}) as client:
            for i in range(60):
                r = client.post(gws[i % 2].url + "/v1/chat/completions", json=body)
                statuses.append(r.status_code)
                if r.status_code == 429:
                    err = r.json()["error"]
                    assert err["code"] == "budget_exhausted"
                    assert "daily budget of tag 'project=atlas'" in err["message"]
                    break
                assert r.status_code == 200, r.text
                time.sleep(0.05)  # let the ledger writer settle: spend, not holds, alerts
        deadline = time.monotonic() + 15
        while len(receiver.good) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # a replica that would send twice has had five rounds to do it
    finally:
        for gw in gws:
            gw.stop()
    assert statuses[-1] == 429 and statuses.count(200) >= 5
    thresholds = sorted(int(str(g["threshold"])) for g in receiver.good)
    assert thresholds == [50, 80, 100], (thresholds, statuses)
    assert len(receiver.posts) == 3  # every delivery was signed right, none sent twice
    assert {str(g["budget"]["id"]) for g in receiver.good} == {"day:tag:project=atlas"}  # type: ignore[index]
    logs = "".join(gw.log.read_text() for gw in gws)
    assert SECRET not in logs and "soru" not in "".join(b.decode() for _h, b in receiver.posts)
    listed = _cli(db_url, "list")
    assert "day:tag:project=atlas" in listed
