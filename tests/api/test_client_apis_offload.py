"""The client APIs beside chat (`/v1/responses`, `/v1/messages`, `/v1/messages/count_tokens`,
`/v1/completions`, `/v1/embeddings`) read their bodies through the same intake seam as chat:
a body over `offload_body_bytes` is parsed, translated and checked against the edge's limits
in one of the gateway's child processes, a smaller one inline; either way the answer (or the
refusal, with its ledger row) is the same. Through the real app, the OpenAI emulator upstream
and a SQLite ledger."""

from __future__ import annotations

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
from gateway.policy.loader import load_text
from gateway.settings import Settings
from tests.api.test_chat_api import policy_yaml

JSON = {"content-type": "application/json"}
LONG = "kargo ne zaman gelir " * 200  # ~4 KB: over the 2 KiB threshold below


def _bodies(text: str) -> dict[str, dict[str, Any]]:
    """One ordinary request per API, carrying `text`."""
    return {
        "/v1/responses": {"model": "chat", "input": text},
        "/v1/messages": {
            "model": "chat",
            "max_tokens": 16,
            "messages": [{"role": "user", "content": text}],
        },
        "/v1/messages/count_tokens": {
            "model": "chat",
            "messages": [{"role": "user", "content": text}],
        },
        "/v1/completions": {"model": "chat", "prompt": text},
        "/v1/embeddings": {"model": "chat", "input": [text, "ikinci"]},
    }


PATHS = list(_bodies(""))


@pytest.fixture(scope="module")
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as e:
        yield e


def _app(emulator: EmulatorServer, tmp: Path, **settings: Any) -> GatewayApp:
    emulator.state.reset()
    s = Settings(
        database_url=f"sqlite:///{tmp / 'l.db'}", local_engine=False, offload_workers=1, **settings
    )
    return create_app(s, policy=load_text(policy_yaml(emulator.url)))


def _warmed(client: TestClient) -> TestClient:
    """The client once the gateway's child has started, as `gateway serve` starts it."""
    pool = client.app.state.runtime.body_offload.pool  # type: ignore[attr-defined]
    pool.start()
    client.portal.call(pool.warmed)
    return client


def _jobs(client: TestClient) -> int:
    done: int = client.app.state.runtime.body_offload.pool.done  # type: ignore[attr-defined]
    return done


async def _rows(app: GatewayApp, tmp: Path) -> list[tuple[Any, ...]]:
    await app.state.runtime.recorder.drain(5)
    db = sqlite3.connect(tmp / "l.db")
    try:
        return db.execute("SELECT alias, status, error_kind FROM requests").fetchall()
    finally:
        db.close()


def _comparable(path: str, answer: dict[str, Any]) -> Any:
    """The answer without what differs per request (ids, times)."""
    if path == "/v1/responses":
        return [item["content"] for item in answer["output"]], answer["usage"]
    if path == "/v1/messages":
        return answer["content"], answer["usage"], answer["stop_reason"]
    if path == "/v1/completions":
        return answer["choices"], answer["usage"]
    if path == "/v1/embeddings":
        return answer["data"], answer["usage"]
    return answer  # count_tokens


def _served(client: TestClient, path: str, body: dict[str, Any]) -> tuple[Any, int]:
    """(the answer's status and JSON, how many child jobs it took)."""
    before = _jobs(client)
    r = client.post(path, content=orjson.dumps(body), headers=JSON)
    return (r.status_code, r.json()), _jobs(client) - before


def _each_mode(
    emulator: EmulatorServer, tmp_path: Path, settings: dict[str, Any], run: Any
) -> list[Any]:
    """`run(client, app, tmp)` against a gateway that parses bodies over 2 KiB in a child,
    then one that parses every body inline."""
    out = []
    for offload_bytes, sub in ((2048, "child"), (1 << 30, "inline")):
        tmp = tmp_path / sub
        tmp.mkdir()
        app = _app(emulator, tmp, offload_body_bytes=offload_bytes, **settings)
        with TestClient(app) as client:
            out.append(run(_warmed(client), app, tmp))
    return out


def test_a_large_body_is_parsed_in_a_child_and_answered_as_inline(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    def run(c: TestClient, _app: GatewayApp, _tmp: Path) -> list[Any]:
        answers = []
        for path in PATHS:
            (status, _), jobs = _served(c, path, _bodies("merhaba")[path])
            assert (status, jobs) == (200, 0), path  # a small body stays in this process
            (status, answer), jobs = _served(c, path, _bodies(LONG)[path])
            assert status == 200, (path, answer)
            answers.append((path, _comparable(path, answer), jobs))
        return answers

    child, inline = _each_mode(emulator, tmp_path, {}, run)
    assert [jobs for _, _, jobs in child] == [1] * len(PATHS)  # the parse, in the child
    assert [jobs for _, _, jobs in inline] == [0] * len(PATHS)
    assert [a[:2] for a in child] == [a[:2] for a in inline]


def test_a_large_refusal_is_the_same_as_inline_with_its_ledger_row(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    served = [p for p in PATHS if not p.endswith("count_tokens")]  # (it records nothing)

    def run(c: TestClient, app: GatewayApp, tmp: Path) -> tuple[list[Any], Any]:
        answers = []
        for path in served:
            unknown = {**_bodies(LONG)[path], "base_url": "http://elsewhere.invalid"}
            too_long = _bodies(LONG)[path]  # more text than max_request_chars once translated
            for body in (unknown, too_long):
                (status, answer), jobs = _served(c, path, body)
                answers.append((path, status, answer, jobs))
        return answers, c.portal.call(_rows, app, tmp)

    (child, child_rows), (inline, rows) = _each_mode(
        emulator, tmp_path, {"max_request_chars": 1000}, run
    )
    assert [a[:3] for a in child] == [a[:3] for a in inline]
    assert {a[1] for a in child} == {400}
    assert [a[3] for a in child] == [1] * len(child)
    openai_shaped = [a[2]["error"]["code"] for a in child if a[0] != "/v1/messages"]
    assert openai_shaped == ["unknown_field", "request_too_long"] * (len(served) - 1)
    assert child_rows == rows and len(rows) == len(child)
    assert [r[1:] for r in rows] == [(400, "unknown_field"), (400, "request_too_long")] * len(
        served
    )


def test_too_many_input_items_are_refused_before_they_are_parsed(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    items = [{"role": "user", "content": "a"}] * 50
    body = orjson.dumps({"model": "chat", "input": items})
    with TestClient(_app(emulator, tmp_path, max_messages=20)) as client:
        r = client.post("/v1/responses", content=body, headers=JSON)
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "too_many_messages"


def test_a_busy_pool_is_a_503_and_the_body_is_not_parsed_inline(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    body = orjson.dumps(_bodies(LONG)["/v1/completions"])
    app = _app(emulator, tmp_path, offload_body_bytes=2048, offload_timeout_s=0.0)
    with TestClient(app) as client:
        r = client.post("/v1/completions", content=body, headers=JSON)
        rows = client.portal.call(_rows, app, tmp_path)
    assert r.status_code == 503
    assert r.json()["error"]["code"] == "server_busy"
    assert r.headers["retry-after"] == "1"
    assert rows == [("", 503, "server_busy")]
