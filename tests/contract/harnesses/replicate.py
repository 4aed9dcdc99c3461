from __future__ import annotations

from gateway.core.types import ChatRequest
from gateway.emulators.base import Logged
from gateway.emulators.replicate import build_app
from gateway.providers.replicate import ReplicateProvider
from tests.contract.harness import HarnessSpec

TOKEN = "r8_contract_token"


def _make(url: str) -> ReplicateProvider:
    return ReplicateProvider(
        "replicate", "meta/meta-llama-3-8b-instruct", TOKEN, base_url=url, poll_interval=0.05
    )


def _check(sent: Logged, request: ChatRequest) -> None:
    assert sent.method == "POST"
    assert sent.path == "/v1/models/meta/meta-llama-3-8b-instruct/predictions"
    assert sent.headers["authorization"] == f"Bearer {TOKEN}"
    body = sent.json()
    assert body.get("stream", False) is bool(request.stream)
    if not request.stream:
        assert sent.headers.get("prefer", "").startswith("wait")
    inp = body["input"]
    assert inp["system_prompt"] == request.messages[0].content
    assert inp["prompt"] == request.messages[-1].content
    if request.temperature is not None:
        assert inp["temperature"] == request.temperature
    if request.top_p is not None:
        assert inp["top_p"] == request.top_p
    if request.token_limit is not None:
        assert inp["max_tokens"] == request.token_limit
    if request.stop:
        assert inp["stop_sequences"] == ",".join(request.stop_list)


HARNESS = HarnessSpec(
    name="replicate",
    app_factory=build_app,
    make_provider=_make,
    tools=False,
    check_sent=_check,
    stream_usage_exact=True,
)
