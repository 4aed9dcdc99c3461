"""The lean edge (raw ASGI for chat completions, /healthz, /readyz) answers exactly what the
FastAPI routes answer: status, headers (names, values, order), bodies, ledger rows."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from gateway.app import GatewayApp, create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.openai_api.auth import split_headers
from gateway.policy.loader import load_text
from gateway.settings import Settings
from tests.api.test_chat_api import policy_yaml

_IDS = re.compile(rb'"(id|created)":("[^"]*"|\d+)')


@pytest.fixture(scope="module")
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as a:
        yield a


@pytest.fixture
def app_client(emulator: EmulatorServer, tmp_path: Path) -> Iterator[tuple[GatewayApp, TestClient]]:
    emulator.state.reset()
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False)
    app = create_app(settings, policy=load_text(policy_yaml(emulator.url)))
    with TestClient(app, raise_server_exceptions=False) as c:
        c.db_path = tmp_path / "l.db"  # type: ignore[attr-defined]
        yield app, c


def _shape(r: Any) -> tuple[int, list[tuple[str, str]], bytes]:
    headers = [(k, v) for k, v in r.headers.multi_items() if k != "x-request-id"]
    assert r.headers["x-request-id"].startswith("req_")
    return r.status_code, headers, _IDS.sub(rb'"\1":_', r.content)


def _both(app: GatewayApp, call: Any) -> tuple[Any, Any]:
    edge = app.edge
    assert edge is not None
    lean = _shape(call())
    app.edge = None
    try:
        plain = _shape(call())
    finally:
        app.edge = edge
    return lean, plain


CHAT = {"model": "chat", "messages": [{"role": "user", "content": "merhaba"}]}


@pytest.mark.parametrize(
    "kwargs",
    [
        {"json": CHAT},
        {"json": {**CHAT, "stream": True, "stream_options": {"include_usage": True}}},
        {"json": {**CHAT, "stream": True}},
        {"content": b"{not json", "headers": {"content-type": "application/json"}},
        {"json": {"model": "chat"}},
        {"json": {**CHAT, "model": "nope"}},
        {"json": CHAT, "headers": {"authorization": "Bearer gk_0123456789abcdef_" + "0" * 40}},
        {"json": {**CHAT, "metadata": {"data_class": "bogus"}}},
        {"content": b"x" * (8 * 1024 * 1024 + 1), "headers": {"content-type": "application/json"}},
        {"json": {**CHAT, "messages": CHAT["messages"] * 3000}},
    ],
)
def test_chat_answers_match_fastapi(
    app_client: tuple[GatewayApp, TestClient], kwargs: dict[str, Any]
) -> None:
    app, c = app_client
    lean, plain = _both(app, lambda: c.post("/v1/chat/completions", **kwargs))
    assert lean == plain


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_health_answers_match_fastapi(app_client: tuple[GatewayApp, TestClient], path: str) -> None:
    app, c = app_client
    lean, plain = _both(app, lambda: c.get(path))
    assert lean == plain


def test_unexpected_exception_is_the_same_500(
    app_client: tuple[GatewayApp, TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, c = app_client

    async def boom(*_a: object) -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(app.state.runtime.chat, "complete", boom)
    lean, plain = _both(app, lambda: c.post("/v1/chat/completions", json=CHAT))
    assert lean == plain and lean[0] == 500 and b"secret" not in lean[2]


def test_other_methods_and_routes_go_to_fastapi(app_client: tuple[GatewayApp, TestClient]) -> None:
    _, c = app_client
    r = c.get("/v1/chat/completions")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    assert r.headers["x-request-id"].startswith("req_")
    assert c.get("/v1/models").status_code == 200


async def test_ledger_rows_match(app_client: tuple[GatewayApp, TestClient]) -> None:
    app, c = app_client
    _both(app, lambda: c.post("/v1/chat/completions", json=CHAT))
    _both(
        app,
        lambda: c.post(
            "/v1/chat/completions", content=b"[", headers={"content-type": "application/json"}
        ),
    )
    await app.state.runtime.recorder.drain(5)
    db = sqlite3.connect(c.db_path)  # type: ignore[attr-defined]
    cols = (
        "alias, status, tenant, app, backend, data_class, rule, error_kind, prompt_tokens, "
        "completion_tokens, estimated, streamed"
    )
    rows = db.execute(f"SELECT {cols} FROM requests ORDER BY created_at").fetchall()
    assert len(rows) == 4 and rows[0] == rows[1] and rows[2] == rows[3]


def test_split_headers_is_starlette_headers() -> None:
    raw = [
        (b"authorization", b"Bearer first"),
        (b"authorization", b"Bearer second"),
        (b"x-data-class", b"public"),
        (b"x-data-class", b"personal"),
        (b"cookie", b"c=1"),
        (b"x-api-key", b"k"),
        (b"x-\xc3\xbc", b"\xc3\xbc"),
    ]
    token, headers = split_headers(raw)
    assert token == "first"
    assert headers == {"x-data-class": "personal", "x-Ã¼": "Ã¼"}
    assert orjson.dumps(headers)
