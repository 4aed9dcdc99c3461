"""Chat `n` on both edges (the lean edge and FastAPI's route): `n` one-choice calls under the
request's one routing decision. Personal data bound for the cloud is redacted in every call and
each choice's answer is restored on its own (whole and streamed, the emulator echoing the
placeholders in small pieces); the budget reservation is sized for the `n` calls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings
from tests.e2e.client_gateway import policy_yaml

TCKN = "28473615040"  # checksum-valid
PERSONAL = f"Müşterimiz Ayşe Yılmaz, T.C. kimlik no {TCKN}, iade istiyor."


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, EmulatorServer]]:
    with EmulatorServer(openai_app) as emu:
        settings = Settings(
            database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False, max_choices=3
        )
        app = create_app(settings, policy=load_text(policy_yaml(emu.url)))
        with TestClient(app) as c:
            emu.state.mode = Mode(echo=True, echo_piece=3)
            yield c, emu


def _body(**kw: Any) -> dict[str, Any]:
    return {"model": "chat", "messages": [{"role": "user", "content": PERSONAL}], **kw}


def _streamed(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for line in text.splitlines():
        if not line.startswith("data: {"):
            continue
        for c in orjson.loads(line[6:])["choices"]:
            out[c["index"]] = out.get(c["index"], "") + (c["delta"].get("content") or "")
    return out


@pytest.mark.parametrize("edge", [True, False])
def test_each_choice_is_redacted_out_and_restored_back(
    served: tuple[TestClient, EmulatorServer], edge: bool
) -> None:
    client, emu = served
    if not edge:
        client.app.edge = None  # type: ignore[attr-defined]  # FastAPI's route
    r = client.post("/v1/chat/completions", json=_body(n=3))
    assert r.status_code == 200, r.text
    choices = r.json()["choices"]
    assert [c["index"] for c in choices] == [0, 1, 2]
    assert all(c["message"]["content"] == PERSONAL for c in choices)
    r = client.post("/v1/chat/completions", json=_body(n=2, stream=True))
    assert r.status_code == 200
    assert _streamed(r.text) == {0: PERSONAL, 1: PERSONAL}
    sent = [q.body.decode() for q in emu.state.requests]
    assert len(sent) == 5  # one call per choice
    assert all(TCKN not in b and '"n"' not in b for b in sent)


@pytest.mark.parametrize("edge", [True, False])
def test_more_than_the_maximum_is_a_400_naming_n(
    served: tuple[TestClient, EmulatorServer], edge: bool
) -> None:
    client, emu = served
    if not edge:
        client.app.edge = None  # type: ignore[attr-defined]
    r = client.post("/v1/chat/completions", json=_body(n=4))
    assert r.status_code == 400
    err = r.json()["error"]
    assert (err["param"], err["code"]) == ("n", "too_many_choices")
    assert emu.state.requests == []


def test_the_budget_estimate_covers_every_choice(served: tuple[TestClient, EmulatorServer]) -> None:
    client, _ = served
    gate = client.app.state.runtime.budgets
    one = ChatRequest.model_validate(_body(max_tokens=100))
    three = ChatRequest.model_validate(_body(max_tokens=100, n=3))
    single = gate.estimate_usd(one, ["cloud"])
    assert single > 0 and gate.estimate_usd(three, ["cloud"]) == 3 * single
