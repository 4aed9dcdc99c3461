"""Cost by project: tags from the `x-gecit-tags` header and the metadata keys the policy names,
kept in the ledger and the rollups per tag, grouped by `tag:NAME` in reports (the API and
`gateway report`); every answer carries its cost as the ledger keeps it (`x-gecit-cost-usd`,
and a stream's usage chunk). In-process gateway, OpenAI emulator, SQLite ledger."""

from __future__ import annotations

import json
import re
import sqlite3
import time
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


def _policy(url: str) -> str:
    return f"""
version: 1
backends:
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: {url}
    model: emulated-model
    price: {{input_per_mtok: "3", output_per_mtok: "15"}}
aliases:
  chat: {{backends: [cloud]}}
rules:
  - {{name: public-only, match: {{data_classes: [personal, special]}}, action: block}}
tags:
  keys: [project, feature, cost_center]
"""


@contextmanager
def _gateway(tmp_path: Path, **extra: str) -> Iterator[tuple[TestClient, Path, Path]]:
    with EmulatorServer(openai_app) as emu:
        emu.state.mode = Mode(reply="bir iki üç dört")
        policy = tmp_path / "policy.yaml"
        policy.write_text(_policy(emu.url))
        db = tmp_path / "l.db"
        settings = Settings(database_url=f"sqlite:///{db}", local_engine=False, **extra)
        app = create_app(settings, policy=load_text(policy.read_text()))
        with TestClient(app) as client:
            yield client, db, policy


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[tuple[TestClient, Path, Path]]:
    with _gateway(tmp_path) as running:
        yield running


def _ask(client: TestClient, i: int, **kw: object) -> dict[str, object]:
    headers = kw.pop("headers", {})
    body = {"model": "chat", "messages": [{"role": "user", "content": f"soru {i}"}], **kw}
    r = client.post("/v1/chat/completions", json=body, headers=headers)  # type: ignore[arg-type]
    assert r.status_code == 200, r.text
    return {"id": r.headers["x-request-id"], "cost": r.headers["x-gecit-cost-usd"]}


def test_tags_reach_ledger_rollups_and_reports_and_answers_carry_their_cost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with _gateway(tmp_path) as (client, db, policy):
        sent, usage, stream_id = _traffic(client)
    # shut down: the recorder drained into the ledger
    _check(db, policy, sent, usage, stream_id, capsys)


def _traffic(client: TestClient) -> tuple[list[dict[str, object]], dict[str, str], str]:
    sent = [
        _ask(client, 0, headers={"x-gecit-tags": "project=atlas,feature=search"}),
        _ask(client, 1, headers={"x-gecit-tags": "project=atlas, team=ignored"}),
        _ask(client, 2, metadata={"project": "borealis", "other": "x y z"}),
        _ask(client, 3, metadata={"project": "borealis"}, headers={"x-gecit-tags": "project=a"}),
        _ask(client, 4),
    ]
    with client.stream(
        "POST",
        "/v1/chat/completions",
        json={
            "model": "chat",
            "stream": True,
            "stream_options": {"include_usage": True},
            "messages": [{"role": "user", "content": "akış"}],
        },
        headers={"x-gecit-tags": "project=atlas"},
    ) as r:
        events = [ln.removeprefix("data: ") for ln in r.iter_lines() if ln.startswith("data: {")]
        stream_id = r.headers["x-request-id"]
    return sent, json.loads(events[-1])["usage"], stream_id


def _check(
    db: Path,
    policy: Path,
    sent: list[dict[str, object]],
    usage: dict[str, str],
    stream_id: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with sqlite3.connect(db) as conn:
        rows = {  # SQLite keeps the cost as a REAL: its shortest repr is the written value
            i: (tags, Decimal(str(cost)))
            for i, tags, cost in conn.execute("select id, tags, cost from requests")
        }
    assert [rows[s["id"]][0] for s in sent] == [
        "feature=search,project=atlas",
        "project=atlas",
        "project=borealis",
        "project=borealis",  # the metadata's value wins over the header's
        None,
    ]
    for s in sent:  # the header is the ledger's cost, exactly
        assert Decimal(str(s["cost"])) == rows[str(s["id"])][1] > 0
    assert Decimal(usage["gecit_cost_usd"]) == rows[stream_id][1] > 0
    atlas = sum(c for t, c in rows.values() if t and "project=atlas" in t)
    borealis = sum(c for t, c in rows.values() if t and "project=borealis" in t)
    day = datetime.now(UTC).date().isoformat()
    argv = ["report", "--from", day, "--to", day, "--group-by", "tag:project"]
    argv += ["--format", "json", "--database-url", f"sqlite:///{db}", "--policy", str(policy)]
    code = main(argv)
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    by_project = {r["tag:project"]: r for r in report["rows"]}
    assert set(by_project) == {"atlas", "borealis"}
    assert by_project["atlas"]["requests"] == 3
    # the report's money strings carry 6 decimals
    assert abs(Decimal(by_project["atlas"]["cost"]) - atlas) <= Decimal("0.000001")
    assert abs(Decimal(by_project["borealis"]["cost"]) - borealis) <= Decimal("0.000001")
    # the tag rollups recomputed from the ledger hold the same figures
    assert main([*argv, "--rebuild"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == report["rows"]


@pytest.mark.parametrize(
    ("headers", "metadata", "param"),
    [
        ({"x-gecit-tags": "project"}, None, "x-gecit-tags"),
        ({"x-gecit-tags": "project=a b"}, None, "x-gecit-tags"),
        ({"x-gecit-tags": "Project=a"}, None, "x-gecit-tags"),
        ({"x-gecit-tags": "project=" + "a" * 65}, None, "x-gecit-tags"),
        ({"x-gecit-tags": "project=a," * 200}, None, "x-gecit-tags"),
        ({}, {"project": "ş" * 3}, "metadata.project"),
        ({}, {"cost_center": "x" * 65}, "metadata.cost_center"),
    ],
)
def test_tags_out_of_bounds_are_a_400_naming_them(
    gateway: tuple[TestClient, Path, Path],
    headers: dict[str, str],
    metadata: dict[str, str] | None,
    param: str,
) -> None:
    client, _, _ = gateway
    body: dict[str, object] = {"model": "chat", "messages": [{"role": "user", "content": "x"}]}
    if metadata is not None:
        body["metadata"] = metadata
    r = client.post("/v1/chat/completions", json=body, headers=headers)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err["type"] == "invalid_request_error" and err["code"] == "invalid_tags"
    assert err["param"] == param


def _events(client: TestClient, path: str, body: dict[str, object]) -> tuple[str, list[dict]]:  # type: ignore[type-arg]
    with client.stream("POST", path, json=body) as r:
        assert r.status_code == 200
        data = [json.loads(ln[6:]) for ln in r.iter_lines() if ln.startswith("data: {")]
        return r.headers["x-request-id"], data


def test_every_api_carries_the_cost_of_whole_answers_and_streams(tmp_path: Path) -> None:
    ask = [{"role": "user", "content": "merhaba"}]
    with _gateway(tmp_path) as (client, db, _):
        whole = {
            path: client.post(path, json=body)
            for path, body in (
                ("/v1/responses", {"model": "chat", "input": "merhaba"}),
                ("/v1/messages", {"model": "chat", "max_tokens": 8, "messages": ask}),
                ("/v1/completions", {"model": "chat", "prompt": "merhaba"}),
            )
        }
        rid, resp = _events(
            client, "/v1/responses", {"model": "chat", "input": "x", "stream": True}
        )
        mid, msgs = _events(
            client,
            "/v1/messages",
            {"model": "chat", "max_tokens": 8, "messages": ask, "stream": True},
        )
        cid, comp = _events(
            client,
            "/v1/completions",
            {
                "model": "chat",
                "prompt": "x",
                "stream": True,
                "stream_options": {"include_usage": True},
            },
        )
    with sqlite3.connect(db) as conn:
        cost = {i: Decimal(str(c)) for i, c in conn.execute("select id, cost from requests")}
    for r in whole.values():
        assert r.status_code == 200, r.text
        assert Decimal(r.headers["x-gecit-cost-usd"]) == cost[r.headers["x-request-id"]] > 0
    done = next(e for e in resp if e["type"] == "response.completed")
    assert Decimal(done["response"]["usage"]["gecit_cost_usd"]) == cost[rid] > 0
    delta = next(e for e in msgs if e["type"] == "message_delta")
    assert Decimal(delta["usage"]["gecit_cost_usd"]) == cost[mid] > 0
    assert Decimal(comp[-1]["usage"]["gecit_cost_usd"]) == cost[cid] > 0


def test_the_dashboard_shows_cost_by_each_tag_the_policy_names(tmp_path: Path) -> None:
    admin = "adm-" + "k" * 28
    bearer = {"authorization": f"Bearer {admin}"}
    with _gateway(tmp_path, admin_key=admin) as (client, db, _policy_file):
        _traffic(client)
        for _ in range(100):  # the recorder writes the rows (and rollups) a moment later
            page = client.get("/admin/dashboard", headers=bearer)
            if 'data-label="borealis"' in page.text:
                break
            time.sleep(0.05)
        assert page.status_code == 200
        section = re.search(r'<section id="cost-by-tag-project">(.*?)</section>', page.text, re.S)
        assert section is not None
        shown = {
            label: Decimal(value)
            for label, value in re.findall(
                r'data-label="([^"]+)" data-value="([^"]+)"', section.group(1)
            )
        }
        csv_link = re.search(r'href="([^"]+)">CSV</a>', section.group(1))
        assert csv_link is not None
        csv = client.get(csv_link.group(1).replace("&amp;", "&"), headers=bearer)
        feature = re.search(r'<section id="cost-by-tag-feature">(.*?)</section>', page.text, re.S)
        assert feature is not None and 'data-label="search"' in feature.group(1)
        empty = re.search(r'<section id="cost-by-tag-cost_center">(.*?)</section>', page.text, re.S)
        assert empty is not None and "No tagged request" in empty.group(1)
    with sqlite3.connect(db) as conn:
        ledger = {
            project: sum(
                (
                    Decimal(str(c))
                    for t, c in conn.execute("select tags, cost from requests")
                    if t and f"project={project}" in t.split(",")
                ),
                Decimal(0),
            )
            for project in ("atlas", "borealis")
        }
    assert set(shown) == {"atlas", "borealis"}
    for project, cost in ledger.items():
        assert abs(shown[project] - cost) <= Decimal("0.000001"), project
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    assert "atlas" in csv.text and "borealis" in csv.text
