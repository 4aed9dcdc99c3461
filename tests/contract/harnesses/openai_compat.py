from __future__ import annotations

from gateway.core.types import ChatRequest
from gateway.emulators.base import Logged
from gateway.emulators.openai import build_app
from gateway.providers.openai_compat import OpenAICompatProvider
from tests.contract.harness import HarnessSpec


def _make(url: str) -> OpenAICompatProvider:
    return OpenAICompatProvider("openai_compat", url, "emulated-model", api_key="test-key")


def _check(sent: Logged, request: ChatRequest) -> None:
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer test-key"
    body = sent.json()
    assert body["model"] == "emulated-model"
    assert body["messages"][0]["content"] == request.messages[0].content
    if request.temperature is not None:
        assert body["temperature"] == request.temperature
    if request.token_limit is not None:
        assert body["max_tokens"] == request.token_limit
    if request.stop:
        assert body["stop"] == request.stop
    assert "metadata" not in body and "user" not in body


HARNESS = HarnessSpec(
    name="openai_compat", app_factory=build_app, make_provider=_make, tools=True, check_sent=_check
)
