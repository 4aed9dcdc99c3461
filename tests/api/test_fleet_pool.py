"""A backend pooling several on-prem nodes (`endpoints`): the gateway picks a node per request
from the engines' own signals and prefix affinity, says which in `x-gecit-node`, and falls back
to another node when the chosen one is down. Nodes are `gateway emulate vllm` servers."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer, free_port
from gateway.emulators.vllm import build_app as vllm_app
from gateway.policy.loader import PolicyError, load_text
from gateway.settings import Settings

SYSTEM = "Sen Anadolu Hastanesi'nin randevu asistanısın. " * 60


def pool_yaml(urls: list[str], base: str | None = None) -> str:
    endpoints = "\n".join(
        f"      - {{name: gpu{i}, base_url: '{u}', engine: vllm}}" for i, u in enumerate(urls)
    )
    return f"""
version: 1
backends:
  gpus:
    kind: openai_compat
    zone: on_prem
    base_url: '{base or urls[0]}'
    model: llama-8b
    timeouts: {{connect_s: 1, first_token_s: 5, total_s: 20}}
    endpoints:
{endpoints}
    fleet: {{scrape_interval_s: 0.2}}
aliases:
  chat:
    backends: [gpus]
"""


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[EmulatorServer]]:
    app = partial(vllm_app, profile="l40s-8b", time_scale=20.0)
    with EmulatorServer(app) as a, EmulatorServer(app) as b, EmulatorServer(app) as c:
        yield [a, b, c]


def _client(urls: list[str], tmp_path: Path) -> TestClient:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False)
    return TestClient(create_app(settings, policy=load_text(pool_yaml(urls))))


def _turn(client: TestClient, messages: list[dict[str, str]]) -> tuple[str, str]:
    r = client.post(
        "/v1/chat/completions", json={"model": "chat", "max_tokens": 8, "messages": messages}
    )
    assert r.status_code == 200, r.text
    return r.headers["x-gecit-node"], r.json()["choices"][0]["message"]["content"]


def _served(node: EmulatorServer) -> int:
    return len(node.state.requests)


def test_a_conversation_stays_on_the_node_holding_its_prefix(
    nodes: list[EmulatorServer], tmp_path: Path
) -> None:
    with _client([n.url for n in nodes], tmp_path) as client:

        def first_turn(k: int) -> tuple[str, list[dict[str, str]]]:
            msgs = [
                {"role": "system", "content": f"Bölüm {k}. {SYSTEM}"},
                {"role": "user", "content": f"Merhaba, {k}. soru."},
            ]
            node, answer = _turn(client, msgs)
            return node, [*msgs, {"role": "assistant", "content": answer}]

        with ThreadPoolExecutor(6) as pool:  # six apps at once: the load bound spreads them
            convs = list(pool.map(first_turn, range(6)))
        for first_node, msgs in convs:
            msgs.append({"role": "user", "content": "Yarın öğleden sonra olur mu?"})
            assert _turn(client, msgs)[0] == first_node
    assert len({node for node, _ in convs}) >= 2  # not one node for everything
    assert sum(_served(n) for n in nodes) == 12


def test_stream_names_the_node_and_it_served(nodes: list[EmulatorServer], tmp_path: Path) -> None:
    before = [_served(n) for n in nodes]
    with (
        _client([n.url for n in nodes], tmp_path) as client,
        client.stream(
            "POST",
            "/v1/chat/completions",
            json={
                "model": "chat",
                "stream": True,
                "max_tokens": 5,
                "messages": [{"role": "user", "content": "Tahlil sonuçlarım çıktı mı?"}],
            },
        ) as r,
    ):
        assert r.status_code == 200
        node = r.headers["x-gecit-node"]
        assert [ln for ln in r.iter_lines() if ln][-1] == "data: [DONE]"
    grew = [i for i, n in enumerate(nodes) if _served(n) > before[i]]
    assert grew == [int(node.removeprefix("gpu"))]


def test_a_dead_node_is_passed_over(nodes: list[EmulatorServer], tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    with _client([dead, nodes[0].url], tmp_path) as client:
        for i in range(4):  # whatever the first choice, every answer comes from the live node
            node, _ = _turn(client, [{"role": "user", "content": f"soru {i}"}])
            assert node == "gpu1"


def test_pool_validation_and_explain(nodes: list[EmulatorServer], tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="base_url must be one of"):
        load_text(pool_yaml([nodes[0].url], base="http://127.0.0.1:1"))
    path = tmp_path / "p.yaml"
    path.write_text(pool_yaml([n.url for n in nodes]), encoding="utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gateway",
            "policy",
            "explain",
            str(path),
            "--model",
            "chat",
            "--text",
            "Randevu almak istiyorum",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)["nodes"]["gpus"]
    assert got["node"] in {"gpu0", "gpu1", "gpu2"} and sorted(got["order"]) == [
        "gpu0",
        "gpu1",
        "gpu2",
    ]
    assert "predicted TTFT" in got["reason"] and "no live engine signals" in got["reason"]
