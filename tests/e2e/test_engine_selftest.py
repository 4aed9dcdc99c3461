"""`gateway serve` with a bundled engine that cannot compute (it answers `/v1/models` and dies
of SIGSEGV on its first token, as a llama.cpp built for another CPU does): the start-up
self-test says so in one log line, `/readyz` is 503 naming the engine, chat answers 503, and
the supervisor restarts the engine with a doubling delay instead of every 0.5 s forever.

The engine is a real subprocess (tests/e2e/fake_engine, first on the child's PYTHONPATH as
`llama_cpp`); nothing of the gateway is replaced."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.gateway_proc import GatewayProcess

pytestmark = pytest.mark.e2e

FAKE = Path(__file__).resolve().parent / "fake_engine"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def crashing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GatewayProcess]:
    tmp = tmp_path_factory.mktemp("crashing")
    model = tmp / "model.gguf"
    model.write_bytes(b"GGUF")
    path = os.pathsep.join([str(FAKE), str(ROOT), os.environ.get("PYTHONPATH", "")])
    g = GatewayProcess(
        tmp,
        "--local-model-path",
        str(model),
        "--local-restart-max-s",
        "4",
        env={"PYTHONPATH": path},
    )
    g.start(wait=False)
    g.wait_serving(60)
    yield g
    g.stop()


def _log(g: GatewayProcess) -> str:
    return g.log.read_text(errors="replace")


def test_self_test_failure_is_one_clear_log_line(crashing: GatewayProcess) -> None:
    lines = [ln for ln in _log(crashing).splitlines() if "self-test failed" in ln]
    assert lines, _log(crashing)[-2000:]
    assert "SIGSEGV" in lines[0] and "/readyz" in lines[0] and "'local'" in lines[0]
    assert "Traceback" not in _log(crashing)


def test_readyz_is_503_and_names_the_engine(crashing: GatewayProcess) -> None:
    r = httpx.get(crashing.url + "/readyz", timeout=5)
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["status"] == "not_ready"
    assert body["local_engine"].startswith("down: ") and "SIGSEGV" in body["local_engine"]


def test_chat_is_503_naming_the_backend(crashing: GatewayProcess) -> None:
    r = httpx.post(
        crashing.url + "/v1/chat/completions",
        timeout=30,
        json={"model": "smollm2", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 4},
    )
    assert r.status_code == 503, r.text
    err = r.json()["error"]
    assert set(err) == {"message", "type", "param", "code"} and "local" in err["message"]


def test_crash_loop_backs_off_and_says_so(crashing: GatewayProcess) -> None:
    delays: list[float] = []
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        delays = [float(d) for d in re.findall(r"restarting in ([0-9.]+)s", _log(crashing))]
        if len(delays) >= 5:
            break
        time.sleep(0.5)
    assert delays[:5] == [0.5, 1.0, 2.0, 4.0, 4.0], delays  # doubling up to the cap (4 s here)
    assert "backing off" in _log(crashing)
    assert httpx.get(crashing.url + "/readyz", timeout=5).status_code == 503
