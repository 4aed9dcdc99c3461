"""litellm against the OpenAI emulator (`openai/` provider prefix). Runs when litellm is
installed (the optional `litellm` extra); skipped otherwise, without importing it here."""

from __future__ import annotations

import importlib.util

from gateway.core.types import ChatRequest
from gateway.emulators.base import Logged
from gateway.emulators.openai import build_app
from gateway.providers.litellm import LiteLLMProvider
from tests.contract.harness import HarnessSpec


def _make(url: str) -> LiteLLMProvider:
    return LiteLLMProvider(
        "litellm", "openai/emulated-model", api_base=url + "/v1", api_key="test-key"
    )


def _check(sent: Logged, request: ChatRequest) -> None:
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer test-key"
    body = sent.json()
    assert body["model"] == "emulated-model"
    assert body["messages"][0]["content"] == request.messages[0].content
    if request.temperature is not None:
        assert body["temperature"] == request.temperature
    if request.top_p is not None:
        assert body["top_p"] == request.top_p
    if request.token_limit is not None:
        assert body["max_tokens"] == request.token_limit
    if request.stop:
        assert body["stop"] == request.stop
    assert "metadata" not in body and "num_retries" not in body and "api_base" not in body


_MISSING = importlib.util.find_spec("litellm") is None

HARNESS = HarnessSpec(
    name="litellm",
    app_factory=build_app,
    make_provider=_make,
    tools=True,
    check_sent=_check,
    skip_reason="litellm is not installed (optional extra)" if _MISSING else None,
)
