"""Bedrock: boto3 `bedrock-runtime` (real SigV4 signing, real event-stream parsing) against the
Bedrock emulator, with static fake credentials from an injected session."""

from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import unquote

import boto3
from botocore.config import Config

from gateway.core.types import ChatRequest
from gateway.emulators.base import Logged
from gateway.emulators.bedrock import build_app
from gateway.providers.bedrock import BedrockProvider
from tests.contract.harness import HarnessSpec

REGION = "eu-central-1"
ACCESS_KEY = "AKIDEXAMPLE"
# an inference-profile ARN: its ':' and '/' must arrive URL-encoded in one path segment
MODEL = ("arn:aws:bedrock:eu-central-1:123456789012:inference-profile/"
         "eu.anthropic.claude-3-haiku-20240307-v1:0")

@cache  # one session per test run: loading the service model costs ~0.2 s per session
def fake_session() -> boto3.Session:
    return boto3.Session(aws_access_key_id=ACCESS_KEY,
                         aws_secret_access_key="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                         region_name=REGION)

def make_provider(url: str, model: str = MODEL, max_concurrency: int = 8) -> BedrockProvider:
    session = fake_session()

    def client(config: Config) -> Any:
        return session.client("bedrock-runtime", region_name=REGION, endpoint_url=url,
                              config=config)

    return BedrockProvider("bedrock", model, client_factory=client,
                           max_concurrency=max_concurrency)

def check_sent(sent: Logged, request: ChatRequest) -> None:
    prefix = "/model/"
    assert sent.path.startswith(prefix), sent.path
    op = "/converse-stream" if request.stream else "/converse"
    assert sent.path.endswith(op), sent.path
    assert unquote(sent.path[len(prefix):-len(op)]) == MODEL
    auth = sent.headers.get("authorization", "")
    assert auth.startswith(f"AWS4-HMAC-SHA256 Credential={ACCESS_KEY}/"), auth
    assert f"/{REGION}/bedrock/aws4_request" in auth, auth
    assert "SignedHeaders=" in auth and "Signature=" in auth, auth
    assert sent.headers.get("x-amz-date"), "SigV4 needs x-amz-date"
    body = sent.json()
    assert "modelId" not in body, "the model id travels in the path"
    system = [m.text() for m in request.messages if m.role in ("system", "developer")]
    assert [b["text"] for b in body.get("system", [])] == system
    assert all(m["role"] in ("user", "assistant") for m in body["messages"])
    config = body.get("inferenceConfig", {})
    assert config.get("maxTokens") == request.token_limit
    assert config.get("temperature") == request.temperature
    assert config.get("topP") == request.top_p
    assert config.get("stopSequences", []) == request.stop_list

HARNESS = HarnessSpec(name="bedrock", app_factory=build_app, make_provider=make_provider,
                      tools=True, check_sent=check_sent)
