"""Vertex AI: google-genai (vertexai=True, async client) against gateway.emulators.vertex."""

from __future__ import annotations

from google.oauth2.credentials import Credentials

from gateway.core.types import ChatRequest
from gateway.emulators.base import Logged
from gateway.emulators.vertex import build_app
from gateway.providers.vertex import VertexProvider
from tests.contract.harness import HarnessSpec

PROJECT = "gecit-test"
LOCATION = "europe-west3"
MODEL = "gemini-2.5-flash"
TOKEN = "test-token"


def _make(url: str) -> VertexProvider:
    return VertexProvider(
        "vertex",
        project=PROJECT,
        location=LOCATION,
        model=MODEL,
        credentials=Credentials(token=TOKEN),
        base_url=url,
    )


def _check(sent: Logged, request: ChatRequest) -> None:
    action = "streamGenerateContent" if request.stream else "generateContent"
    assert sent.path.endswith(
        f"/projects/{PROJECT}/locations/{LOCATION}/publishers/google/models/{MODEL}:{action}"
    ), sent.path
    if request.stream:
        assert "alt=sse" in sent.query
    assert sent.headers["authorization"] == f"Bearer {TOKEN}"
    body = sent.json()
    system = [m.text() for m in request.messages if m.role in ("system", "developer")]
    assert body["systemInstruction"]["parts"] == [{"text": "\n\n".join(system)}]
    assert all(c["role"] in ("user", "model") for c in body["contents"])
    gen = body.get("generationConfig", {})
    assert gen.get("temperature") == request.temperature
    assert gen.get("topP") == request.top_p
    assert gen.get("maxOutputTokens") == request.token_limit
    assert gen.get("stopSequences") == (request.stop_list or None)
    assert "metadata" not in body and "user" not in body and "model" not in body


HARNESS = HarnessSpec(
    name="vertex", app_factory=build_app, make_provider=_make, tools=True, check_sent=_check
)
