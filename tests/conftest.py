"""Shared fixtures: emulators on loopback, an in-process gateway, a temporary ledger."""

from __future__ import annotations

import os

# Tests talk to 127.0.0.1 only. The AWS and Google credential chains would otherwise probe the
# cloud metadata address (169.254.169.254) when no credentials are configured; switch those
# probes off for this process and every gateway subprocess it starts (they inherit the env).
os.environ["AWS_EC2_METADATA_DISABLED"] = "true"
os.environ["NO_GCE_CHECK"] = "true"

from collections.abc import Iterator
from pathlib import Path

import pytest

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app


@pytest.fixture(scope="session", autouse=True)
def judge_loaded() -> None:
    """The language-model judge is on by default and, when no start-up warmed it, loads in
    the background on first need, the context model deciding meanwhile: a test's answer would
    depend on how far loading had got. Loaded once here (~2-4 s), every in-process classifier
    with the default judge settings answers as the gateway does after its start-up; without
    the `local` extra the context model decides, as it would in the gateway."""
    from gateway.sensitivity.config import Judge
    from gateway.sensitivity.judge import shared_judge

    shared_judge(Judge()).load()


@pytest.fixture
def openai_emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as srv:
        yield srv


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.db'}"
