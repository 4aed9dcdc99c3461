"""On-prem cost in the ledger: a node's hourly cost is shared by the requests it serves at once,
so N concurrent streams cost about 1/N per token of one stream alone (never derived from one
request's own tokens/s)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

POLICY = """
version: 1
backends:
  gpu:
    kind: openai_compat
    zone: on_prem
    base_url: {url}
    model: emulated-model
    hourly_cost_usd: "36"
aliases:
  chat: {{backends: [gpu]}}
"""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    with EmulatorServer(openai_app) as node:
        node.state.mode = Mode(inter_chunk_s=0.08)  # ~1 s per answer
        settings = Settings(database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False)
        app = create_app(settings, policy=load_text(POLICY.format(url=node.url)))
        with TestClient(app) as c:
            yield c, tmp_path / "l.db"


def _stream(c: TestClient, i: int) -> None:
    body = {"model": "chat", "stream": True, "messages": [{"role": "user", "content": f"soru {i}"}]}
    with c.stream("POST", "/v1/chat/completions", json=body) as r:
        assert r.status_code == 200
        list(r.iter_lines())


def _costs_per_token(c: TestClient, db: Path) -> list[Decimal]:
    async def drain() -> None:
        await c.app.state.runtime.recorder.drain(5)  # type: ignore[attr-defined]

    c.portal.call(drain)  # type: ignore[union-attr]
    con = sqlite3.connect(db)
    rows = con.execute(
        "select cost, completion_tokens, price_source from requests order by created_at"
    ).fetchall()
    con.close()
    assert all(source == "on_prem" for _, _, source in rows)
    return [Decimal(str(cost)) / tokens for cost, tokens, _ in rows]


def test_concurrent_streams_share_the_node_hour(client: tuple[TestClient, Path]) -> None:
    c, db = client
    _stream(c, 0)
    alone = _costs_per_token(c, db)[0]
    assert alone > 0
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda i: _stream(c, i), range(1, 5)))
    shared = _costs_per_token(c, db)[1:]
    assert len(shared) == 4
    ratio = sum(shared) / len(shared) / alone
    assert Decimal("0.15") < ratio < Decimal("0.40"), ratio  # ~1/4
