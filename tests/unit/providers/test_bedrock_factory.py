"""Building a Bedrock backend from a policy spec: credentials chain, disabled reasons, wiring."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer
from gateway.emulators.bedrock import build_app
from gateway.policy.schema import BedrockBackend
from gateway.providers.base import CallOptions
from gateway.providers.bedrock.factory import build
from gateway.providers.registry import BackendDisabled, BuildContext, build_provider

_CHAIN_VARS = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN",
)


@pytest.fixture
def empty_chain(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A process where boto3's chain finds nothing (and does not ask instance metadata)."""
    for var in _CHAIN_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


def spec(**kw: object) -> BedrockBackend:
    base: dict[str, object] = {
        "kind": "bedrock",
        "model": "eu.amazon.nova-lite-v1:0",
        "region": "eu-west-1",
    }
    base.update(kw)
    return BedrockBackend.model_validate(base)


def _hello() -> ChatRequest:
    return ChatRequest.model_validate(
        {"model": "a", "messages": [{"role": "user", "content": "Selam"}]}
    )


@pytest.mark.usefixtures("empty_chain")
def test_no_credentials_disables_the_backend_with_the_reason() -> None:
    with pytest.raises(BackendDisabled) as err:
        build_provider("bed", spec(), BuildContext(env={}))
    assert "no AWS credentials found" in str(err.value)


@pytest.mark.usefixtures("empty_chain")
def test_unknown_profile_disables_the_backend() -> None:
    with pytest.raises(BackendDisabled) as err:
        build("bed", spec(profile="yok"), BuildContext(env={}))
    assert "'yok'" in str(err.value)


@pytest.mark.usefixtures("empty_chain")
async def test_shared_profile_from_the_standard_chain(
    tmp_path: Path, server: EmulatorServer
) -> None:
    server.state.reset()
    (tmp_path / "credentials").write_text(
        "[gecit]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = s3cr3t\n"
    )
    p = build("bed", spec(profile="gecit", endpoint_url=server.url), BuildContext(env={}))
    try:
        await p.complete(_hello(), CallOptions())
    finally:
        await p.aclose()
    [sent] = server.state.requests
    assert sent.headers["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIDPROFILE/")


@pytest.mark.usefixtures("empty_chain")
async def test_keys_from_the_build_env_sign_requests_to_the_endpoint(
    server: EmulatorServer,
) -> None:
    server.state.reset()
    env = {"AWS_ACCESS_KEY_ID": "AKIDFROMENV", "AWS_SECRET_ACCESS_KEY": "s3cr3t"}
    s = spec(endpoint_url=server.url, timeouts={"connect_s": 2, "first_token_s": 4, "total_s": 9})
    p = build("bed", s, BuildContext(env=env))
    try:
        assert p.capabilities.tools and not p.capabilities.json_mode
        assert not p.capabilities.embeddings
        result = await p.complete(
            _hello(), CallOptions(connect_timeout=2, first_byte_timeout=4, total_timeout=9)
        )
    finally:
        await p.aclose()
    assert result.text == server.state.mode.reply
    [sent] = server.state.requests
    assert sent.path == "/model/eu.amazon.nova-lite-v1:0/converse"
    auth = sent.headers["authorization"]
    assert auth.startswith("AWS4-HMAC-SHA256 Credential=AKIDFROMENV/")
    assert "/eu-west-1/bedrock/aws4_request" in auth


@pytest.mark.usefixtures("empty_chain")
def test_embedding_model_capabilities_and_policy_caps_never_claim_json_mode() -> None:
    env = {"AWS_ACCESS_KEY_ID": "AKIDFROMENV", "AWS_SECRET_ACCESS_KEY": "s3cr3t"}
    embed = build("emb", spec(model="amazon.titan-embed-text-v2:0"), BuildContext(env=env))
    assert embed.capabilities.embeddings and not embed.capabilities.streaming
    caps = {"streaming": True, "tools": True, "json_mode": True, "context_length": 300000}
    chat = build("chat", spec(capabilities=caps), BuildContext(env=env))
    assert chat.capabilities.json_mode is False
    assert chat.capabilities.context_length == 300000
