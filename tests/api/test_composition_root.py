"""The composition root builds typed parts in dependency order: the handlers reach each part by
its field, and a policy swap is seen everywhere (the runtime, pricing, `/v1/models`) through
the reloader, with nothing pointed back at the runtime after it is built."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer
from gateway.openai_api.auth import Authenticator
from gateway.policy.loader import load_text
from gateway.runtime import Runtime
from gateway.service.routing import Routing
from gateway.settings import Settings


def policy_yaml(url: str, alias: str, rate: str) -> str:
    return f"""
version: 1
billing: {{usd_try: {rate}}}
backends:
  gpu: {{kind: openai_compat, zone: on_prem, base_url: "{url}/v1", model: emulated-model}}
aliases:
  {alias}: {{backends: [gpu]}}
"""


@pytest.fixture
def client(openai_emulator: EmulatorServer, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'l.db'}",
        local_engine=False,
        journal_path=str(tmp_path / "j"),
        probe_interval_s=0,
        policy_sync_s=0,
    )
    app = create_app(settings, policy=load_text(policy_yaml(openai_emulator.url, "first", "30")))
    with TestClient(app) as c:
        yield c


def test_the_runtime_is_typed_fields_without_a_string_keyed_bag(client: TestClient) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    assert isinstance(rt, Runtime)
    names = {f.name for f in dataclasses.fields(Runtime)}
    assert "extras" not in names
    assert {f.name for f in dataclasses.fields(Routing)} == {"stats", "reloader"}
    assert isinstance(rt.auth, Authenticator)
    assert rt.recorder is rt.ledger.recorder and rt.stats is not None
    assert rt.embeddings is not None and rt.policy_sync is not None and rt.local_engine is None


def test_a_policy_swap_is_seen_by_runtime_pricing_and_handlers(
    client: TestClient, openai_emulator: EmulatorServer
) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    assert rt.ledger.pricer.fx_rate_try() == Decimal("30")
    assert [m["id"] for m in client.get("/v1/models").json()["data"]] == ["first"]
    new = rt.reloader.apply_text(policy_yaml(openai_emulator.url, "second", "40"), "test")
    assert rt.policy is new  # read through the reloader, not copied at swap time
    assert rt.ledger.pricer.fx_rate_try() == Decimal("40")  # pricing's view follows it too
    assert [m["id"] for m in client.get("/v1/models").json()["data"]] == ["second"]
    r = client.post(
        "/v1/chat/completions",
        json={"model": "second", "messages": [{"role": "user", "content": "selam"}]},
    )
    assert r.status_code == 200, r.text
