"""`/v1/embeddings` through the gateway: the real openai SDK against an in-process app served by a
real uvicorn, whose backends are the OpenAI emulator (a cloud-zone backend) and the Ollama
emulator (on-prem). Routed like chat: public text may go to the cloud, special-category text
never does; fallback before answering; a ledger row per request."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.ollama import build_app as ollama_app
from gateway.emulators.openai import build_app as openai_app
from gateway.settings import Settings
from tests.e2e.helpers import ServedGateway, new_key

PUBLIC = "Bugün İstanbul'da hava nasıl?"
SPECIAL = "Hastamız Ayşe Yılmaz'a HIV tanısı kondu"


def emulated_vector(text: str) -> list[float]:
    """What both emulators answer for one input."""
    return [float(len(text) % 7), 0.5, -0.25]


def policy_yaml(cloud: str, node: str) -> str:
    return f"""
version: 1
backends:
  cloud:
    kind: openai_compat
    zone: cloud
    country: DE
    base_url: {cloud}
    model: emulated-model
    price: {{input_per_mtok: "0.02", output_per_mtok: "0"}}
    timeouts: {{connect_s: 1, first_token_s: 2, total_s: 3}}
  node:
    kind: ollama
    zone: on_prem
    host: {node}
    model: emulated-model
    timeouts: {{connect_s: 1, first_token_s: 2, total_s: 3}}
aliases:
  embed: {{backends: [cloud, node]}}
rules:
  - name: public-ordered
    match: {{data_classes: [public]}}
    objective: ordered
"""


@pytest.fixture(scope="module")
def emulators() -> Iterator[dict[str, EmulatorServer]]:
    with EmulatorServer(openai_app) as cloud, EmulatorServer(ollama_app) as node:
        yield {"cloud": cloud, "node": node}


@pytest.fixture(scope="module")
def gateway(
    emulators: dict[str, EmulatorServer], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedGateway]:
    tmp = tmp_path_factory.mktemp("embeddings")
    url = f"sqlite:///{tmp / 'ledger.db'}"
    key = new_key(url, "acme", "search")
    settings = Settings(
        database_url=url,
        local_engine=False,
        require_keys=True,
        journal_path=str(tmp / "journal"),
        probe_interval_s=0,
        policy_watch_s=0,
    )
    policy = policy_yaml(emulators["cloud"].url, emulators["node"].url)
    with ServedGateway(settings, policy, key=key, db=tmp / "ledger.db", graceful_s=1) as gw:
        yield gw


@pytest.fixture
def client(gateway: ServedGateway, emulators: dict[str, EmulatorServer]) -> openai.OpenAI:
    for e in emulators.values():
        e.state.reset()
    return openai.OpenAI(
        base_url=gateway.url + "/v1", api_key=gateway.key, max_retries=0, timeout=10
    )


def embedding_calls(srv: EmulatorServer) -> list[Any]:
    return [r for r in srv.state.requests if r.path in ("/v1/embeddings", "/api/embed")]


def test_public_input_is_served_by_the_first_allowed_backend(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    raw = client.embeddings.with_raw_response.create(model="embed", input=PUBLIC)
    assert raw.headers["x-gecit-backend"] == "cloud"
    assert raw.headers["x-gecit-data-class"] == "public"
    assert raw.headers["x-gecit-rule"] == "public-ordered"
    res = raw.parse()  # the SDK asked for base64 (its default) and decoded it
    assert res.object == "list" and res.model == "embed"
    assert [d.index for d in res.data] == [0]
    assert res.data[0].embedding == emulated_vector(PUBLIC)
    assert res.usage.prompt_tokens == len(PUBLIC.split()) == res.usage.total_tokens
    sent = embedding_calls(emulators["cloud"])
    assert len(sent) == 1 and sent[0].json()["input"] == [PUBLIC]
    assert embedding_calls(emulators["node"]) == []


def test_several_inputs_in_order_as_float_lists(client: openai.OpenAI) -> None:
    texts = ["Merhaba dünya", "Kargo ne zaman gelir?", "Fiyat listesi"]
    res = client.embeddings.create(model="embed", input=texts, encoding_format="float")
    assert [d.index for d in res.data] == [0, 1, 2]
    assert [d.embedding for d in res.data] == [emulated_vector(t) for t in texts]


def test_base64_is_little_endian_float32(gateway: ServedGateway) -> None:
    import base64
    import struct

    import httpx

    r = httpx.post(
        gateway.url + "/v1/embeddings",
        json={"model": "embed", "input": PUBLIC, "encoding_format": "base64"},
        timeout=10,
        headers={"authorization": f"Bearer {gateway.key}"},
    )
    assert r.status_code == 200, r.text
    raw = base64.b64decode(r.json()["data"][0]["embedding"])
    assert list(struct.unpack("<3f", raw)) == emulated_vector(PUBLIC)


def test_special_category_input_never_reaches_the_cloud(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    raw = client.embeddings.with_raw_response.create(model="embed", input=[PUBLIC, SPECIAL])
    assert raw.headers["x-gecit-data-class"] == "special"
    assert raw.headers["x-gecit-backend"] == "node"
    res = raw.parse()
    assert [d.embedding for d in res.data] == [emulated_vector(PUBLIC), emulated_vector(SPECIAL)]
    assert emulators["cloud"].state.requests == []
    assert embedding_calls(emulators["node"])[0].json()["input"] == [PUBLIC, SPECIAL]


def test_special_with_on_prem_down_is_refused_without_any_cloud_call(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    emulators["node"].state.mode = Mode(kind="status", status=503)
    with pytest.raises(openai.APIStatusError) as err:
        client.embeddings.create(model="embed", input=SPECIAL)
    assert err.value.status_code == 503
    body: Any = err.value.body
    assert body["code"] == "no_backend_available" and "special" in body["message"]
    assert "HIV" not in body["message"]
    assert emulators["cloud"].state.requests == []


def test_cloud_failure_falls_back_before_answering(
    client: openai.OpenAI, emulators: dict[str, EmulatorServer]
) -> None:
    emulators["cloud"].state.mode = Mode(kind="status", status=500)
    raw = client.embeddings.with_raw_response.create(model="embed", input=PUBLIC)
    assert raw.headers["x-gecit-backend"] == "node"
    assert raw.headers["x-gecit-attempts"] == "2"
    assert raw.parse().data[0].embedding == emulated_vector(PUBLIC)


@pytest.mark.parametrize(
    ("body", "param", "code"),
    [
        ({"model": "embed", "input": [[1, 2, 3]]}, "input", "unsupported_input"),
        ({"model": "embed", "input": [12, 34]}, "input", "unsupported_input"),
        ({"model": "embed", "input": []}, "input", "invalid_request"),
        ({"model": "embed", "input": ["ok", ""]}, "input", "invalid_request"),
        ({"model": "embed"}, "input", "invalid_request"),
        ({"input": "x"}, "model", "invalid_request"),
        (
            {"model": "embed", "input": "x", "encoding_format": "int8"},
            "encoding_format",
            "invalid_request",
        ),
        ({"model": "embed", "input": "x", "dimensions": 0}, "dimensions", "invalid_request"),
    ],
    ids=[
        "token-arrays",
        "token-array",
        "empty",
        "empty-string",
        "no-input",
        "no-model",
        "format",
        "dimensions",
    ],
)
def test_bad_bodies_are_openai_shaped_400s(
    client: openai.OpenAI,
    emulators: dict[str, EmulatorServer],
    body: dict[str, Any],
    param: str,
    code: str,
) -> None:
    with pytest.raises(openai.BadRequestError) as err:
        client.post("/embeddings", cast_to=object, body=body)
    assert err.value.status_code == 400
    error: Any = err.value.body
    assert error["param"] == param and error["code"] == code
    assert error["type"] == "invalid_request_error" and error["message"]
    assert all(embedding_calls(e) == [] for e in emulators.values())


def test_keys_are_checked_like_chat(
    gateway: ServedGateway, emulators: dict[str, EmulatorServer]
) -> None:
    import httpx

    wrong = openai.OpenAI(base_url=gateway.url + "/v1", api_key="gk_nope_bad", max_retries=0)
    with pytest.raises(openai.AuthenticationError) as err:
        wrong.embeddings.create(model="embed", input=PUBLIC)
    assert err.value.status_code == 401
    missing = httpx.post(gateway.url + "/v1/embeddings", json={"model": "embed", "input": "x"})
    assert missing.status_code == 401
    assert missing.json()["error"]["code"] == "invalid_api_key"
    assert all(embedding_calls(e) == [] for e in emulators.values())


def test_sdk_token_array_input_is_refused(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as err:
        client.embeddings.create(model="embed", input=[[101, 102]])
    assert "token arrays" in str(err.value)


def test_unknown_model_is_404_and_wrong_dimensions_400(client: openai.OpenAI) -> None:
    with pytest.raises(openai.NotFoundError):
        client.embeddings.create(model="nope", input=PUBLIC)
    with pytest.raises(openai.BadRequestError) as err:
        client.embeddings.create(model="embed", input=PUBLIC, dimensions=256)
    assert "3-dimensional" in str(err.value)
    ok = client.embeddings.create(model="embed", input=PUBLIC, dimensions=3)
    assert len(ok.data[0].embedding) == 3


def rows(db: Path, where: str) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(
            "select alias, backend, status, data_class, prompt_tokens, completion_tokens, "
            "attempts, error_kind, trace from requests where " + where
        ).fetchall()
    finally:
        con.close()


def wait_rows(db: Path, where: str, n: int) -> list[tuple[Any, ...]]:
    deadline = time.monotonic() + 10
    while True:
        try:
            got = rows(db, where)
        except sqlite3.OperationalError:  # the table is created at start-up
            got = []
        if len(got) >= n or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def test_each_request_has_a_ledger_row_without_text(
    gateway: ServedGateway, client: openai.OpenAI
) -> None:
    marker = "Tekil-isaret-93kq sipariş özeti"
    client.embeddings.create(model="embed", input=[marker, "ikinci metin"])
    with pytest.raises(openai.BadRequestError):
        client.embeddings.create(model="embed", input=[[1, 2]])
    db = gateway.db
    assert db is not None
    ok = wait_rows(db, "alias = 'embed' and prompt_tokens = 5 and status = 200", 1)
    assert len(ok) == 1, ok
    _alias, backend, _status, data_class, _prompt, completion, attempts, error, trace = ok[0]
    assert (backend, data_class, completion, attempts, error) == ("cloud", "public", 0, 1, None)
    assert rows(db, "alias = 'embed' and prompt_tokens = 5 and tenant = 'acme'")
    assert '"operation": "embeddings"' in trace or '"operation":"embeddings"' in trace
    assert wait_rows(db, "status = 400 and error_kind = 'unsupported_input'", 1)
    raw = b"".join(p.read_bytes() for p in db.parent.glob("ledger.db*"))
    assert b"Tekil-isaret-93kq" not in raw
