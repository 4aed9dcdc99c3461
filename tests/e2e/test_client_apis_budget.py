"""Budgets hold on the client APIs beside chat: once a key's monthly budget is spent (through
chat), Responses, Anthropic Messages and legacy completions are refused with 429 in their own
error shapes, and nothing reaches the backend. (Admission weighs each request's estimated cost,
so the refused requests ask for as many output tokens as the chat requests that spent it.)"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.settings import Settings
from tests.e2e.helpers import ServedGateway, budget_policy, cli_budget_key

ASK = [{"role": "user", "content": "Başkent neresi?"}]


@pytest.fixture
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        srv.state.mode = Mode(reply="bir iki üç dört")
        yield srv


def test_a_spent_budget_refuses_every_client_api(emulator: EmulatorServer, tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'ledger.db'}"
    key = cli_budget_key(db_url, Decimal("0.01"))
    settings = Settings(
        database_url=db_url,
        local_engine=False,
        require_keys=True,
        journal_path=str(tmp_path / "journal"),
    )
    with (
        ServedGateway(settings, budget_policy(emulator.url), key=key) as gw,
        httpx.Client(
            base_url=gw.url, timeout=30, headers={"authorization": f"Bearer {key}"}
        ) as client,
    ):
        for _ in range(50):  # spend it through chat (each answer costs about 0.005 USD)
            r = client.post("/v1/chat/completions", json={"model": "chat", "messages": ASK})
            if r.status_code == 429:
                break
            assert r.status_code == 200
        assert r.status_code == 429
        served = len(emulator.state.requests)

        for path, body in (
            ("/v1/responses", {"input": "Başkent?"}),
            ("/v1/completions", {"prompt": "Başkent"}),
        ):
            for stream in (False, True):
                r = client.post(path, json={"model": "chat", "stream": stream, **body})
                assert r.status_code == 429, (path, r.text)
                err = r.json()["error"]
                assert err["type"] == "rate_limit_error" and "budget" in err["message"]
        for stream in (False, True):
            r = client.post(
                "/v1/messages",
                headers={"x-api-key": key},
                json={"model": "chat", "max_tokens": 4096, "stream": stream, "messages": ASK},
            )
            assert r.status_code == 429
            assert r.json()["type"] == "error"
            assert r.json()["error"]["type"] == "rate_limit_error"
            assert "budget" in r.json()["error"]["message"]
        assert len(emulator.state.requests) == served
