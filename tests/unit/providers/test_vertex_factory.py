"""Building the Vertex backend from a policy spec: credential resolution and disabling.

The service-account path is exercised for real: a freshly generated key in a service-account
file whose token_uri is the emulator's OAuth endpoint, so google-auth signs a JWT, exchanges it
for an access token, and the SDK sends that token to Vertex.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from google.auth import exceptions as auth_exceptions
from google.auth.credentials import Credentials
from google.oauth2.credentials import Credentials as TokenCredentials
from pydantic import TypeAdapter

from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer
from gateway.emulators.vertex import build_app, jwt_claims
from gateway.policy.schema import Backend
from gateway.providers.base import CallOptions
from gateway.providers.registry import BackendDisabled, BuildContext, build_provider
from gateway.providers.vertex import VertexProvider
from gateway.providers.vertex.factory import resolve_credentials

ENV = "GOOGLE_APPLICATION_CREDENTIALS"
SA_EMAIL = "gecit@gecit-test.iam.gserviceaccount.com"


def spec(**kw: Any) -> Any:
    body = {"kind": "vertex", "project": "gecit-test", "model": "gemini-2.5-flash", **kw}
    return TypeAdapter(Backend).validate_python(body)


def no_adc() -> Credentials:
    raise auth_exceptions.DefaultCredentialsError("Your default credentials were not found.")


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


def service_account_file(tmp_path: Path, token_uri: str) -> Path:
    key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    path = tmp_path / "sa.json"
    path.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": "gecit-test",
                "private_key_id": "k1",
                "private_key": pem,
                "client_email": SA_EMAIL,
                "client_id": "1",
                "token_uri": token_uri,
            }
        )
    )
    return path


def test_no_credentials_anywhere_disables_the_backend_with_the_reason() -> None:
    with pytest.raises(BackendDisabled) as err:
        resolve_credentials(ENV, {}, adc=no_adc)
    assert ENV in str(err.value) and "Application Default Credentials" in str(err.value)


def test_adc_is_used_when_no_file_is_named() -> None:
    creds = TokenCredentials(token="adc-token")
    assert resolve_credentials(ENV, {}, adc=lambda: creds) is creds


def test_a_named_file_that_does_not_exist_disables_the_backend(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.json")
    with pytest.raises(BackendDisabled) as err:
        build_provider("vx", spec(), BuildContext(env={ENV: missing}))
    assert ENV in str(err.value)
    assert missing not in str(err.value)


def test_an_unreadable_credentials_file_disables_the_backend(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"type": "service_account"}')
    with pytest.raises(BackendDisabled):
        resolve_credentials("MY_SA", {"MY_SA": str(bad)}, adc=no_adc)


def test_injected_credentials_build_a_provider_from_the_spec() -> None:
    ctx = BuildContext(env={}, google_credentials=TokenCredentials(token="t"))
    provider = build_provider("vx", spec(location="europe-west4"), ctx)
    assert isinstance(provider, VertexProvider)
    assert provider.model == "gemini-2.5-flash"
    assert provider.capabilities.tools and provider.capabilities.json_mode
    assert not provider.capabilities.embeddings


async def test_service_account_file_credentials_reach_vertex(
    server: EmulatorServer, tmp_path: Path
) -> None:
    server.state.reset()
    path = service_account_file(tmp_path, f"{server.url}/token")
    provider = build_provider(
        "vx",
        spec(base_url=server.url, credentials_env="GECIT_SA"),
        BuildContext(env={"GECIT_SA": str(path)}),
    )
    try:
        request = ChatRequest.model_validate(
            {"model": "a", "messages": [{"role": "user", "content": "Merhaba"}]}
        )
        result = await provider.complete(request, CallOptions(total_timeout=10.0))
    finally:
        await provider.aclose()
    assert result.text == server.state.mode.reply
    token_req, call = server.state.requests
    assert token_req.path == "/token"
    assertion = token_req.body.decode().split("assertion=")[1].split("&")[0]
    claims = jwt_claims(assertion)
    assert claims is not None and claims["iss"] == SA_EMAIL
    assert "cloud-platform" in claims["scope"]
    assert call.headers["authorization"] == f"Bearer emu-token:{SA_EMAIL}"
