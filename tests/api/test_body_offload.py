"""Large chat bodies are parsed and checked in the gateway's child processes, and long requests
classified there, through the real app (OpenAI emulator upstream, SQLite ledger): answers,
refusals and their ledger rows are the same as when the work is done inline; small bodies never
leave the event loop's process."""

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


def _body(text: str, model: str = "chat") -> bytes:
    return orjson.dumps({"model": model, "messages": [{"role": "user", "content": text}]})


def _warmed(client: TestClient) -> TestClient:
    """The client once the gateway's children have started, as `gateway serve` starts them
    (a busy CI machine may take longer than a deadline to start one on first use)."""
    pool = client.app.state.runtime.body_offload.pool  # type: ignore[attr-defined]
    pool.start()
    client.portal.call(pool.warmed)
    return client


def _jobs(client: TestClient) -> int:
    offload = client.app.state.runtime.body_offload  # type: ignore[attr-defined]
    done: int = offload.pool.done
    return done


async def _rows(app: GatewayApp, tmp: Path) -> list[tuple[Any, ...]]:
    await app.state.runtime.recorder.drain(5)
    db = sqlite3.connect(tmp / "l.db")
    try:
        return db.execute("SELECT alias, status, error_kind FROM requests").fetchall()
    finally:
        db.close()


def test_a_large_body_is_parsed_in_a_child_and_a_small_one_inline(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    with TestClient(_app(emulator, tmp_path, offload_body_bytes=2048)) as client:
        c = _warmed(client)
        small = c.post("/v1/chat/completions", content=_body("merhaba"), headers=JSON)
        assert small.status_code == 200
        assert _jobs(c) == 0
        large = c.post("/v1/chat/completions", content=_body("kargo ne zaman " * 500), headers=JSON)
        assert large.status_code == 200, large.text
        assert large.headers["x-gecit-data-class"] == "public"
        assert _jobs(c) == 1  # the parse; its text is short enough to classify inline


@pytest.mark.parametrize(
    ("body", "settings"),
    [
        (_body("kargo " * 1000), {"max_request_chars": 1000}),  # too long once parsed
        (b'{"model":"chat","messages":[{"role":"user","content":' + b'"x' * 3000, {}),  # bad JSON
        (_body("kargo " * 1000, model=7), {}),  # type: ignore[arg-type]  # a field of the wrong type
    ],
)
def test_a_large_refusal_is_the_same_as_inline_with_its_ledger_row(
    emulator: EmulatorServer, tmp_path: Path, body: bytes, settings: dict[str, Any]
) -> None:
    answers = []
    for offload_bytes, sub in ((1024, "child"), (1 << 30, "inline")):
        tmp = tmp_path / sub
        tmp.mkdir()
        app = _app(emulator, tmp, offload_body_bytes=offload_bytes, **settings)
        with TestClient(app) as client:
            c = _warmed(client)
            r = c.post("/v1/chat/completions", content=body, headers=JSON)
            answers.append((r.status_code, r.json(), _jobs(c), c.portal.call(_rows, app, tmp)))
    (child_status, child_json, child_jobs, child_rows), (status, inline_json, _, rows) = answers
    assert child_status == status == 400
    assert child_json == inline_json
    assert child_jobs == 1
    assert child_rows == rows and len(rows) == 1


def test_a_long_request_is_classified_in_a_child(emulator: EmulatorServer, tmp_path: Path) -> None:
    text = "kargo ne zaman gelir " * 4000 + " yazın: ali.veli@ornek.com.tr"  # > 64 KiB of text
    with TestClient(_app(emulator, tmp_path)) as client:  # the default thresholds
        c = _warmed(client)
        r = c.post("/v1/chat/completions", content=_body(text), headers=JSON)
        assert r.status_code == 200, r.text
        assert r.headers["x-gecit-data-class"] == "personal"  # the e-mail at its end was read
        assert _jobs(c) == 1  # the classification (the 84 KB body is parsed inline)
