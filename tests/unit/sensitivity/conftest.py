"""Fixtures shared by the sensitivity tests."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig


@pytest.fixture(scope="session")
def clf() -> Classifier:
    """The context model alone, without the language-model judge: what the rules and the
    model's training decide. No result cache, so every test classifies afresh. A test module
    that needs the judge defines its own `clf`."""
    return Classifier(SensitivityConfig(judge={"enabled": False}), cache_entries=0)  # type: ignore[arg-type]
