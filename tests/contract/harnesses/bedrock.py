"""Bedrock: boto3 `bedrock-runtime` (real SigV4 signing, real event-stream parsing) against the
Bedrock emulator, with static fake credentials from an injected session."""

from __future__ import annotations

import re
from functools import cache
from typing import Any
from urllib.parse import quote, unquote

import boto3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials

from gateway.core.types import ChatRequest
from gateway.emulators.base import Logged
from gateway.emulators.bedrock import build_app
from gateway.providers.bedrock import BedrockProvider
from tests.contract.harness import HarnessSpec

REGION = "eu-central-1"
ACCESS_KEY = "AKIDEXAMPLE"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
# an inference-profile ARN: its ':' and '/' must arrive URL-encoded in one path segment
MODEL = (
    "arn:aws:bedrock:eu-central-1:123456789012:inference-profile/"
    "eu.anthropic.claude-3-haiku-20240307-v1:0"
)


@cache  # one session per test run: loading the service model costs ~0.2 s per session
def fake_session() -> boto3.Session:
    return boto3.Session(
        aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY, region_name=REGION
    )


def make_provider(url: str, model: str = MODEL, max_concurrency: int = 8) -> BedrockProvider:
    session = fake_session()

    def client(config: Config) -> Any:
        return session.client(
            "bedrock-runtime", region_name=REGION, endpoint_url=url, config=config
        )

    return BedrockProvider("bedrock", model, client_factory=client, max_concurrency=max_concurrency)


_AUTH = re.compile(
    r"AWS4-HMAC-SHA256 Credential=(?P<key>[^/]+)/(?P<date>\d{8})/"
    r"(?P<region>[^/]+)/(?P<service>[^/]+)/aws4_request, "
    r"SignedHeaders=(?P<signed>[^,]+), Signature=(?P<sig>[0-9a-f]{64})$"
)


def verify_sigv4(sent: Logged, raw_path: str, secret: str = SECRET_KEY) -> re.Match[str]:
    """Recompute the SigV4 signature of what arrived and compare: the SDK really signed this
    exact request (method, encoded path, signed headers, body) with the harness credentials."""
    match = _AUTH.match(sent.headers.get("authorization", ""))
    assert match is not None, sent.headers.get("authorization")
    signed = match["signed"].split(";")
    assert {"host", "x-amz-date"} <= set(signed), signed
    aws_request = AWSRequest(
        method=sent.method,
        url=f"http://{sent.headers['host']}{raw_path}",
        data=sent.body,
        headers={h: sent.headers[h] for h in signed},
    )
    aws_request.context["timestamp"] = sent.headers["x-amz-date"]
    signer = SigV4Auth(Credentials(match["key"], secret), match["service"], match["region"])
    string_to_sign = signer.string_to_sign(aws_request, signer.canonical_request(aws_request))
    assert signer.signature(string_to_sign, aws_request) == match["sig"], "bad SigV4 signature"
    return match


def check_sent(sent: Logged, request: ChatRequest) -> None:
    prefix = "/model/"
    assert sent.path.startswith(prefix), sent.path
    op = "/converse-stream" if request.stream else "/converse"
    assert sent.path.endswith(op), sent.path
    assert unquote(sent.path[len(prefix) : -len(op)]) == MODEL
    raw_path = prefix + quote(MODEL, safe="~") + op  # botocore's encoding of a URI label
    auth = verify_sigv4(sent, raw_path)
    assert (auth["key"], auth["region"], auth["service"]) == (ACCESS_KEY, REGION, "bedrock")
    assert sent.headers["x-amz-date"].startswith(auth["date"])
    assert sent.headers.get("amz-sdk-request") == "attempt=1; max=1", "botocore retries are off"
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


HARNESS = HarnessSpec(
    name="bedrock",
    app_factory=build_app,
    make_provider=make_provider,
    tools=True,
    check_sent=check_sent,
)
