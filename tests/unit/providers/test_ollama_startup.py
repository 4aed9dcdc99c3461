"""`gateway serve` start-up logs an Ollama model that is not pulled (create_app's lifespan)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from gateway.app import Seams, create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.ollama import build_app
from gateway.policy.loader import load_text
from gateway.settings import Settings

POLICY = """
version: 1
backends:
  gpu:
    kind: ollama
    host: {url}
    model: {model}
aliases:
  chat:
    backends: [gpu]
"""


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.mark.parametrize(("model", "logged"), [("qwen2.5:7b", True), ("emulated-model", False)])
async def test_start_up_logs_a_model_that_is_not_pulled(
    server: EmulatorServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    model: str,
    logged: bool,
) -> None:
    policy = load_text(POLICY.format(url=server.url, model=model))
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'u.db'}", local_engine=False)
    app = create_app(settings, Seams(env={}), policy=policy)
    with caplog.at_level(logging.WARNING, logger="gateway"):
        async with app.router.lifespan_context(app):
            ready, detail = await app.state.runtime.readiness()
    problems = [r.getMessage() for r in caplog.records if "ollama pull" in r.getMessage()]
    assert bool(problems) is logged
    assert ready is not logged and detail == {"chat": [] if logged else ["gpu"]}
    if logged:
        assert "gpu" in problems[0] and model in problems[0]
