"""Budgets of every scope at the edge, in-process against real emulators and a real SQLite
ledger: a daily tag budget, a weekly alias budget and an app budget refuse with the existing
budget error (429 `budget_exhausted`) naming the budget, and only the requests they cover."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gateway.app import Seams, create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.usage import budget_admin
from gateway.usage.budget_admin import BudgetRequest
from gateway.usage.db import create_schema, make_engine
from gateway.usage.keys import create_key

POLICY = """
version: 1
backends:
  cloud: {{kind: openai_compat, zone: cloud, base_url: "{url}", model: m,
          price: {{input_per_mtok: "1000", output_per_mtok: "1000"}}}}
  local: {{kind: openai_compat, zone: on_prem, base_url: "{url}", model: m}}
aliases:
  chat: {{backends: [cloud, local]}}
  other: {{backends: [cloud, local]}}
defaults: {{objective: ordered}}
tags: {{keys: [project]}}
"""


@pytest.fixture
def gw(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str], EmulatorServer]]:
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    engine = make_engine(db)
    create_schema(engine)
    now = time.time()
    _info, key = create_key(engine, "acme", "web", now=now)
    for req in (
        BudgetRequest("tag", "project=atlas", "0.000001 USD", "day"),
        BudgetRequest("alias", "other", "0.000001 USD", "week"),
        BudgetRequest("app", "acme/batch", "0.000001 USD", "month"),
    ):
        budget_admin.create_budget(engine, req, now)
    _info2, batch_key = create_key(engine, "acme", "batch", now=now)
    engine.dispose()
    with EmulatorServer(openai_app) as cloud:
        app = create_app(
            Settings(
                database_url=db,
                local_engine=False,
                journal_path=str(tmp_path / "j"),
                probe_interval_s=0,
                policy_sync_s=0,
            ),
            seams=Seams(),
            policy=load_text(POLICY.format(url=cloud.url)),
        )
        with TestClient(app) as client:
            yield client, {"web": key, "batch": batch_key}, cloud


def _ask(client: TestClient, key: str, model: str = "chat", **headers: str) -> Any:
    return client.post(
        "/v1/chat/completions",
        headers={"authorization": f"Bearer {key}", **headers},
        json={"model": model, "max_tokens": 8, "messages": [{"role": "user", "content": "selam"}]},
    )


def _refused(r: Any, name: str) -> None:
    assert r.status_code == 429, r.text
    err = r.json()["error"]
    assert err["code"] == "budget_exhausted" and err["type"] == "rate_limit_error"
    assert name in err["message"], err["message"]


def test_each_scope_refuses_only_what_it_covers(
    gw: tuple[TestClient, dict[str, str], EmulatorServer],
) -> None:
    client, keys, cloud = gw
    key = keys["web"]
    _refused(
        _ask(client, key, **{"x-gecit-tags": "project=atlas"}),
        "daily budget of tag 'project=atlas'",
    )
    _refused(_ask(client, key, "other"), "weekly budget of alias 'other'")
    _refused(_ask(client, keys["batch"]), "monthly budget of app 'acme/batch'")
    assert cloud.state.requests == []  # nothing refused reached the cloud
    ok = _ask(client, key, **{"x-gecit-tags": "project=zephyr"})
    assert ok.status_code == 200, ok.text
    plain = _ask(client, key)
    assert plain.status_code == 200
    assert [r.headers["x-gecit-backend"] for r in (ok, plain)] == ["cloud", "cloud"]
    assert len(cloud.state.requests) == 2
