"""A schema-based fuzz run in CI: schemathesis reads `/openapi.json` from a real `gateway serve`
(in front of `gateway emulate openai`) and sends what it generates from the document, valid
and invalid. No answer may be a server error (5xx) and every status must be one the document
lists for that operation. Bounded: a fixed number of examples per operation and a time
budget, with a fixed seed so a failure replays."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from gateway.emulators.base import free_port
from tests.e2e.gateway_proc import GatewayProcess

pytestmark = pytest.mark.e2e

POLICY = """
version: 1
backends:
  node:
    kind: openai_compat
    zone: on_prem
    base_url: {url}
    model: emulated-model
    timeouts: {{connect_s: 1, first_token_s: 5, total_s: 10}}
aliases:
  chat: {{backends: [node]}}
"""


@pytest.fixture(scope="module")
def emulator_url() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway", "emulate", "openai", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(url + "/_emulator/requests", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proc.poll() is None, "no emulator"
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def gateway(
    emulator_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GatewayProcess]:
    tmp = tmp_path_factory.mktemp("fuzz")
    policy = tmp / "policy.yaml"
    policy.write_text(POLICY.format(url=emulator_url))
    gw = GatewayProcess(
        tmp,
        "--policy",
        str(policy),
        "--no-local-engine",
        env={"GECIT_AUTH_FAILURES_PER_MINUTE": "100000"},
    )
    gw.start()
    try:
        yield gw
    finally:
        gw.stop()


def test_the_document_lists_the_public_routes_and_the_policy_aliases(
    gateway: GatewayProcess,
) -> None:
    doc = httpx.get(gateway.url + "/openapi.json", timeout=5).json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {
        "/v1/chat/completions",
        "/v1/responses",
        "/v1/messages",
        "/v1/messages/count_tokens",
        "/v1/completions",
        "/v1/embeddings",
        "/v1/models",
        "/healthz",
        "/readyz",
    }
    for name in ("ResponsesRequest", "MessagesRequest", "CountTokensRequest", "CompletionRequest"):
        schema = doc["components"]["schemas"][name]
        assert schema["properties"]["model"]["enum"] == ["chat"]
        assert schema.get("additionalProperties") is False  # the strict model's schema
    chat = doc["components"]["schemas"]["ChatRequest"]
    assert chat["properties"]["model"]["enum"] == ["chat"]
    assert {"model", "messages"} <= set(chat["required"])


def test_schemathesis_finds_no_server_error(gateway: GatewayProcess, tmp_path: Path) -> None:
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    assert st is not None, "schemathesis is a dev dependency: pip install -e '.[dev]'"
    report = tmp_path / "report"
    run = subprocess.run(
        [
            st,
            "run",
            gateway.url + "/openapi.json",
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance",
            "--phases",
            "examples,coverage,fuzzing",
            "--max-examples",
            "40",
            "--max-time",
            "60",
            "--seed",
            "20261201",
            "--workers",
            "1",
            "--request-timeout",
            "15",
            "--suppress-health-check",
            "all",
            "--report",
            "ndjson",
            "--report-dir",
            str(report),
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )  # its cache: not the repo
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    statuses = _statuses(report)
    assert statuses, "schemathesis sent nothing"
    assert not [s for s in statuses if s >= 500]
    assert 200 in statuses and 400 in statuses  # it got both through and refused


def _statuses(report: Path) -> list[int]:
    out = []
    for path in report.rglob("*.ndjson"):
        for line in path.read_bytes().splitlines():
            out.extend(int(m) for m in _status_codes(orjson.loads(line)))
    return out


def _status_codes(event: object) -> list[int]:
    """Every `status_code` found anywhere in one report event."""
    found: list[int] = []
    stack = [event]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            code = item.get("status_code")
            if isinstance(code, int):
                found.append(code)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
