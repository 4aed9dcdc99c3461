"""Chat `logprobs` / `top_logprobs`: no backend behind the gateway returns token log
probabilities, so asking for them is a 400 naming the option (never a 200 with `null`), on
the lean edge as on FastAPI, and nothing is sent upstream."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gateway.app import create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings
from tests.api.test_chat_api import assert_openai_error, chat_body, policy_yaml


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, EmulatorServer]]:
    with EmulatorServer(openai_app) as emu:
        settings = Settings(database_url=f"sqlite:///{tmp_path / 'l.db'}", local_engine=False)
        app = create_app(settings, policy=load_text(policy_yaml(emu.url)))
        with TestClient(app) as c:
            yield c, emu


@pytest.mark.parametrize("edge", [True, False])
@pytest.mark.parametrize(
    ("options", "param"),
    [
        ({"logprobs": True}, "logprobs"),
        ({"logprobs": True, "top_logprobs": 3}, "logprobs"),
        ({"top_logprobs": 2}, "top_logprobs"),
        ({"logprobs": True, "stream": True}, "logprobs"),
    ],
)
def test_logprobs_are_refused_not_answered_null(
    served: tuple[TestClient, EmulatorServer], edge: bool, options: dict[str, object], param: str
) -> None:
    client, emu = served
    if not edge:
        client.app.edge = None  # type: ignore[attr-defined]  # FastAPI's route
    err = assert_openai_error(
        client.post("/v1/chat/completions", json=chat_body(**options)), 400, param
    )
    assert err["code"] == "unsupported_parameter"
    assert "log probabilities" in str(err["message"])
    assert emu.state.requests == []


def test_logprobs_false_is_served(served: tuple[TestClient, EmulatorServer]) -> None:
    client, emu = served
    r = client.post("/v1/chat/completions", json=chat_body(logprobs=False))
    assert r.status_code == 200 and len(emu.state.requests) == 1
