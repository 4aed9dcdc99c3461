"""Every chat emulator admits a request the same way (logged, its mode taken, the mode's
failure first, then the body's JSON), each answering in its own vendor's shape."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from gateway.emulators import ollama, openai
from gateway.emulators.base import EmulatorState, Mode

APPS: list[tuple[Callable[[EmulatorState], Starlette], str, str]] = [
    (ollama.build_app, "/api/chat", "invalid character in request body"),
    (openai.build_app, "/v1/chat/completions", "bad json"),
]


@pytest.mark.parametrize(("build", "path", "message"), APPS)
def test_bad_json_is_logged_and_answered_in_the_vendors_shape(
    build: Callable[[EmulatorState], Starlette], path: str, message: str
) -> None:
    state = EmulatorState()
    response = TestClient(build(state)).post(path, content=b"{not json")
    assert response.status_code == 400
    assert message in response.text
    assert [entry.body for entry in state.requests] == [b"{not json"]


@pytest.mark.parametrize(("build", "path", "message"), APPS)
def test_the_modes_failure_comes_before_the_body(
    build: Callable[[EmulatorState], Starlette], path: str, message: str
) -> None:
    state = EmulatorState(mode=Mode(kind="status", status=503, times=1))
    client = TestClient(build(state))
    assert client.post(path, content=b"{not json").status_code == 503
    assert client.post(path, content=b"{not json").status_code == 400
    assert len(state.requests) == 2
