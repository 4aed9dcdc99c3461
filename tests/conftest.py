"""Shared fixtures: emulators on loopback, an in-process gateway, a temporary ledger."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app


@pytest.fixture
def openai_emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        yield srv


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.db'}"
