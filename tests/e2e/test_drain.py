"""Graceful drain: a SIGTERM during a stream lets the stream finish within the grace
period, /readyz answers 503 from the moment draining starts, the process exits 0 and the
request's ledger row is written."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.usage.db import make_engine
from tests.e2e.test_ledger_crash import Gateway

pytestmark = pytest.mark.e2e

WORDS = [f"w{i}" for i in range(20)]


@pytest.fixture
def slow_emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        srv.state.mode = Mode(reply=" ".join(WORDS), inter_chunk_s=0.1)  # ~2 s stream
        yield srv


def test_sigterm_lets_the_stream_finish_and_the_row_is_written(
    slow_emulator: EmulatorServer, tmp_path: Path
) -> None:
    db_url = f"sqlite:///{tmp_path / 'ledger.db'}"
    gw = Gateway(tmp_path, slow_emulator.url, db_url)
    gw.env["GECIT_DRAIN_SECONDS"] = "20"
    gw.env["GECIT_LOG_LEVEL"] = "info"
    gw.start()
    assert gw.proc is not None
    body = {"model": "chat", "stream": True, "messages": [{"role": "user", "content": "anlat"}]}
    pieces: list[str] = []
    lines: list[str] = []
    readyz_during: int | None = None
    try:
        with (
            httpx.Client(timeout=30) as client,
            client.stream("POST", gw.url + "/v1/chat/completions", json=body) as r,
        ):
            assert r.status_code == 200
            request_id = r.headers["x-request-id"]
            for line in r.iter_lines():
                if not line:
                    continue
                lines.append(line)
                if line.startswith("data: {"):
                    delta = orjson.loads(line[6:])["choices"]
                    if delta and delta[0]["delta"].get("content"):
                        pieces.append(delta[0]["delta"]["content"])
                if len(pieces) == 3 and readyz_during is None:
                    gw.proc.send_signal(signal.SIGTERM)
                    time.sleep(0.3)  # the signal lands and the next tick announces the drain
                    readyz_during = httpx.get(gw.url + "/readyz", timeout=2).status_code
                    assert gw.proc.poll() is None
        ended = time.monotonic()
        code = gw.proc.wait(20)
        exit_after = time.monotonic() - ended
    finally:
        gw.stop()
    assert readyz_during == 503
    assert lines[-1] == "data: [DONE]"
    assert "".join(pieces).split() == WORDS  # every chunk, in order
    assert code == 0
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                text("select status, completion_tokens from requests where id = :id"),
                {"id": request_id},
            ).one()
    finally:
        engine.dispose()
    assert row[0] == 200 and row[1] == len(WORDS)
    log = gw.log.read_text()
    assert "SIGTERM: draining" in log and "grace spent" not in log
    assert exit_after < 15, exit_after  # well inside the 20 s grace once nothing is in flight
