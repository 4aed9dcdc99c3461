"""An uncertain classification through the real request path: the policy's
`sensitivity.when_uncertain` decides where it goes, and the ledger records the band.

Bands are made deterministic with the band limits: `uncertain_low: 0, uncertain_high: 1` makes
every second-stage judgement uncertain, whatever the model says."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

TOPIC = "Diyabetin belirtileri nelerdir?"  # a topic fires: the second stage judges it
PLAIN = "Toplantı gündemini üç maddede özetle."  # nothing fires: confident


def policy_yaml(cloud: str, local: str, when: str) -> str:
    return f"""
version: 1
backends:
  local: {{kind: openai_compat, zone: on_prem, base_url: "{local}", model: m,
          hourly_cost_usd: "2.00"}}
  cloud: {{kind: openai_compat, zone: cloud, base_url: "{cloud}", model: m,
          price: {{input_per_mtok: "0.0001", output_per_mtok: "0.0001"}}}}
aliases:
  chat: {{backends: [cloud, local]}}
sensitivity:
  when_uncertain: {when}
  thresholds: {{uncertain_low: 0.0, uncertain_high: 1.0}}
rules:
  - name: public-cheapest
    match: {{data_classes: [public]}}
    objective: cheapest
"""


@pytest.fixture(scope="module")
def emulators() -> Iterator[dict[str, EmulatorServer]]:
    with EmulatorServer(openai_app) as c, EmulatorServer(openai_app) as loc:
        yield {"cloud": c, "local": loc}


def _serve(
    emulators: dict[str, EmulatorServer], tmp_path: Path, when: str
) -> list[tuple[str, str, str]]:
    """Sends TOPIC then PLAIN; returns (backend, data class, band) per ledger row."""
    for e in emulators.values():
        e.state.reset()
    text = policy_yaml(emulators["cloud"].url, emulators["local"].url, when)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False, probe_interval_s=0
    )
    with TestClient(create_app(settings, policy=load_text(text))) as client:
        for prompt in (TOPIC, PLAIN):
            r = client.post(
                "/v1/chat/completions",
                json={"model": "chat", "messages": [{"role": "user", "content": prompt}]},
            )
            assert r.status_code == 200, r.text

        async def drain() -> None:
            await client.app.state.runtime.recorder.drain(5)  # type: ignore[attr-defined]

        client.portal.call(drain)  # type: ignore[union-attr]
    con = sqlite3.connect(tmp_path / "l.db")
    rows = con.execute(
        "select backend, data_class, sensitivity_band from requests order by created_at"
    ).fetchall()
    con.close()
    return [tuple(r) for r in rows]


def test_prefer_on_prem_serves_an_uncertain_request_on_prem(
    emulators: dict[str, EmulatorServer], tmp_path: Path
) -> None:
    rows = _serve(emulators, tmp_path, "prefer_on_prem")
    assert rows == [("local", "public", "uncertain"), ("cloud", "public", "confident")]


def test_as_detected_routes_an_uncertain_request_by_its_class(
    emulators: dict[str, EmulatorServer], tmp_path: Path
) -> None:
    rows = _serve(emulators, tmp_path, "as_detected")
    assert rows == [("cloud", "public", "uncertain"), ("cloud", "public", "confident")]


def test_special_keeps_an_uncertain_request_on_prem_as_special(
    emulators: dict[str, EmulatorServer], tmp_path: Path
) -> None:
    rows = _serve(emulators, tmp_path, "special")
    assert rows == [("local", "special", "uncertain"), ("cloud", "public", "confident")]
