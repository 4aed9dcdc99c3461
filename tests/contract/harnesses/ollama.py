from __future__ import annotations

from gateway.core.types import ChatRequest
from gateway.emulators.base import Logged
from gateway.emulators.ollama import build_app
from gateway.providers.ollama import OllamaProvider
from tests.contract.harness import HarnessSpec


def _make(url: str) -> OllamaProvider:
    return OllamaProvider("ollama", url, "emulated-model")


def _check(sent: Logged, request: ChatRequest) -> None:
    assert sent.method == "POST" and sent.path == "/api/chat"
    body = sent.json()
    assert body["model"] == "emulated-model"
    assert body["stream"] is bool(request.stream)
    assert body["messages"][0] == {"role": "system", "content": request.messages[0].content}
    assert body["messages"][-1]["role"] == "user"
    options = body.get("options") or {}
    if request.temperature is not None:
        assert options["temperature"] == request.temperature
    if request.top_p is not None:
        assert options["top_p"] == request.top_p
    if request.token_limit is not None:
        assert options["num_predict"] == request.token_limit
    if request.stop:
        assert options["stop"] == request.stop_list
    assert "max_tokens" not in body and "temperature" not in body


HARNESS = HarnessSpec(
    name="ollama", app_factory=build_app, make_provider=_make, tools=True, check_sent=_check
)
