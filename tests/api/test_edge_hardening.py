"""The edge's limits and auth order through the real app (OpenAI emulator upstream, SQLite
ledger): bodies over the limit get 413 without being forwarded, on the lean chat route and on
the routes FastAPI serves; messages and characters are bounded; with keys required the key is
checked before the body, so an unknown caller leaves no ledger row; failed key checks are
rate-limited per address; odd bearer bytes are a 401, never a 500; `/metrics` needs a key
when keys are required; a caller's bad requests never open a backend's circuit."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gateway.app import GatewayApp, create_app
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.usage.db import create_schema, make_engine
from gateway.usage.keys import create_key
from tests.api.test_chat_api import policy_yaml

CHAT = {"model": "chat", "messages": [{"role": "user", "content": "merhaba"}]}
ADMIN = "admin-secret-for-edge-tests"
METRICS = "metrics-secret-for-edge-tests"


@pytest.fixture(scope="module")
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as e:
        yield e


def _app(emulator: EmulatorServer, tmp: Path, **settings: Any) -> GatewayApp:
    emulator.state.reset()
    s = Settings(database_url=f"sqlite:///{tmp / 'l.db'}", local_engine=False, **settings)
    return create_app(s, policy=load_text(policy_yaml(emulator.url)))


def _key(tmp: Path, tenant: str = "acme") -> str:
    engine = make_engine(f"sqlite:///{tmp / 'l.db'}")
    try:
        create_schema(engine)
        return create_key(engine, tenant, "web", now=time.time())[1]
    finally:
        engine.dispose()


async def _rows(app: GatewayApp, tmp: Path) -> list[tuple[Any, ...]]:
    await app.state.runtime.recorder.drain(5)
    db = sqlite3.connect(tmp / "l.db")
    try:
        return db.execute("SELECT tenant, status, error_kind FROM requests").fetchall()
    finally:
        db.close()


def _chat_calls(emulator: EmulatorServer) -> int:
    return sum(1 for r in emulator.state.requests if r.path.endswith("/chat/completions"))


# ---- body size ------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/embeddings"])
def test_a_declared_body_over_the_limit_is_refused_with_413(
    emulator: EmulatorServer, tmp_path: Path, path: str
) -> None:
    app = _app(emulator, tmp_path, max_body_bytes=1024)
    with TestClient(app) as c:
        body = b'{"model":"chat","messages":[{"role":"user","content":"' + b"a" * 4096 + b'"}]}'
        r = c.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert r.json()["error"]["code"] == "request_too_large"
        assert r.json()["error"]["type"] == "invalid_request_error"
        assert r.headers["connection"] == "close"
        assert _chat_calls(emulator) == 0
        assert c.post("/v1/chat/completions", json=CHAT).status_code == 200  # small: served


def test_the_lean_edge_keeps_a_connection_only_when_it_read_the_whole_body(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    """The hot routes count their own body (no wrapper in front of them): an answer given
    after the body was read keeps the connection, one given before it ends the connection."""
    app = _app(emulator, tmp_path)
    with TestClient(app) as c:
        served = c.post("/v1/chat/completions", json=CHAT)
        assert served.status_code == 200
        assert served.headers.get("connection") != "close"
        invalid = c.post("/v1/chat/completions", json={"model": "chat", "messages": []})
        assert invalid.status_code == 400  # refused after its body was read: kept
        assert invalid.headers.get("connection") != "close"
        for path in ("/healthz", "/readyz"):
            bare = c.get(path)
            assert bare.status_code == 200 and bare.headers.get("connection") != "close"
            with_body = c.request("GET", path, content=b"x" * 100)
            assert with_body.status_code == 200
            assert with_body.headers["connection"] == "close"  # its body is never read


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/embeddings", "/admin/policy"])
def test_a_chunked_body_is_counted_and_stopped_at_the_limit(
    emulator: EmulatorServer, tmp_path: Path, path: str
) -> None:
    app = _app(emulator, tmp_path, max_body_bytes=1024, admin_key=ADMIN)

    def pieces() -> Iterator[bytes]:  # no Content-Length: chunked
        yield b'{"model":"chat","messages":[{"role":"user","content":"'
        for _ in range(16):
            yield b"a" * 512
        yield b'"}]}'

    with TestClient(app) as c:
        method = c.put if path == "/admin/policy" else c.post
        r = method(
            path,
            content=pieces(),
            headers={"content-type": "application/json", "authorization": f"Bearer {ADMIN}"},
        )
        assert r.status_code == 413, r.text
        assert r.json()["error"]["code"] == "request_too_large"
        assert _chat_calls(emulator) == 0


def test_messages_and_characters_per_request_are_bounded(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path, max_messages=3, max_request_chars=100)
    with TestClient(app) as c:
        many = {"model": "chat", "messages": [{"role": "user", "content": "a"}] * 4}
        r = c.post("/v1/chat/completions", json=many)
        assert r.status_code == 400 and r.json()["error"]["code"] == "too_many_messages"
        long = {
            "model": "chat",
            "messages": [
                {"role": "user", "content": "a" * 60},
                {"role": "user", "content": [{"type": "text", "text": "b" * 60}]},
            ],
        }
        r = c.post("/v1/chat/completions", json=long)
        assert r.status_code == 400 and r.json()["error"]["code"] == "request_too_long"
        assert _chat_calls(emulator) == 0
        ok = {"model": "chat", "messages": [{"role": "user", "content": "a" * 50}] * 2}
        assert c.post("/v1/chat/completions", json=ok).status_code == 200


def test_content_parts_per_request_are_bounded_before_parsing(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    """Thousands of parts within the body limit: refused from a byte count, or from a plain
    JSON parse when tools or schemas also carry `type` keys, on every client API."""
    app = _app(emulator, tmp_path, max_content_parts=50)
    part = {"type": "text", "text": "a"}
    tools = [{"type": "function", "function": {"name": f"f{i}"}} for i in range(60)]
    refused = [
        (
            "/v1/chat/completions",
            {
                "model": "chat",
                "messages": [
                    {"role": "user", "content": [part] * 30},
                    {"role": "user", "content": [part] * 30},
                ],
            },
        ),
        (
            "/v1/responses",
            {
                "model": "chat",
                "input": [{"role": "user", "content": [{"type": "input_text", "text": "a"}] * 51}],
            },
        ),
        (
            "/v1/messages",
            {
                "model": "chat",
                "max_tokens": 5,
                "messages": [{"role": "user", "content": [part] * 51}],
            },
        ),
    ]
    with TestClient(app) as c:
        for path, body in refused:
            r = c.post(path, json=body)
            assert r.status_code == 400, (path, r.text)
            error = r.json()["error"]  # the Anthropic shape on /v1/messages has no code
            assert error.get("code", "too_many_content_parts") == "too_many_content_parts"
            assert "too many content parts" in error["message"], path
        # 60 tool definitions push the `type` count over the limit, but hold no content part
        few = {
            "model": "chat",
            "messages": [{"role": "user", "content": [part] * 2}],
            "tools": tools,
        }
        r = c.post("/v1/chat/completions", json=few)
        assert r.status_code == 200, r.text
    assert _chat_calls(emulator) == 1


def test_messages_are_counted_before_parsing_even_with_escaped_keys(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path, max_messages=3)
    escaped = b'{"\\u0072ole":"user","content":"a"}'
    with TestClient(app) as c:
        for body in (
            b'{"model":"chat","messages":[' + b",".join([escaped] * 4) + b"]}",
            b'{"model":"chat","messages":['
            + b",".join([b'{"role":"user","content":"a"}'] * 100_000)
            + b"]}",
        ):
            r = c.post(
                "/v1/chat/completions", content=body, headers={"content-type": "application/json"}
            )
            assert r.status_code == 400 and r.json()["error"]["code"] == "too_many_messages"
        # escapes in ordinary text (Turkish from json.dumps) within the limit are served
        ok = (
            b'{"model":"chat","messages":[{"\\u0072ole":"user","content":"'
            + b"\\u00e7ok g\\u00fczel " * 50
            + b'"}]}'
        )
        r = c.post("/v1/chat/completions", content=ok, headers={"content-type": "application/json"})
        assert r.status_code == 200, r.text


async def test_refused_sizes_still_get_their_ledger_rows(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path, max_messages=1, max_body_bytes=2048)
    with TestClient(app) as c:
        assert (
            c.post(
                "/v1/chat/completions", json={**CHAT, "messages": CHAT["messages"] * 2}
            ).status_code
            == 400
        )
        assert c.post("/v1/chat/completions", content=b"x" * 4096).status_code == 413
    rows = sorted(await _rows(app, tmp_path), key=lambda r: r[1])
    assert rows == [("default", 400, "too_many_messages"), ("default", 413, "request_too_large")]


# ---- auth before the body -------------------------------------------------------------------
async def test_unauthenticated_requests_are_refused_before_the_body_and_leave_no_rows(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path, require_keys=True, auth_failures_per_minute=1000)
    key = _key(tmp_path)
    with TestClient(app) as c:
        for body in (b"{}", b"not json", b"x" * 20_000):
            for path in ("/v1/chat/completions", "/v1/embeddings"):
                r = c.post(path, content=body, headers={"content-type": "application/json"})
                assert r.status_code == 401, (path, r.text)
                assert r.json()["error"]["type"] == "authentication_error"
        # a caller with a key and a bad body: refused and recorded under its tenant
        bad = c.post(
            "/v1/chat/completions", content=b"{}", headers={"authorization": f"Bearer {key}"}
        )
        assert bad.status_code == 400
    rows = await _rows(app, tmp_path)
    assert rows == [("acme", 400, "invalid_request")]


def _receive_counting(body: bytes) -> tuple[Any, list[int]]:
    asked = [0]

    async def receive() -> dict[str, Any]:
        asked[0] += 1
        return {"type": "http.request", "body": body, "more_body": True}

    return receive, asked


def test_the_lean_route_never_asks_for_the_body_of_an_unknown_caller(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path, require_keys=True)
    with TestClient(app) as c:
        receive, asked = _receive_counting(b"x" * 65536)
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": "/v1/chat/completions",
            "headers": [(b"content-length", b"104857600")],
            "client": ("10.0.0.9", 1),
            "query_string": b"",
            "root_path": "",
        }
        c.portal.call(app, scope, receive, send)  # type: ignore[union-attr]
        assert sent[0]["status"] == 401
        assert asked[0] == 0  # not one piece of the 100 MB body was asked for


# ---- bearer bytes and failed-auth rate limit -----------------------------------------------
@pytest.mark.parametrize(
    "token",
    ["gk_" + "é" * 16 + "_" + "ğ" * 40, "ş" * 20, "gk_\x01\x02", "gk_0123456789abcdef_" + "ü" * 40],
)
def test_odd_bearer_bytes_are_a_401_never_a_500(
    emulator: EmulatorServer, tmp_path: Path, token: str
) -> None:
    app = _app(emulator, tmp_path, require_keys=True, admin_key=ADMIN)
    raw = ("Bearer " + token).encode("utf-8")
    with TestClient(app) as c:
        for method, path in (
            ("GET", "/admin/reports/cost"),
            ("GET", "/admin/policy"),
            ("POST", "/v1/chat/completions"),
            ("GET", "/v1/models"),
            ("POST", "/v1/embeddings"),
            ("GET", "/metrics"),
        ):
            r = c.request(method, path, json=CHAT, headers={"authorization": raw})
            assert r.status_code == 401, (path, r.status_code, r.text)
            assert r.json()["error"]["code"] == "invalid_api_key"
        r = c.get("/admin/policy", headers={"x-api-key": "\xff".encode("latin-1")})
        assert r.status_code == 401


def test_failed_key_checks_are_rate_limited_per_address(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path, require_keys=True, admin_key=ADMIN, auth_failures_per_minute=5)
    key = _key(tmp_path)
    with TestClient(app) as c:
        for _ in range(5):
            r = c.post(
                "/v1/chat/completions",
                json=CHAT,
                headers={"authorization": "Bearer gk_0123456789abcdef_" + "0" * 40},
            )
            assert r.status_code == 401
        for path in ("/v1/chat/completions", "/v1/models", "/admin/policy"):
            r = c.request(
                "GET" if path != "/v1/chat/completions" else "POST",
                path,
                json=CHAT,
                headers={"authorization": f"Bearer {ADMIN}"},
            )
            assert r.status_code == 429, (path, r.status_code)
            assert r.json()["error"]["code"] == "too_many_auth_failures"
            assert 1 <= int(r.headers["retry-after"]) <= 60
        # even a good key from that address waits: guessing cannot go on in between
        r = c.post("/v1/chat/completions", json=CHAT, headers={"authorization": f"Bearer {key}"})
        assert r.status_code == 429
    with TestClient(app, client=("10.1.2.3", 4000)) as other:  # another address is served
        r = other.post(
            "/v1/chat/completions", json=CHAT, headers={"authorization": f"Bearer {key}"}
        )
        assert r.status_code == 200


# ---- /metrics -------------------------------------------------------------------------------
def test_metrics_need_a_key_when_keys_are_required(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path, require_keys=True, admin_key=ADMIN, metrics_key=METRICS)
    key = _key(tmp_path, tenant="secret-tenant-name")
    with TestClient(app) as c:
        assert (
            c.post(
                "/v1/chat/completions", json=CHAT, headers={"authorization": f"Bearer {key}"}
            ).status_code
            == 200
        )
        r = c.get("/metrics")
        assert r.status_code == 401 and b"secret-tenant-name" not in r.content
        assert c.get("/metrics", headers={"authorization": f"Bearer {key}"}).status_code == 403
        for good in (METRICS, ADMIN):
            r = c.get("/metrics", headers={"authorization": f"Bearer {good}"})
            assert r.status_code == 200 and b"gecit_requests_total" in r.content


def test_metrics_stay_open_in_keyless_loopback_mode(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    app = _app(emulator, tmp_path)
    with TestClient(app) as c:
        assert c.get("/metrics").status_code == 200


# ---- the circuit ----------------------------------------------------------------------------
@pytest.mark.parametrize("stream", [True, False])
def test_a_callers_bad_requests_never_open_the_circuit_for_others(
    emulator: EmulatorServer, tmp_path: Path, stream: bool
) -> None:
    app = _app(emulator, tmp_path, require_keys=True)
    bad_key, good_key = _key(tmp_path, "mallory"), _key(tmp_path, "alice")
    with TestClient(app) as c:
        bad = {"authorization": f"Bearer {bad_key}"}
        for _ in range(5):  # a value no upstream body can carry
            r = c.post(
                "/v1/chat/completions",
                headers=bad,
                json={**CHAT, "stream": stream, "max_tokens": 10**30},
            )
            assert r.status_code == 400, r.text
        for status in (400, 404, 413, 422):  # the upstream says the request was wrong
            emulator.state.mode = Mode(kind="status", status=status, times=3)
            for _ in range(3):
                r = c.post("/v1/chat/completions", headers=bad, json={**CHAT, "stream": stream})
                assert r.status_code in (400, 502, 503), r.text
        emulator.state.mode = Mode()
        r = c.post(
            "/v1/chat/completions",
            json={**CHAT, "stream": stream},
            headers={"authorization": f"Bearer {good_key}"},
        )
        assert r.status_code == 200, r.text
        stats = app.state.runtime.stats.of("primary")
        assert stats.circuit(time.monotonic()) == "closed"
