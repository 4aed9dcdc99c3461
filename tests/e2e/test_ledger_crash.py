"""Crash safety: kill -9 a real `gateway serve` under load; after a restart every request whose
answer the client fully received is in the ledger exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer, Mode, free_port
from gateway.emulators.openai import build_app as openai_app
from gateway.usage.db import make_engine

pytestmark = pytest.mark.e2e


def _policy(url: str) -> str:
    return f"""
version: 1
backends:
  node:
    kind: openai_compat
    zone: on_prem
    base_url: {url}
    model: emulated-model
    price: {{input_per_mtok: "0.5", output_per_mtok: "1.5"}}
aliases:
  chat: {{backends: [node]}}
"""


class Gateway:
    def __init__(
        self,
        tmp: Path,
        emulator_url: str,
        db_url: str,
        *,
        name: str = "gw",
        policy: str | None = None,
    ) -> None:
        self.port = free_port()
        self.policy = tmp / f"{name}-policy.yaml"
        self.policy.write_text(policy or _policy(emulator_url))
        self.env = {
            **os.environ,
            "GECIT_DATABASE_URL": db_url,
            "GECIT_JOURNAL_PATH": str(tmp / f"{name}-journal"),
            "GECIT_LOG_LEVEL": "warning",
        }
        self.log = tmp / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gateway",
                    "serve",
                    "--no-local-engine",
                    "--policy",
                    str(self.policy),
                    "--port",
                    str(self.port),
                ],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-2000:]
            try:
                if httpx.get(self.url + "/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("gateway did not start: " + self.log.read_text()[-2000:])

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def load(url: str, stop: threading.Event, done: list[str], worker: int) -> None:
    """Send requests until stopped; keep the ids of answers fully received."""
    with httpx.Client(base_url=url, timeout=3) as client:
        i = 0
        while not stop.is_set() and i < 400:
            i += 1
            body = {
                "model": "chat",
                "messages": [{"role": "user", "content": f"soru {i}"}],
                "stream": (i + worker) % 2 == 0,
            }
            try:
                if body["stream"]:
                    with client.stream("POST", "/v1/chat/completions", json=body) as r:
                        lines = [ln for ln in r.iter_lines() if ln]
                        if r.status_code == 200 and lines and lines[-1] == "data: [DONE]":
                            done.append(r.headers["x-request-id"])
                else:
                    r = client.post("/v1/chat/completions", json=body)
                    if r.status_code == 200 and orjson.loads(r.content)["choices"]:
                        done.append(r.headers["x-request-id"])
            except (httpx.HTTPError, orjson.JSONDecodeError):
                continue


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        srv.state.mode = Mode(delay_s=0.005, inter_chunk_s=0.002)
        yield srv


def _ledger_ids(db_url: str) -> list[str]:
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            return [r[0] for r in conn.execute(text("select id from requests"))]
    finally:
        engine.dispose()


def test_kill9_under_load_loses_and_duplicates_nothing(
    emulator: EmulatorServer, tmp_path: Path
) -> None:
    db_url = f"sqlite:///{tmp_path / 'ledger.db'}"
    gw = Gateway(tmp_path, emulator.url, db_url)
    gw.start()
    try:
        stop, done = threading.Event(), []  # type: ignore[var-annotated]
        workers = [threading.Thread(target=load, args=(gw.url, stop, done, w)) for w in range(6)]
        for t in workers:
            t.start()
        deadline = time.monotonic() + 30
        while len(done) < 200 and time.monotonic() < deadline:
            time.sleep(0.02)
        gw.kill9()  # mid-load: requests are in flight and entries are only in the journal
        stop.set()
        for t in workers:
            t.join(15)
        received = list(done)
        assert len(received) >= 200
        before = set(_ledger_ids(db_url))
        gw.start()  # the same journal directory: replayed at start-up
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ids = _ledger_ids(db_url)
            if set(received) <= set(ids):
                break
            time.sleep(0.2)
        ids = _ledger_ids(db_url)
        missing = set(received) - set(ids)
        assert not missing, f"{len(missing)} answered requests missing from the ledger"
        assert len(ids) == len(set(ids))
        print(
            f"received={len(received)} in db before restart={len(before & set(received))} "
            f"after={len(set(ids) & set(received))}"
        )
    finally:
        gw.stop()
