"""End to end: `gateway serve` on the embedded default policy, with the REAL llama.cpp server
running SmolLM2 as a supervised child. No mock anywhere on the path."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import orjson
import pytest

from tests.e2e.gateway_proc import GatewayProcess

pytestmark = pytest.mark.e2e

PROMPT = "Name three colours. Zq-e2e-secret-4471"
README = Path(__file__).resolve().parents[2] / "README.md"


class Counter:
    chat_requests = 0


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GatewayProcess]:
    g = GatewayProcess(tmp_path_factory.mktemp("gw")).start()
    yield g
    g.stop()


def sdk(gw: GatewayProcess) -> openai.OpenAI:
    return openai.OpenAI(base_url=gw.url + "/v1", api_key="unused", max_retries=0, timeout=120)


def ask(**kw: object) -> dict[str, object]:
    Counter.chat_requests += 1
    base: dict[str, object] = {
        "model": "smollm2",
        "temperature": 0,
        "seed": 7,
        "max_tokens": 24,
        "messages": [{"role": "user", "content": PROMPT}],
    }
    base.update(kw)
    return base


def test_sync_completion(gw: GatewayProcess) -> None:
    r = sdk(gw).chat.completions.create(**ask())  # type: ignore[call-overload]
    choice = r.choices[0]
    assert choice.message.content and choice.message.content.strip()
    assert choice.finish_reason in ("stop", "length")
    assert r.usage is not None and r.usage.prompt_tokens > 0 and r.usage.completion_tokens > 0
    assert r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens


def test_sync_stream_matches_completion_and_reports_usage(gw: GatewayProcess) -> None:
    client = sdk(gw)
    whole = client.chat.completions.create(**ask())  # type: ignore[call-overload]
    stream = client.chat.completions.create(  # type: ignore[call-overload]
        **ask(stream=True, stream_options={"include_usage": True})
    )
    deltas: list[str] = []
    finish = None
    usage = None
    for ev in stream:
        if ev.usage is not None:
            usage = ev.usage
        for ch in ev.choices:
            deltas.append(ch.delta.content or "")
            finish = ch.finish_reason or finish
    assert len([d for d in deltas if d]) > 1, "the answer must be streamed in pieces"
    assert "".join(deltas) == whole.choices[0].message.content
    assert finish == whole.choices[0].finish_reason
    assert usage is not None and usage.completion_tokens > 0 and usage.prompt_tokens > 0


def test_raw_sse_ends_with_done(gw: GatewayProcess) -> None:
    with httpx.stream(
        "POST", gw.url + "/v1/chat/completions", timeout=120, json=ask(stream=True)
    ) as r:
        assert r.status_code == 200
        lines = [ln for ln in r.iter_lines() if ln]
    assert lines[-1] == "data: [DONE]"
    text = "".join(
        orjson.loads(ln[6:])["choices"][0]["delta"].get("content", "") for ln in lines[:-1]
    )
    assert text.strip()


def test_async_sdk_stream_and_not(gw: GatewayProcess) -> None:
    async def run() -> tuple[str, str]:
        client = openai.AsyncOpenAI(
            base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=120
        )
        whole = await client.chat.completions.create(**ask())  # type: ignore[call-overload]
        parts = []
        async for ev in await client.chat.completions.create(  # type: ignore[call-overload]
            **ask(stream=True)
        ):
            parts.extend(ch.delta.content or "" for ch in ev.choices)
        await client.close()
        return whole.choices[0].message.content or "", "".join(parts)

    whole, streamed = asyncio.run(run())
    assert whole.strip() and streamed == whole


def test_readme_curl_works_as_printed(gw: GatewayProcess) -> None:
    text = README.read_text()
    block = text.split("<!-- readme-curl -->", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert "127.0.0.1:8080" in block
    cmd = block.replace("127.0.0.1:8080", f"127.0.0.1:{gw.port}")
    Counter.chat_requests += 1
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=120, check=True)
    body = orjson.loads(out.stdout)
    assert body["object"] == "chat.completion"
    assert body["choices"][0]["message"]["content"].strip()
    assert body["usage"]["completion_tokens"] > 0


def test_killed_engine_gives_503_then_supervisor_restarts_it(gw: GatewayProcess) -> None:
    engines = [p for p in gw.children() if b"llama_cpp.server" in _cmdline(p)]
    assert len(engines) == 1, "the gateway must run exactly one llama.cpp child"
    os.kill(engines[0], signal.SIGKILL)
    deadline = time.monotonic() + 10
    ready = None
    while time.monotonic() < deadline:
        ready = httpx.get(gw.url + "/readyz", timeout=5)
        if ready.status_code == 503:
            break
        time.sleep(0.05)
    assert ready is not None and ready.status_code == 503
    aliases = ready.json()["aliases"]
    assert aliases["smollm2"] == [] and all(v == [] for v in aliases.values())
    r = httpx.post(gw.url + "/v1/chat/completions", json=ask(), timeout=30)
    assert r.status_code == 503, r.text
    err = r.json()["error"]
    assert set(err) == {"message", "type", "param", "code"}
    assert "local" in err["message"]
    gw.wait_ready(120)
    new = [p for p in gw.children() if b"llama_cpp.server" in _cmdline(p)]
    assert len(new) == 1 and new[0] != engines[0]
    ok = sdk(gw).chat.completions.create(**ask())  # type: ignore[call-overload]
    assert ok.choices[0].message.content


def test_ledger_has_one_row_per_request_and_no_text(gw: GatewayProcess) -> None:
    expected = Counter.chat_requests
    deadline = time.monotonic() + 10
    rows: list[tuple[object, ...]] = []
    while time.monotonic() < deadline:
        con = sqlite3.connect(gw.db)
        rows = con.execute(
            "select id, alias, backend, status, prompt_tokens, completion_tokens, "
            "estimated, streamed, latency_ms, ttft_ms from requests"
        ).fetchall()
        con.close()
        if len(rows) >= expected:
            break
        time.sleep(0.2)
    assert len(rows) == expected, (len(rows), expected)
    assert len({r[0] for r in rows}) == expected
    ok = [r for r in rows if r[3] == 200]
    assert all(r[1] == "smollm2" and r[2] == "local" for r in ok)
    assert all(int(r[4]) > 0 and int(r[5]) > 0 for r in ok)  # type: ignore[call-overload]
    assert any(r[7] for r in ok) and any(r[6] for r in ok if r[7]), (
        "llama.cpp streams omit usage: those rows are counted by the gateway and marked estimated"
    )
    assert all(r[9] is not None for r in ok if r[7])
    failed = [r for r in rows if r[3] != 200]
    assert all(r[3] == 503 for r in failed)
    raw = b"".join(p.read_bytes() for p in gw.db.parent.glob(gw.db.name + "*"))
    assert b"Zq-e2e-secret-4471" not in raw


def test_sigterm_stops_the_engine_child_too(gw: GatewayProcess) -> None:
    children = gw.children()
    assert children
    assert gw.stop(signal.SIGTERM) is not None
    time.sleep(0.5)
    alive = [
        p
        for p in children
        if Path(f"/proc/{p}").exists()
        and not re.search(rb"\(.*\) Z", Path(f"/proc/{p}/stat").read_bytes())
    ]
    assert alive == [], "no orphan engine process after the gateway stops"


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
