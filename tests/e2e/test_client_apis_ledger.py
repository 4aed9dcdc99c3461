"""The ledger counts the client APIs beside chat exactly like chat: over chat completions (one
choice and `n`), Responses, Anthropic Messages and legacy completions (whole and streamed, with
a tool call), one row per request, its tokens what the emulator served (every choice) and its
cost those tokens at the policy's prices, to the last digit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from gateway.emulators.base import Mode
from gateway.usage.db import make_engine
from tests.e2e.client_gateway import PRICE_IN, PRICE_OUT, Gateway, running_gateway

TOOL = {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}
USER = [{"role": "user", "content": "Türkiye'nin başkenti neresi?"}]


def _requests() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for stream in (False, True):
        out += [
            ("/v1/chat/completions", {"messages": USER, "stream": stream}),
            # n choices: one row, every choice's tokens summed in it
            ("/v1/chat/completions", {"messages": USER, "stream": stream, "n": 3}),
            (
                "/v1/responses",
                {"input": "Başkent neresi?", "instructions": "Kısa yaz.", "stream": stream},
            ),
            (
                "/v1/responses",
                {"input": "Hava?", "stream": stream, "tools": [{"type": "function", **TOOL}]},
            ),
            ("/v1/messages", {"messages": USER, "max_tokens": 30, "stream": stream}),
            (
                "/v1/messages",
                {
                    "messages": USER,
                    "max_tokens": 30,
                    "stream": stream,
                    "tools": [{"name": "get_weather", "input_schema": TOOL["parameters"]}],
                },
            ),
            ("/v1/completions", {"prompt": "Başkent", "stream": stream}),
        ]
    return out


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    with running_gateway(tmp_path_factory.mktemp("ledger")) as g:
        yield g


def _rows(gw: Gateway, ids: list[str]) -> list[Any]:
    """The ledger rows of `ids`, once the recorder has written them all (off the hot path)."""
    engine = make_engine(f"sqlite:///{gw.proc.db}")
    try:
        deadline = time.monotonic() + 30
        while True:
            with engine.connect() as conn:
                rows = conn.execute(
                    text(
                        "select id, prompt_tokens, completion_tokens, cost, estimated, status, "
                        "streamed, alias from requests"
                    )
                ).all()
            mine = [r for r in rows if r[0] in ids]
            if len(mine) >= len(ids) or time.monotonic() > deadline:
                return mine
            time.sleep(0.2)
    finally:
        engine.dispose()


def test_ledger_reconciles_all_four_endpoints(gw: Gateway) -> None:
    gw.cloud.state.reset()
    gw.cloud.state.mode = Mode(reply="Ankara Türkiye'nin başkentidir.")
    ids: list[str] = []
    for path, body in _requests():
        r = gw.post(path, {"model": "chat", **body})
        assert r.status_code == 200, (path, r.text)
        assert r.headers["x-gecit-backend"] == "cloud"
        ids.append(r.headers["x-request-id"])
    assert len(set(ids)) == len(ids) == 14

    rows = _rows(gw, ids)
    assert sorted(r[0] for r in rows) == sorted(ids)  # exactly one row per request
    st = gw.cloud.state
    assert sum(r[1] for r in rows) == st.served_prompt_tokens
    assert sum(r[2] for r in rows) == st.served_completion_tokens
    assert st.served_prompt_tokens > 0 and st.served_completion_tokens > 0
    pin, pout = Decimal(PRICE_IN), Decimal(PRICE_OUT)
    for _rid, prompt, completion, cost, estimated, status, _streamed, alias in rows:
        assert (status, estimated, alias) == (200, False, "chat")
        assert Decimal(str(cost)) == (prompt * pin + completion * pout) / Decimal(1_000_000)
    assert sum(1 for r in rows if r[6]) == 7  # the streamed half


def test_refused_bodies_get_their_row_too(gw: Gateway) -> None:
    ids = []
    for path in ("/v1/responses", "/v1/messages", "/v1/completions"):
        r = httpx.post(
            gw.url + path,
            content=b"{not json",
            timeout=30,
            headers={"authorization": f"Bearer {gw.key}"},
        )
        assert r.status_code == 400
        ids.append(r.headers["x-request-id"])
    rows = _rows(gw, ids)
    assert sorted(r[0] for r in rows) == sorted(ids)
    assert {r[5] for r in rows} == {400}
