"""End to end through the gateway (in-process app, real HTTP to emulators): cheapest allowed
backend, fallback on 500/429/hang, special data stays local or is refused with no cloud call,
TTFT SLO skip after measurement, hot reload via the admin API."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

ADMIN = "test-admin-key"
SPECIAL = "Hastanın diyabet teşhisi var, insülin dozunu nasıl ayarlamalıyım?"


def policy_yaml(cheap: str, dear: str, local: str, objective: str = "cheapest") -> str:
    t = "timeouts: {connect_s: 1, first_token_s: 1, total_s: 3}"
    return f"""
version: 1
backends:
  local: {{kind: openai_compat, zone: on_prem, base_url: "{local}", model: m,
          hourly_cost_usd: "2.00", {t}}}
  dear: {{kind: openai_compat, zone: cloud, base_url: "{dear}", model: m,
         price: {{input_per_mtok: "5", output_per_mtok: "15"}}, {t}}}
  cheap: {{kind: openai_compat, zone: cloud, base_url: "{cheap}", model: m,
          price: {{input_per_mtok: "0.1", output_per_mtok: "0.2"}}, {t}}}
aliases:
  chat: {{backends: [local, dear, cheap]}}
rules:
  - name: public-cheapest
    match: {{data_classes: [public]}}
    objective: {objective}
    slo: {{ttft_p95_ms: 300, deadline_factor: 2}}
"""


@pytest.fixture(scope="module")
def emulators() -> Iterator[dict[str, EmulatorServer]]:
    with (
        EmulatorServer(openai_app) as c,
        EmulatorServer(openai_app) as d,
        EmulatorServer(openai_app) as loc,
    ):
        yield {"cheap": c, "dear": d, "local": loc}


@pytest.fixture
def client(emulators: dict[str, EmulatorServer], tmp_path: Path) -> Iterator[TestClient]:
    for e in emulators.values():
        e.state.reset()
    text = policy_yaml(emulators["cheap"].url, emulators["dear"].url, emulators["local"].url)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'l.db'}",
        local_engine=False,
        admin_key=ADMIN,
        journal_path=str(tmp_path / "journal"),
        probe_interval_s=0,
    )
    with TestClient(create_app(settings, policy=load_text(text))) as c:
        yield c


def ask(client: TestClient, text: str = "Bugün hava nasıl?", **kw: object) -> object:
    body = {"model": "chat", "messages": [{"role": "user", "content": text}], **kw}
    return client.post("/v1/chat/completions", json=body)


def test_cheapest_allowed_backend_serves_public(
    client: TestClient, emulators: dict[str, EmulatorServer]
) -> None:
    r = ask(client)
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    assert r.headers["x-gecit-backend"] == "cheap"  # type: ignore[attr-defined]
    assert r.headers["x-gecit-data-class"] == "public"  # type: ignore[attr-defined]
    assert r.headers["x-gecit-rule"] == "public-cheapest"  # type: ignore[attr-defined]
    assert len(emulators["cheap"].state.requests) == 1


@pytest.mark.parametrize(
    "mode",
    [
        Mode(kind="status", status=500),
        Mode(kind="throttle", retry_after=0.05),
        Mode(kind="hang", hang_s=5),
    ],
    ids=["500", "429", "hang"],
)
def test_failure_falls_back_to_next_with_one_clean_answer(
    client: TestClient, emulators: dict[str, EmulatorServer], mode: Mode
) -> None:
    emulators["cheap"].state.mode = mode
    r = ask(client)
    assert r.status_code == 200  # type: ignore[attr-defined]
    assert r.headers["x-gecit-backend"] == "dear"  # type: ignore[attr-defined]
    assert r.headers["x-gecit-attempts"] == "2"  # type: ignore[attr-defined]
    body = r.json()  # type: ignore[attr-defined]
    assert len(body["choices"]) == 1 and body["choices"][0]["message"]["content"]


def test_special_prompt_is_served_locally(
    client: TestClient, emulators: dict[str, EmulatorServer]
) -> None:
    r = ask(client, SPECIAL)
    assert r.status_code == 200  # type: ignore[attr-defined]
    assert r.headers["x-gecit-data-class"] == "special"  # type: ignore[attr-defined]
    assert r.headers["x-gecit-backend"] == "local"  # type: ignore[attr-defined]
    assert not emulators["cheap"].state.requests and not emulators["dear"].state.requests


def test_special_with_local_down_is_refused_without_any_cloud_call(
    client: TestClient, emulators: dict[str, EmulatorServer]
) -> None:
    emulators["local"].state.mode = Mode(kind="status", status=503)
    for stream in (False, True):
        r = ask(client, SPECIAL, stream=stream)
        assert r.status_code == 503  # type: ignore[attr-defined]
        err = r.json()["error"]  # type: ignore[attr-defined]
        assert err["code"] == "no_backend_available"
        assert "special" in err["message"] and "on-prem" in err["message"]
        assert "diyabet" not in err["message"]
    assert emulators["cheap"].state.requests == [] and emulators["dear"].state.requests == []


def test_backend_breaching_ttft_slo_is_skipped_once_measured(
    client: TestClient, emulators: dict[str, EmulatorServer]
) -> None:
    emulators["cheap"].state.mode = Mode(delay_s=0.45)  # slower than 300 ms, within deadline
    first = client.post(
        "/v1/chat/completions",
        json={"model": "chat", "stream": True, "messages": [{"role": "user", "content": "Selam"}]},
    )
    assert first.headers["x-gecit-backend"] == "cheap"
    second = client.post(
        "/v1/chat/completions",
        json={"model": "chat", "stream": True, "messages": [{"role": "user", "content": "Selam"}]},
    )
    assert second.headers["x-gecit-backend"] == "dear"
    assert len(emulators["cheap"].state.requests) == 1


def test_hot_reload_keeps_in_flight_stream_and_refuses_bad_policy(
    client: TestClient, emulators: dict[str, EmulatorServer]
) -> None:
    auth = {"authorization": f"Bearer {ADMIN}"}
    emulators["cheap"].state.mode = Mode(inter_chunk_s=0.05)
    new = policy_yaml(
        emulators["cheap"].url, emulators["dear"].url, emulators["local"].url, objective="ordered"
    )
    with client.stream(
        "POST",
        "/v1/chat/completions",
        json={"model": "chat", "stream": True, "messages": [{"role": "user", "content": "Selam"}]},
    ) as s:
        assert s.headers["x-gecit-backend"] == "cheap"
        put = client.put("/admin/policy", content=new, headers=auth)
        assert put.status_code == 200, put.text
        text = "".join(s.iter_text())
    assert "[DONE]" in text and "error" not in text
    r = ask(client)
    assert r.headers["x-gecit-backend"] == "local"  # type: ignore[attr-defined]
    bad = client.put(
        "/admin/policy", content=new.replace("model: m,", "model: m, colr: 1,", 1), headers=auth
    )
    assert bad.status_code == 422
    problems = bad.json()["error"]["problems"]
    assert problems[0]["path"] == "backends.local.colr" and problems[0]["line"] == 4
    assert ask(client).headers["x-gecit-backend"] == "local"  # type: ignore[attr-defined]
    assert client.put("/admin/policy", content=new).status_code == 401
    changes = client.get("/admin/policy", headers=auth).json()["changes"]
    assert len(changes) == 1 and changes[0]["actor"] == "admin"


def test_explain_over_http_calls_no_backend(
    client: TestClient, emulators: dict[str, EmulatorServer]
) -> None:
    r = client.post(
        "/admin/policy/explain",
        headers={"authorization": f"Bearer {ADMIN}"},
        json={"model": "chat", "text": SPECIAL},
    )
    assert r.status_code == 200
    trace = r.json()
    assert trace["data_class"] == "special"
    assert [c["backend"] for c in trace["candidates"]] == ["local"]
    assert {d["backend"] for d in trace["dropped"]} == {"cheap", "dear"}
    assert "health" in trace["sensitivity"]["categories"]
    assert all(not e.state.requests for e in emulators.values())
