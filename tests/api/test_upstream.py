"""`gateway serve --upstream URL`: the OpenAI emulator stands in for vLLM / llama.cpp / Ollama."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer, free_port
from gateway.emulators.openai import MODEL
from gateway.policy.loader import PolicyError, load_file, load_text
from gateway.settings import DEFAULT_POLICY, Settings
from gateway.upstream import UpstreamError, derive_policy, fetch_models, models_url


@pytest.fixture
def gateway(openai_emulator: EmulatorServer, tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'l.db'}", upstream=openai_emulator.url)
    with TestClient(create_app(settings)) as c:
        c.db_path = tmp_path / "l.db"  # type: ignore[attr-defined]
        yield c


def test_aliases_are_the_models_the_upstream_lists(gateway: TestClient) -> None:
    rt = gateway.app.state.runtime  # type: ignore[attr-defined]
    backends = rt.policy.policy.backends
    assert "local" not in backends and "upstream" in backends
    assert {n for n, b in backends.items() if b.zone == "on_prem" and b.enabled} == {"upstream"}
    spec = rt.policy.policy.backends["upstream"]
    assert (spec.kind, spec.zone, spec.model) == ("openai_compat", "on_prem", MODEL)
    assert rt.local_engine is None  # the bundled engine is not started
    ids = [m["id"] for m in gateway.get("/v1/models").json()["data"]]
    assert ids == [MODEL, "auto"]  # the listed model, and the default's `auto` (+ clouds)
    assert rt.policy.policy.aliases["auto"].backends[0] == "upstream"
    assert gateway.get("/readyz").status_code == 200


def test_chat_goes_through_every_feature(
    gateway: TestClient, openai_emulator: EmulatorServer
) -> None:
    body = {"model": MODEL, "messages": [{"role": "user", "content": "Merhaba, nasılsın?"}]}
    r = gateway.post("/v1/chat/completions", json=body)
    assert r.status_code == 200, r.text
    assert r.headers["x-gecit-backend"] == "upstream"
    assert r.headers["x-gecit-data-class"] == "public"
    assert r.json()["model"] == MODEL
    sent = [e for e in openai_emulator.state.requests if e.path.endswith("/chat/completions")]
    assert orjson.loads(sent[-1].body)["model"] == MODEL

    special = {
        "model": MODEL,
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [
            {"role": "user", "content": "Ben diyabet hastasıyım, insülin dozumu nasıl olmalı?"}
        ],
    }
    with gateway.stream("POST", "/v1/chat/completions", json=special) as s:
        assert s.status_code == 200
        assert s.headers["x-gecit-data-class"] == "special"  # on-prem: still served
        events = [ln for ln in s.iter_lines() if ln.startswith("data: ")]
    assert events[-1] == "data: [DONE]"
    assert '"usage"' in events[-2]

    async def drain() -> None:
        await gateway.app.state.runtime.recorder.drain(5)  # type: ignore[attr-defined]

    gateway.portal.call(drain)  # type: ignore[union-attr]
    rows = (
        sqlite3.connect(gateway.db_path)
        .execute(  # type: ignore[attr-defined]
            "select backend, data_class from requests order by created_at"
        )
        .fetchall()
    )
    assert rows == [("upstream", "public"), ("upstream", "special")]


def test_derive_keeps_the_policy_and_renames_local() -> None:
    base = load_text("""
version: 1
backends:
  local: {kind: local, timeouts: {connect_s: 1, first_token_s: 3, total_s: 9}}
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: http://127.0.0.1:9/v1
    model: gpt
aliases:
  smollm2: {backends: [local]}
  mixed: {backends: [local, cloud]}
rules:
  - name: on-prem-first
    match: {data_classes: [personal]}
    allow_backends: [local]
""")
    out = derive_policy(base, "http://127.0.0.1:8000/v1", ["llama-3", "qwen/2.5"])
    p = out.policy
    assert set(p.backends) == {"cloud", "upstream", "upstream-2"}
    assert p.backends["upstream-2"].model == "qwen/2.5"
    assert p.backends["upstream"].timeouts.first_token_s == 3
    assert set(p.aliases) == {"mixed", "llama-3", "qwen/2.5"}
    assert p.aliases["mixed"].backends == ["upstream", "cloud"]
    assert p.rules[0].allow_backends == ["upstream", "upstream-2"]
    assert out.sha256 != base.sha256
    assert (
        derive_policy(base, "http://127.0.0.1:8000/v1", ["llama-3", "qwen/2.5"]).sha256
        == out.sha256
    )


def test_derive_from_the_default_policy() -> None:
    base = load_file(DEFAULT_POLICY)
    out = derive_policy(base, "http://127.0.0.1:1", ["m"])
    assert set(out.policy.backends) == set(base.policy.backends) - {"local"} | {"upstream"}
    assert out.policy.aliases["m"].backends == ["upstream"]
    assert "smollm2" not in out.policy.aliases  # it only named the bundled engine
    assert out.policy.rules == base.policy.rules
    assert out.policy.sensitivity == base.policy.sensitivity


def test_reserved_backend_name_is_refused() -> None:
    base = load_text("""
version: 1
backends:
  upstream: {kind: openai_compat, zone: on_prem, base_url: http://127.0.0.1:9, model: x}
aliases:
  a: {backends: [upstream]}
""")
    with pytest.raises(PolicyError, match="reserved"):
        derive_policy(base, "http://127.0.0.1:8000", ["m"])


def test_models_url() -> None:
    assert models_url("http://h:1") == "http://h:1/v1/models"
    assert models_url("http://h:1/v1/") == "http://h:1/v1/models"


async def test_unreachable_or_empty_upstream_fails_with_the_reason() -> None:
    with pytest.raises(UpstreamError, match="did not answer"):
        await fetch_models(f"http://127.0.0.1:{free_port()}", wait_s=0.2)

    def empty(_req: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"object": "list", "data": []})

    with pytest.raises(UpstreamError, match="lists no model"):
        await fetch_models("http://up", transport=httpx.MockTransport(empty), wait_s=0)

    def garbage(_req: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"<html>")

    with pytest.raises(UpstreamError, match="no OpenAI model list"):
        await fetch_models("http://up", transport=httpx.MockTransport(garbage), wait_s=0)
