"""A backend that lacks what the request needs (Replicate has no tool calling; the policy does
not say so, the adapter does) is passed over without a call: it is neither an attempt
(`x-gecit-attempts`) nor a fallback (`gecit_fallbacks`). Real SDKs against the emulators."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import Seams, create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.emulators.replicate import build_app as replicate_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, EmulatorServer, EmulatorServer]]:
    with EmulatorServer(replicate_app) as rep, EmulatorServer(openai_app) as node:
        policy = load_text(f"""
version: 1
backends:
  rep: {{kind: replicate, zone: cloud, base_url: "{rep.url}", model: meta/llama-3-8b}}
  node: {{kind: openai_compat, zone: on_prem, base_url: "{node.url}", model: emulated-model}}
aliases:
  chat: {{backends: [rep, node]}}
  rep-only: {{backends: [rep]}}
rules:
  - {{name: cloud-only-public, match: {{aliases: [rep-only], data_classes: [personal, special]}},
     action: block}}
  - {{name: in-order, match: {{aliases: [chat, rep-only]}}, objective: ordered}}
""")
        settings = Settings(
            database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False, probe_interval_s=0
        )
        app = create_app(settings, Seams(env={"REPLICATE_API_TOKEN": "r8_test"}), policy=policy)
        with TestClient(app) as c:
            c.db_path = tmp_path / "l.db"  # type: ignore[attr-defined]
            yield c, rep, node


def ask(model: str) -> dict[str, object]:
    return {
        "model": model,
        "tools": TOOLS,
        "messages": [{"role": "user", "content": "Weather in Istanbul?"}],
    }


def test_skipped_for_lacking_tools_is_no_attempt_and_no_fallback(
    client: tuple[TestClient, EmulatorServer, EmulatorServer],
) -> None:
    c, rep, node = client
    for stream in (False, True):
        r = c.post("/v1/chat/completions", json={**ask("chat"), "stream": stream})
        assert r.status_code == 200, r.text
        assert r.headers["x-gecit-backend"] == "node"
        assert r.headers["x-gecit-attempts"] == "1"
    assert [q for q in rep.state.requests if q.method == "POST"] == [], "no call to Replicate"
    assert len(node.state.requests) == 2
    metrics = c.get("/metrics").text
    assert 'from_backend="rep"' not in metrics

    async def drain() -> None:
        await c.app.state.runtime.recorder.drain(5)  # type: ignore[attr-defined]

    c.portal.call(drain)  # type: ignore[union-attr]
    con = sqlite3.connect(c.db_path)  # type: ignore[attr-defined]
    rows = con.execute(
        "select backend, outcome, failure_kind from attempts order by request_id, ordinal"
    ).fetchall()
    con.close()
    assert rows == [("rep", "skipped", "unsupported"), ("node", "ok", None)] * 2


def test_when_no_backend_can_serve_the_request_it_is_a_400_naming_what_is_missing(
    client: tuple[TestClient, EmulatorServer, EmulatorServer],
) -> None:
    c, rep, _ = client
    r = c.post("/v1/chat/completions", json=ask("rep-only"))
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["code"] == "unsupported_capability" and "tools" in err["message"]
    assert [q for q in rep.state.requests if q.method == "POST"] == []
