"""What-if simulation is exact: requests go through a real in-process gateway (OpenAI SDK
wire, the OpenAI emulator, a SQLite ledger); `gateway policy simulate` under the same policy
reproduces the recorded cost to the cent, and under a policy whose cheaper cloud comes first it
predicts the cost that the same requests measure when they are sent again through a gateway
running that policy. The admin endpoint answers the same figures as JSON."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.cli import main
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

ADMIN = "simulate-admin"


def _policy(pricey: str, cheap: str, order: str) -> str:
    return f"""
version: 1
backends:
  pricey:
    kind: openai_compat
    zone: cloud
    base_url: {pricey}
    model: emulated-model
    price: {{input_per_mtok: "2500", output_per_mtok: "10000"}}
  cheap:
    kind: openai_compat
    zone: cloud
    base_url: {cheap}
    model: emulated-model
    price: {{input_per_mtok: "150", output_per_mtok: "600"}}
aliases:
  chat: {{backends: [{order}]}}
rules:
  - {{name: public-only, match: {{data_classes: [personal, special]}}, action: block}}
billing:
  usd_try: "34.25"
  kdv_rate: "0.20"
"""


@pytest.fixture(scope="module")
def emulators() -> Iterator[tuple[str, str]]:
    with EmulatorServer(openai_app) as a, EmulatorServer(openai_app) as b:
        for srv in (a, b):
            srv.state.mode = Mode(reply="bir iki üç dört beş altı yedi sekiz")
        yield a.url, b.url


@contextmanager
def _gateway(db: Path, policy: str) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{db}", local_engine=False, admin_key=ADMIN)
    with TestClient(create_app(settings, policy=load_text(policy))) as client:
        yield client


def _traffic(client: TestClient) -> None:
    for i in range(40):
        body: dict[str, object] = {
            "model": "chat",
            "max_tokens": 4 + i % 7,
            "messages": [{"role": "user", "content": "soru " + "kelime " * (i % 13)}],
        }
        if i % 3 == 0:
            body |= {"stream": True, "stream_options": {"include_usage": True}}
            with client.stream("POST", "/v1/chat/completions", json=body) as r:
                r.read()
                assert r.status_code == 200
        else:
            assert client.post("/v1/chat/completions", json=body).status_code == 200
    # refused by the policy: recorded, and refused again in the replay
    blocked = {"model": "chat", "messages": [{"role": "user", "content": "TC 10000000146"}]}
    assert client.post("/v1/chat/completions", json=blocked).status_code == 403


def _ledger_cost(db: Path) -> Decimal:
    with sqlite3.connect(db) as conn:
        return sum(
            (Decimal(str(c)) for (c,) in conn.execute("select cost from requests")),
            Decimal(0),
        )


def _simulate(db: Path, policy_file: Path, capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    day = datetime.now(UTC).date().isoformat()
    argv = ["policy", "simulate", str(policy_file), "--from", day, "--to", day]
    assert main([*argv, "--database-url", f"sqlite:///{db}", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_replay_is_exact_under_the_same_and_a_cheaper_policy(
    emulators: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pricey, cheap = emulators
    old = tmp_path / "old.yaml"
    new = tmp_path / "new.yaml"
    old.write_text(_policy(pricey, cheap, "pricey, cheap"))
    new.write_text(_policy(pricey, cheap, "cheap, pricey"))
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    with _gateway(first, old.read_text()) as client:
        _traffic(client)
    day = datetime.now(UTC).date().isoformat()
    with _gateway(first, old.read_text()) as client:  # the ledger written, ask the API
        api = client.post(
            "/admin/policy/simulate",
            json={"policy": new.read_text(), "from": day, "to": day},
            headers={"authorization": f"Bearer {ADMIN}"},
        )
        refused = client.post("/admin/policy/simulate", json={"policy": new.read_text()})
    recorded = _ledger_cost(first)
    same = _simulate(first, old, capsys)
    cheaper = _simulate(first, new, capsys)
    with _gateway(second, new.read_text()) as client:  # the same requests, the new policy
        _traffic(client)
    measured = _ledger_cost(second)
    print(
        f"recorded {recorded} USD; same policy {same['predicted']['cost_usd']}; cheaper "
        f"predicted {cheaper['predicted']['cost_usd']}, measured {measured}"
    )
    assert recorded > 0 and measured < recorded
    assert Decimal(same["recorded"]["cost_usd"]) == recorded
    # to the cent, and in fact exactly (each request's cost is priced as the ledger does)
    assert Decimal(same["predicted"]["cost_usd"]) == recorded
    assert Decimal(cheaper["predicted"]["cost_usd"]) == measured
    assert same["predicted"]["refused"] == same["recorded"]["refused"] == 1
    assert same["changed_backend"] == 0
    assert cheaper["changed_backend"] == 40
    assert cheaper["traffic_change"] == {"cheap": 40, "pricey": -40}
    # TRY with KDV at the policy's rates: net * 34.25 * 1.20
    net = Decimal(cheaper["predicted"]["cost_usd"])
    assert Decimal(cheaper["predicted"]["gross_try"]) == net * Decimal("34.25") * Decimal("1.20")
    assert api.status_code == 200 and api.json()["predicted"] == cheaper["predicted"]
    assert refused.status_code == 401


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text("version: 1\nbackends: {}\n")
    db = f"sqlite:///{tmp_path / 'l.db'}"
    for argv in (
        ["policy", "simulate", str(policy), "--database-url", db],
        ["policy", "simulate", str(tmp_path / "missing.yaml"), "--database-url", db],
        ["policy", "simulate", str(policy), "--from", "2026-12-02", "--to", "2026-12-01"],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1, err
