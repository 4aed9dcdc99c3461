"""The admin and report edges against untrusted input, in-process against the OpenAI emulator:
a policy PUT cannot turn a gateway setting into a bearer token for another host, a YAML bomb
or a binary body is a listed problem, report ranges are capped and never a 500, and a request
that dies on an unexpected error still has its ledger row."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from gateway.app import Seams, create_app
from gateway.emulators.base import EmulatorServer
from gateway.policy.loader import load_text
from gateway.settings import Settings

ADMIN = "untrusted-inputs-admin-key"
AUTH = {"authorization": f"Bearer {ADMIN}"}


def policy_yaml(url: str) -> str:
    return f"""version: 1
backends:
  primary: {{kind: openai_compat, zone: on_prem, base_url: "{url}", model: emulated-model}}
aliases:
  chat: {{backends: [primary]}}
"""


class _Capture(BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Capture.seen.append(self.headers.get("authorization", ""))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"data": []}')

    do_POST = do_GET

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def capture() -> Iterator[str]:
    _Capture.seen = []
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Capture)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def client(openai_emulator: EmulatorServer, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'l.db'}",
        local_engine=False,
        admin_key=ADMIN,
        journal_path=str(tmp_path / "journal"),
        report_max_days=90,
        probe_interval_s=0,
        policy_sync_s=0,
    )
    env = {"GECIT_ADMIN_KEY": ADMIN, "GECIT_DATABASE_URL": settings.database_url}
    app = create_app(settings, Seams(env=env), policy=load_text(policy_yaml(openai_emulator.url)))
    with TestClient(app) as c:
        c.db_path = tmp_path / "l.db"  # type: ignore[attr-defined]
        yield c


def test_a_policy_put_cannot_send_the_admin_key_to_another_host(
    client: TestClient, capture: str
) -> None:
    for var in ("GECIT_ADMIN_KEY", "GECIT_DATABASE_URL"):
        doc = policy_yaml(capture).replace(
            "model: emulated-model}", f"model: m, api_key_env: {var}}}"
        )
        put = client.put("/admin/policy", headers=AUTH, content=doc)
        assert put.status_code == 422, put.text
        problems = put.json()["error"]["problems"]
        assert problems[0]["path"] == "backends.primary.api_key_env"
        assert problems[0]["line"] == 3
    client.get("/readyz")
    assert all(ADMIN not in h for h in _Capture.seen)


def test_a_backend_at_the_metadata_address_is_refused(client: TestClient) -> None:
    put = client.put(
        "/admin/policy", headers=AUTH, content=policy_yaml("http://169.254.169.254/latest")
    )
    assert put.status_code == 422
    assert "metadata" in put.json()["error"]["problems"][0]["message"]


def test_a_yaml_bomb_or_binary_policy_is_a_listed_problem(client: TestClient) -> None:
    before = client.get("/admin/policy", headers=AUTH).json()["sha256"]
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 8)]
    bomb = client.put("/admin/policy", headers=AUTH, content="\n".join(lines))
    assert bomb.status_code == 422
    assert bomb.json()["error"]["problems"] == [
        {"path": "<root>", "line": 1, "message": "YAML anchors (&name) are not allowed in a policy"}
    ]
    binary = client.put("/admin/policy", headers=AUTH, content=b"\x89PNG\r\n\x1a\n\x00\xff")
    assert binary.status_code == 422
    assert binary.json()["error"]["problems"][0]["message"] == "not UTF-8 text (a binary file?)"
    deep = client.post(
        "/admin/policy/explain",
        headers=AUTH,
        json={"model": "chat", "text": "x", "policy": "a: " + "[" * 5000},
    )
    assert deep.status_code == 422
    assert client.get("/admin/policy", headers=AUTH).json()["sha256"] == before


@pytest.mark.parametrize("path", ["/admin/reports/cost", "/admin/dashboard"])
def test_report_ranges_are_capped_and_dates_parsed_safely(client: TestClient, path: str) -> None:
    huge = client.get(f"{path}?from=0001-01-01&to=9999-11-30", headers=AUTH)
    assert huge.status_code == 400, huge.text
    err = huge.json()["error"]
    assert err["param"] == "to" and err["code"] == "range_too_long"
    assert "at most 90" in err["message"]
    edge = client.get(f"{path}?from=9999-12-31&to=9999-12-31", headers=AUTH)
    assert edge.status_code == 400 and edge.json()["error"]["param"] == "to"
    bad = client.get(f"{path}?from=2026-13-01", headers=AUTH)
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "from"
    ok = client.get(f"{path}?from=2026-01-01&to=2026-03-31", headers=AUTH)
    assert ok.status_code == 200


class _Broken:
    """A vendor adapter with a bug: every call raises something no code expects."""

    name = "primary"

    def __init__(self, capabilities: Any) -> None:
        self.capabilities = capabilities

    async def complete(self, request: Any, options: Any) -> Any:
        raise KeyError("a bug")

    async def stream(self, request: Any, options: Any) -> AsyncIterator[Any]:
        raise KeyError("a bug")
        yield  # pragma: no cover

    async def check(self) -> bool:
        return True

    async def aclose(self) -> None:
        pass


def _rows(db: Path) -> list[tuple[Any, ...]]:
    deadline = time.monotonic() + 5
    while True:
        with sqlite3.connect(db) as conn:
            rows = conn.execute(
                "SELECT status, error_kind, streamed FROM requests ORDER BY created_at"
            ).fetchall()
        if len(rows) >= 2 or time.monotonic() > deadline:
            return rows
        time.sleep(0.05)


def test_a_500_still_writes_its_row(client: TestClient) -> None:
    providers = client.app.state.runtime.providers  # type: ignore[attr-defined]
    providers["primary"] = _Broken(providers["primary"].capabilities)
    body = {"model": "chat", "messages": [{"role": "user", "content": "hi"}]}
    assert client.post("/v1/chat/completions", json=body).status_code == 500
    assert client.post("/v1/chat/completions", json={**body, "stream": True}).status_code == 500
    assert _rows(client.db_path) == [
        (500, "internal_error", 0),  # type: ignore[attr-defined]
        (500, "internal_error", 1),
    ]


def test_a_quarantined_row_is_counted_on_metrics(
    openai_emulator: EmulatorServer, tmp_path: Path
) -> None:
    from gateway.usage.journal import Journal
    from gateway.usage.ledger import make_entry
    from gateway.usage.pricing import Cost
    from gateway.usage.records import UsageRecord

    journal = Journal(tmp_path / "journal")  # left by an earlier process: one good row and
    journal.open()  # one no database can take (its time is not a time)
    for rid in ("req_good", "req_poison"):
        entry = make_entry(
            UsageRecord(request_id=rid, created_at=time.time(), alias="chat", status=200),
            Cost(None, "policy", None),
            None,
        )
        if rid == "req_poison":
            entry["created_at"] = "not-a-time"
        journal.append(entry)
    journal.close()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'l.db'}",
        local_engine=False,
        admin_key=ADMIN,
        journal_path=str(tmp_path / "journal"),
        probe_interval_s=0,
        policy_sync_s=0,
    )
    app = create_app(settings, policy=load_text(policy_yaml(openai_emulator.url)))
    with TestClient(app) as c:
        deadline = time.monotonic() + 10
        scrape = ""
        while time.monotonic() < deadline and "gecit_ledger_quarantined 1.0" not in scrape:
            time.sleep(0.1)
            scrape = c.get("/metrics", headers=AUTH).text
        assert "gecit_ledger_quarantined 1.0" in scrape
        with sqlite3.connect(tmp_path / "l.db") as conn:
            assert conn.execute("SELECT id FROM requests").fetchall() == [("req_good",)]
