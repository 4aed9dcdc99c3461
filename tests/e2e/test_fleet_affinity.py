"""Prefix affinity on real engines: two bundled llama.cpp servers (SmolLM2, prompt cache on)
behind one pooled alias of a real `gateway serve`. Each conversation's second turn (its system
prompt and first exchange resent, then a new question) goes to the node that served its first
turn, where that prefix is cached; conversations with other system prompts spread over both
nodes. The node is the one the `x-gecit-node` header names."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from gateway.emulators.base import free_port
from gateway.providers.local.engine import engine_installed, find_bundled_model
from tests.e2e.gateway_proc import GatewayProcess

pytestmark = pytest.mark.e2e

SYSTEMS = tuple(
    f"You are the assistant of {team}. "
    + " ".join(f"Rule {i}: answer {team} questions briefly and politely." for i in range(12))
    for team in ("billing", "radiology", "logistics", "payroll", "legal", "support")
)


def _llama_server(port: int, log: Path) -> subprocess.Popen[bytes]:
    argv = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(find_bundled_model()),
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "2048",
        "--model_alias",
        "smollm2",
        "--cache",
        "True",
    ]
    with log.open("wb") as out:
        return subprocess.Popen(
            argv,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
        )


def _wait(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama.cpp server exited:\n{log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{url}/v1/models", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"llama.cpp server at {url} not ready")


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GatewayProcess]:
    if not engine_installed():
        pytest.skip("the bundled llama.cpp engine (llama-cpp-python) is not installed")
    tmp = tmp_path_factory.mktemp("fleet-affinity")
    ports = [free_port(), free_port()]
    procs = [_llama_server(p, tmp / f"node{i}.log") for i, p in enumerate(ports)]
    try:
        for i, (p, proc) in enumerate(zip(ports, procs, strict=True)):
            _wait(f"http://127.0.0.1:{p}", proc, tmp / f"node{i}.log")
        (tmp / "policy.yaml").write_text(f"""
version: 1
backends:
  smol:
    kind: openai_compat
    zone: on_prem
    base_url: "http://127.0.0.1:{ports[0]}/v1"
    model: smollm2
    timeouts: {{connect_s: 2, first_token_s: 60, total_s: 120}}
    endpoints:
      - {{name: a, base_url: "http://127.0.0.1:{ports[0]}/v1", engine: llamacpp,
          kv_capacity_tokens: 2048}}
      - {{name: b, base_url: "http://127.0.0.1:{ports[1]}/v1", engine: llamacpp,
          kv_capacity_tokens: 2048}}
aliases:
  chat: {{backends: [smol]}}
""")
        g = GatewayProcess(tmp, "--policy", str(tmp / "policy.yaml"), "--no-local-engine")
        g.start(ready_timeout=60)
        try:
            yield g
        finally:
            g.stop()
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _turn(http: httpx.Client, messages: list[dict[str, str]]) -> tuple[str, str]:
    resp = http.post(
        "/v1/chat/completions",
        json={"model": "chat", "max_tokens": 8, "temperature": 0, "messages": messages},
    )
    assert resp.status_code == 200, resp.text
    return resp.headers["x-gecit-node"], resp.json()["choices"][0]["message"]["content"] or ""


def test_a_conversations_second_turn_goes_to_the_node_that_served_its_first(
    gateway: GatewayProcess,
) -> None:
    first_nodes: dict[str, str] = {}
    with httpx.Client(base_url=gateway.url, timeout=120) as http:
        for system in SYSTEMS:
            convo = [
                {"role": "system", "content": system},
                {"role": "user", "content": "What do you help with?"},
            ]
            node1, answer = _turn(http, convo)
            convo += [
                {"role": "assistant", "content": answer},
                {"role": "user", "content": "And who do I ask otherwise?"},
            ]
            node2, _ = _turn(http, convo)
            assert node2 == node1, f"turn 2 of the {system[:30]!r} conversation moved"
            first_nodes[system] = node1
    # not one node taking everything: the system prompts' homes are spread over both
    assert set(first_nodes.values()) == {"a", "b"}
