"""The OpenAI edge in-process, against the OpenAI emulator: shapes, statuses, ledger rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

SECRET_PROMPT = "Gizli-istem-7f3a9 bu metin veritabanına yazılmamalı"


def policy_yaml(primary: str, secondary: str | None = None) -> str:
    second = ""
    backends = "[primary]"
    if secondary:
        second = f"""
  secondary:
    kind: openai_compat
    zone: on_prem
    base_url: {secondary}
    model: emulated-model
"""
        backends = "[primary, secondary]"
    return f"""
version: 1
backends:
  primary:
    kind: openai_compat
    zone: on_prem
    base_url: {primary}
    model: emulated-model
    timeouts: {{connect_s: 1, first_token_s: 2, total_s: 5}}
{second}
aliases:
  chat:
    backends: {backends}
"""


@pytest.fixture(scope="module")
def emulator_pair() -> Iterator[tuple[EmulatorServer, EmulatorServer]]:
    with EmulatorServer(openai_app) as a, EmulatorServer(openai_app) as b:
        yield a, b


@pytest.fixture
def two_emulators(
    emulator_pair: tuple[EmulatorServer, EmulatorServer],
) -> tuple[EmulatorServer, EmulatorServer]:
    for srv in emulator_pair:
        srv.state.reset()
    return emulator_pair


@pytest.fixture
def client(
    two_emulators: tuple[EmulatorServer, EmulatorServer], tmp_path: Path
) -> Iterator[TestClient]:
    a, b = two_emulators
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False)
    app = create_app(settings, policy=load_text(policy_yaml(a.url, b.url)))
    with TestClient(app) as c:
        c.db_path = tmp_path / "l.db"  # type: ignore[attr-defined]
        yield c


def chat_body(**kw: object) -> dict[str, object]:
    body: dict[str, object] = {
        "model": "chat",
        "messages": [{"role": "user", "content": SECRET_PROMPT}],
    }
    body.update(kw)
    return body


def assert_openai_error(resp: object, status: int, param: str | None = None) -> dict[str, object]:
    r = resp  # httpx.Response
    assert r.status_code == status, r.text  # type: ignore[attr-defined]
    body = r.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"}
    err = body["error"]
    assert set(err) == {"message", "type", "param", "code"}
    assert isinstance(err["message"], str) and err["message"]
    if param is not None:
        assert err["param"] == param
    assert r.headers["x-request-id"].startswith("req_")  # type: ignore[attr-defined]
    return err  # type: ignore[no-any-return]


def test_completion_shape_and_headers(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    r = client.post(
        "/v1/chat/completions",
        json=chat_body(max_completion_tokens=30, seed=1, user="u1", temperature=0.3),
    )
    assert r.status_code == 200
    body = r.json()
    assert body["object"] == "chat.completion"
    assert body["model"] == "chat"
    assert body["choices"][0]["message"]["content"] == two_emulators[0].state.mode.reply
    assert body["choices"][0]["finish_reason"] == "stop"
    assert body["usage"]["total_tokens"] == (
        body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"]
    )
    assert r.headers["x-gecit-backend"] == "primary"
    assert r.headers["x-gecit-attempts"] == "1"
    sent = two_emulators[0].state.requests[-1].json()
    assert sent["max_tokens"] == 30 and sent["seed"] == 1 and sent["temperature"] == 0.3
    assert "user" not in sent, "the end-user id must not leave the gateway"


def test_stream_with_usage_and_done(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    with client.stream(
        "POST",
        "/v1/chat/completions",
        json=chat_body(stream=True, stream_options={"include_usage": True}),
    ) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = [ln for ln in r.iter_lines() if ln]
    assert lines[-1] == "data: [DONE]"
    events = [orjson.loads(ln[6:]) for ln in lines[:-1]]
    text = "".join(e["choices"][0]["delta"].get("content", "") for e in events if e["choices"])
    assert text == two_emulators[0].state.mode.reply
    assert events[-1]["choices"] == [] and events[-1]["usage"]["completion_tokens"] > 0
    finishes = [e["choices"][0]["finish_reason"] for e in events if e["choices"]]
    assert finishes[-1] == "stop"


@pytest.mark.parametrize(
    ("payload", "param"),
    [
        (b"{not json", None),
        (orjson.dumps({"model": "chat"}), "messages"),
        (orjson.dumps({"model": "chat", "messages": []}), "messages"),
        (orjson.dumps({"model": "chat", "messages": "hello"}), "messages"),
        (orjson.dumps({"model": 42, "messages": [{"role": "user", "content": "x"}]}), "model"),
        (
            orjson.dumps({"model": "chat", "messages": [{"role": "wizard", "content": "x"}]}),
            "messages.0.role",
        ),
        (
            orjson.dumps(
                {
                    "model": "chat",
                    "messages": [{"role": "user", "content": "x"}],
                    "temperature": "hot",
                }
            ),
            "temperature",
        ),
        (orjson.dumps([1, 2]), None),
    ],
)
def test_bad_input_is_400_and_server_keeps_serving(
    client: TestClient, payload: bytes, param: str | None
) -> None:
    r = client.post(
        "/v1/chat/completions", content=payload, headers={"content-type": "application/json"}
    )
    err = assert_openai_error(r, 400, param)
    assert err["type"] == "invalid_request_error"
    ok = client.post("/v1/chat/completions", json=chat_body())
    assert ok.status_code == 200


_MSG = [{"role": "user", "content": "x"}]


@pytest.mark.parametrize(
    ("extra", "param"),
    [
        ({"base_url": "http://evil.example/v1"}, "base_url"),
        ({"api_base": "http://evil.example/v1"}, "api_base"),
        ({"api_key": "sk-x"}, "api_key"),
        ({"fallbacks": [{"model": "gpt-4o"}]}, "fallbacks"),
        ({"mock_response": "hi"}, "mock_response"),
        ({"notes": "Hastamız HIV pozitif"}, "notes"),
        ({"max_tokens": 10**30}, "max_tokens"),
        ({"max_completion_tokens": 10**30}, "max_completion_tokens"),
        ({"seed": 10**30}, "seed"),
        ({"seed": 10**30, "stream": True}, "seed"),
        ({"top_logprobs": 99}, "top_logprobs"),
        ({"logit_bias": {"1": 1000}}, "logit_bias"),
        ({"messages": [{"role": "user", "content": "x", "extra": "y"}]}, "messages.0.extra"),
        (
            {
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "x", "note": "y"}]}
                ]
            },
            "messages.0.content.0.note",
        ),
        ({"tools": [{"type": "function", "function": {"name": "f"}, "note": "y"}]}, "tools.0.note"),
    ],
)
def test_unknown_fields_and_out_of_range_integers_are_400_naming_the_field(
    client: TestClient,
    two_emulators: tuple[EmulatorServer, EmulatorServer],
    extra: dict[str, object],
    param: str,
) -> None:
    body = {"model": "chat", "messages": _MSG, **extra}
    for _ in range(3):  # the caller's fault: never counted against the backend's circuit
        err = assert_openai_error(client.post("/v1/chat/completions", json=body), 400, param)
        assert err["type"] == "invalid_request_error"
    assert two_emulators[0].state.requests == []
    assert client.post("/v1/chat/completions", json=chat_body()).status_code == 200


def test_an_unknown_top_level_field_is_named_in_the_message(client: TestClient) -> None:
    err = assert_openai_error(
        client.post("/v1/chat/completions", json=chat_body(base_url="http://evil")), 400, "base_url"
    )
    assert err["code"] == "unknown_field" and "unknown field 'base_url'" in str(err["message"])


def test_documented_fields_are_accepted_and_forwarded(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    r = client.post(
        "/v1/chat/completions",
        json=chat_body(
            parallel_tool_calls=False,
            presence_penalty=0.5,
            frequency_penalty=-0.5,
            service_tier="auto",
            store=False,
            modalities=["text"],
            reasoning_effort="low",
            logit_bias={"50256": -100},
            max_tokens=2**31 - 1,
            seed=2**63 - 1,
        ),
    )
    assert r.status_code == 200, r.text
    sent = two_emulators[0].state.requests[-1].json()
    assert sent["presence_penalty"] == 0.5 and sent["service_tier"] == "auto"
    assert sent["seed"] == 2**63 - 1 and sent["logit_bias"] == {"50256": -100}


def test_unknown_model_is_404(client: TestClient) -> None:
    err = assert_openai_error(
        client.post("/v1/chat/completions", json=chat_body(model="nope")), 404, "model"
    )
    assert err["code"] == "model_not_found"


def test_fallback_to_second_backend_before_first_chunk(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    a, _ = two_emulators
    a.state.mode = Mode(kind="status", status=500)
    r = client.post("/v1/chat/completions", json=chat_body())
    assert r.status_code == 200
    assert r.headers["x-gecit-backend"] == "secondary"
    assert r.headers["x-gecit-attempts"] == "2"
    with client.stream("POST", "/v1/chat/completions", json=chat_body(stream=True)) as s:
        assert s.headers["x-gecit-backend"] == "secondary"
        assert [ln for ln in s.iter_lines() if ln][-1] == "data: [DONE]"


def test_all_backends_down_is_503_naming_them(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    for srv in two_emulators:
        srv.state.mode = Mode(kind="status", status=502)
    err = assert_openai_error(client.post("/v1/chat/completions", json=chat_body()), 503)
    assert "primary" in str(err["message"]) and "secondary" in str(err["message"])
    assert "emulated failure" not in str(err["message"]), "raw upstream bodies must not leak"
    s = client.post("/v1/chat/completions", json=chat_body(stream=True))
    assert_openai_error(s, 503)


def test_mid_stream_cut_ends_with_error_event(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    two_emulators[0].state.mode = Mode(kind="cut", cut_after=3)
    with client.stream("POST", "/v1/chat/completions", json=chat_body(stream=True)) as r:
        lines = [ln for ln in r.iter_lines() if ln]
    assert lines[-1] != "data: [DONE]"
    last = orjson.loads(lines[-1][6:])
    assert last["error"]["code"] == "stream_interrupted"
    assert not two_emulators[1].state.requests, "no fallback after the first chunk went out"


def test_stream_ending_without_finish_reason_is_an_upstream_failure(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    # `[DONE]` after 3 pieces and no finish_reason: stock llama.cpp interrupted mid-answer
    two_emulators[0].state.mode = Mode(kind="unfinished", cut_after=3)
    with client.stream("POST", "/v1/chat/completions", json=chat_body(stream=True)) as r:
        lines = [ln for ln in r.iter_lines() if ln]
    assert "data: [DONE]" not in lines
    texts = [orjson.loads(ln[6:])["choices"][0]["delta"].get("content") for ln in lines[:-1]]
    assert len(texts) == 3 and all(texts)
    err = orjson.loads(lines[-1][6:])["error"]
    assert err["code"] == "stream_interrupted" and "finish reason" in err["message"]
    assert not two_emulators[1].state.requests, "no fallback after the first chunk went out"

    async def drain() -> None:
        await client.app.state.runtime.recorder.drain(5)  # type: ignore[attr-defined]

    client.portal.call(drain)  # type: ignore[union-attr]
    con = sqlite3.connect(client.db_path)  # type: ignore[attr-defined]
    rows = con.execute("select backend, status, error_kind, streamed from requests").fetchall()
    con.close()
    assert rows == [("primary", 502, "incomplete", 1)]


def test_models_health_and_request_ids(client: TestClient) -> None:
    models = client.get("/v1/models").json()
    assert [m["id"] for m in models["data"]] == ["chat"]
    assert client.get("/healthz").status_code == 200
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["aliases"]["chat"]
    ids = {client.get("/healthz").headers["x-request-id"] for _ in range(5)}
    assert len(ids) == 5
    assert_openai_error(client.get("/v1/nothing-here"), 404)


def test_readyz_fails_when_no_backend_reachable(tmp_path: Path) -> None:
    from gateway.emulators.base import free_port

    dead = f"http://127.0.0.1:{free_port()}"
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'r.db'}", local_engine=False)
    with TestClient(create_app(settings, policy=load_text(policy_yaml(dead)))) as c:
        r = c.get("/readyz")
        assert r.status_code == 503 and r.json()["aliases"] == {"chat": []}
        assert_openai_error(c.post("/v1/chat/completions", json=chat_body()), 503)


def test_ledger_one_row_per_request_without_text(
    client: TestClient, two_emulators: tuple[EmulatorServer, EmulatorServer]
) -> None:
    client.post("/v1/chat/completions", json=chat_body())
    with client.stream("POST", "/v1/chat/completions", json=chat_body(stream=True)) as r:
        list(r.iter_lines())
    client.post("/v1/chat/completions", content=b"{bad")  # refused at parsing: still a row
    client.post("/v1/chat/completions", json=chat_body(model="nope"))
    two_emulators[0].state.mode = Mode(kind="status", status=500, times=1)
    client.post("/v1/chat/completions", json=chat_body())

    async def drain() -> None:
        await client.app.state.runtime.recorder.drain(5)  # type: ignore[attr-defined]

    client.portal.call(drain)  # type: ignore[union-attr]
    db: Path = client.db_path  # type: ignore[attr-defined]
    con = sqlite3.connect(db)
    rows = con.execute(
        "select alias, backend, status, streamed, prompt_tokens, "
        "completion_tokens, estimated, attempts from requests "
        "order by created_at"
    ).fetchall()
    con.close()
    assert len(rows) == 5, rows
    assert rows[0][:4] == ("chat", "primary", 200, 0) and rows[0][4] > 0 and rows[0][5] > 0
    assert rows[1][:4] == ("chat", "primary", 200, 1) and rows[1][5] > 0
    assert rows[2][:3] == ("", None, 400)
    assert rows[3][:3] == ("nope", None, 404)
    assert rows[4][1] == "secondary" and rows[4][7] == 2
    raw = b"".join(p.read_bytes() for p in db.parent.glob("l.db*"))
    assert SECRET_PROMPT.encode() not in raw
    assert b"Gizli-istem" not in raw
