"""Database outage: PostgreSQL stops while the gateway serves; answers keep flowing (the journal
holds them) and every row arrives once the database is back."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.usage.db import make_engine
from tests.e2e.test_ledger_crash import Gateway
from tests.unit.usage.pg import pg_available, throwaway_database

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not pg_available(), reason="PostgreSQL is not running"),
]


def _pg(action: str) -> None:
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", action],
        check=True,
        timeout=60,
    )


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        yield srv


def _ask(client: httpx.Client, i: int) -> str:
    body = {
        "model": "chat",
        "stream": i % 2 == 0,
        "messages": [{"role": "user", "content": f"soru {i}"}],
    }
    r = client.post("/v1/chat/completions", json=body)
    assert r.status_code == 200, r.text
    return r.headers["x-request-id"]


@pytest.mark.skipif(not os.path.isdir("/etc/postgresql"), reason="no local cluster to stop")
def test_database_outage_loses_no_row(emulator: EmulatorServer, tmp_path: Path) -> None:
    with throwaway_database("outage") as db_url:
        gw = Gateway(tmp_path, emulator.url, db_url)
        gw.start()
        ids: list[str] = []
        try:
            with httpx.Client(base_url=gw.url, timeout=10) as client:
                ids += [_ask(client, i) for i in range(10)]
                _pg("stop")
                try:
                    ids += [_ask(client, i) for i in range(10, 40)]  # served during the outage
                finally:
                    _pg("start")
                deadline = time.monotonic() + 40
                found: set[str] = set()
                while time.monotonic() < deadline and not set(ids) <= found:
                    time.sleep(0.5)
                    try:
                        engine = make_engine(db_url)
                        with engine.connect() as conn:
                            found = {r[0] for r in conn.execute(text("select id from requests"))}
                        engine.dispose()
                    except Exception:  # still starting up
                        continue
        finally:
            gw.stop()
        assert set(ids) <= found, f"{len(set(ids) - found)} rows missing after the outage"
        assert len(ids) == 40
