"""The ledger names the node of a pooled on-prem backend that served each request (the same
node `x-gecit-node` names), and `gateway report --group-by node` sums the ledger per node:
requests, output tokens, busy seconds, on-prem cost, and what the cheapest cloud the policy
allows would have charged for the same tokens. Nodes are `gateway emulate vllm` servers; the
ledger is SQLite, written by the real recorder."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from functools import partial
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from gateway.app import create_app
from gateway.cli import main
from gateway.emulators.base import EmulatorServer
from gateway.emulators.vllm import build_app as vllm_app
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.usage.db import make_engine
from gateway.usage.report_format import money

CHEAP = (Decimal("0.5"), Decimal("1.5"))  # USD per Mtok in / out: the cheapest cloud
DEAR = (Decimal("3"), Decimal("15"))
ADMIN = "admin-secret-for-tests-0123456789"


def _policy(urls: list[str]) -> str:
    endpoints = "\n".join(
        f"      - {{name: gpu{i}, base_url: '{u}', engine: vllm}}" for i, u in enumerate(urls)
    )
    return f"""
version: 1
backends:
  gpus:
    kind: openai_compat
    zone: on_prem
    base_url: '{urls[0]}'
    model: llama-8b
    hourly_cost_usd: "7.20"
    timeouts: {{connect_s: 1, first_token_s: 5, total_s: 20}}
    endpoints:
{endpoints}
    fleet: {{scrape_interval_s: 0.2}}
  cheap:
    kind: openai_compat
    zone: cloud
    base_url: 'http://127.0.0.1:9/v1'
    model: m
    price: {{input_per_mtok: "{CHEAP[0]}", output_per_mtok: "{CHEAP[1]}"}}
  dear:
    kind: openai_compat
    zone: cloud
    base_url: 'http://127.0.0.1:9/v1'
    model: m
    price: {{input_per_mtok: "{DEAR[0]}", output_per_mtok: "{DEAR[1]}"}}
aliases:
  chat:
    backends: [gpus]
"""


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[EmulatorServer]]:
    app = partial(vllm_app, profile="l40s-8b", time_scale=20.0)
    with EmulatorServer(app) as a, EmulatorServer(app) as b:
        yield [a, b]


def _send(client: TestClient, i: int) -> tuple[str, str]:
    body = {
        "model": "chat",
        "max_tokens": 6 + i,
        "messages": [{"role": "user", "content": f"Bugün hava nasıl olacak? ({i})"}],
    }
    if i % 3 == 2:  # some streamed: the node is recorded when the stream's tail ends
        body["stream"] = True
        with client.stream("POST", "/v1/chat/completions", json=body) as r:
            assert r.status_code == 200
            assert [ln for ln in r.iter_lines() if ln][-1] == "data: [DONE]"
            return r.headers["x-request-id"], r.headers["x-gecit-node"]
    r = client.post("/v1/chat/completions", json=body)
    assert r.status_code == 200, r.text
    return r.headers["x-request-id"], r.headers["x-gecit-node"]


def test_ledger_names_the_node_and_the_report_sums_it(
    nodes: list[EmulatorServer], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "l.db"
    policy_path = tmp_path / "p.yaml"
    policy_path.write_text(_policy([n.url for n in nodes]), encoding="utf-8")
    settings = Settings(database_url=f"sqlite:///{db}", local_engine=False, admin_key=ADMIN)
    with TestClient(create_app(settings, policy=load_text(policy_path.read_text()))) as client:
        sent = dict(_send(client, i) for i in range(8))
    engine = make_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT id, node, backend, data_class, prompt_tokens, completion_tokens, "
                "latency_ms, cost FROM requests"
            )
        ).all()
    engine.dispose()
    assert {r.id: r.node for r in rows} == sent  # every row names the node the header named
    assert {r.backend for r in rows} == {"gpus"}

    day = datetime.now(UTC).date().isoformat()
    args = ["report", "--group-by", "node", "--format", "json", "--from", day, "--to", day]
    args += ["--database-url", f"sqlite:///{db}", "--policy", str(policy_path)]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    with TestClient(create_app(settings, policy=load_text(policy_path.read_text()))) as client:
        r = client.get(
            "/admin/reports/nodes",
            params={"from": day, "to": day},
            headers={"authorization": f"Bearer {ADMIN}"},
        )
        assert r.status_code == 200, r.text
        assert r.json() == printed  # the admin API gives what the CLI prints
        refused = client.get(
            "/admin/reports/nodes",
            params={"from": day, "to": "2020-01-01"},
            headers={"authorization": f"Bearer {ADMIN}"},
        )
        assert refused.status_code == 400 and refused.json()["error"]["param"] == "from"
        assert client.get("/admin/reports/nodes").status_code == 401  # no key: no figures
        page = client.get(
            "/admin/dashboard",
            params={"from": day, "to": day},
            headers={"authorization": f"Bearer {ADMIN}"},
        )
        assert page.status_code == 200
        shown = _dashboard_nodes(page.text)
    report = {n["node"]: n for n in printed["nodes"]}
    assert set(report) == set(sent.values())
    public = 0
    for node, got in report.items():
        mine = [r for r in rows if r.node == node]
        assert got["backend"] == "gpus"
        assert got["requests"] == len(mine)
        assert got["completion_tokens"] == sum(r.completion_tokens for r in mine)
        busy = sum(Decimal(repr(r.latency_ms)) for r in mine) / 1000
        assert abs(Decimal(got["busy_seconds"]) - busy) < Decimal("0.000001")
        cost = sum(Decimal(str(r.cost)) for r in mine)
        assert cost > 0  # the pool's hourly cost, shared out per request
        # summed in nano-USD, as the rollups do: at most half a nano off per row
        assert abs(Decimal(got["cost_usd"]) - cost) <= Decimal(len(mine)) / 2_000_000_000
        out = sum(r.completion_tokens for r in mine)
        per_mtok = Decimal(got["cost_usd"]) * 1_000_000 / out
        assert abs(Decimal(got["cost_per_mtok_usd"]) - per_mtok) < Decimal("1e-20")
        # the cheapest allowed cloud for the same tokens (public data may go to any cloud)
        mine_public = [r for r in mine if r.data_class == "public"]
        public += len(mine_public)
        cloud = sum(
            (r.prompt_tokens * CHEAP[0] + r.completion_tokens * CHEAP[1]) / 1_000_000
            for r in mine_public
        )
        assert Decimal(got["cloud_equivalent_usd"]) == cloud
    assert public > 0  # the comparison was exercised
    # the dashboard's node table shows each node's figures as the table report rounds them
    assert set(shown) == set(report)
    for node, cells in shown.items():
        got = report[node]
        assert cells[0] == f"gpus / {node}"
        assert cells[1] == str(got["requests"])
        assert cells[4] == money(Decimal(got["cost_usd"]))
        assert cells[5] == money(Decimal(got["cost_per_mtok_usd"]))


def _dashboard_nodes(page: str) -> dict[str, list[str]]:
    """{node: the cells of its row} in the dashboard's on-prem node table."""
    section = page.split('id="onprem-nodes"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r'<tr data-node="([^"]+)">(.*?)</tr>', section)
    return {node: re.findall(r"<td>(.*?)</td>", cells) for node, cells in rows}


def test_bad_report_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    for args in (
        ["--group-by", "node,tenant"],
        ["--group-by", "node", "--from", "2026-05-02", "--to", "2026-05-01"],
        ["--group-by", "node", "--rebuild"],
    ):
        assert main(["report", *args, "--database-url", db]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("gateway report: ")
