"""The app serves one request of its own at start-up (gateway/warmup.py), so that FastAPI's
lazily built route state (every included router's path regexes, dependency graphs, response
fields) exists before the first client request that FastAPI routes: built then, it took one
event-loop turn of ~8-9 ms of CPU (up to ~50 ms of wall time on a busy machine). The warm-up
is a 404 that needs no key and writes no ledger row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.routing import _IncludedRouter
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.warmup import warm_routes
from tests.api.test_chat_api import policy_yaml


def test_every_router_is_built_at_start_up_by_a_404_that_records_nothing(
    openai_emulator: EmulatorServer, tmp_path: Path
) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'l.db'}",
        local_engine=False,
        require_keys=True,  # the warm-up needs no key
        admin_key="admin-secret-for-tests",
    )
    app = create_app(settings, policy=load_text(policy_yaml(openai_emulator.url)))
    routers = [r for r in app.router.routes if isinstance(r, _IncludedRouter)]
    assert len(routers) >= 10  # the API, admin, console, metrics and openapi routers
    assert all(r._effective_candidates_version is None for r in routers)  # lazy until used
    with TestClient(app) as client:
        # started: every router's routes were built by the warm-up, before any request
        assert all(r._effective_candidates_version is not None for r in routers)
        assert client.portal.call(warm_routes, app) == 404
        client.portal.call(app.state.runtime.recorder.drain, 5)
    db = sqlite3.connect(tmp_path / "l.db")
    try:
        assert db.execute("SELECT count(*) FROM requests").fetchone() == (0,)
    finally:
        db.close()
