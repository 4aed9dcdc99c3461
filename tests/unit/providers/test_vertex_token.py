"""Vertex with an OAuth2 access token from an environment variable or a file (no
service-account file): the token the SDK sends is the one given, a rotated file is read again,
and a missing token disables the backend with the reason (never the token)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer
from gateway.emulators.vertex import build_app
from gateway.policy.schema import Backend
from gateway.providers.base import CallOptions
from gateway.providers.registry import BackendDisabled, BuildContext, build_provider
from gateway.providers.vertex import token

REQ = ChatRequest.model_validate({"model": "a", "messages": [{"role": "user", "content": "Selam"}]})


def spec(**kw: Any) -> Any:
    body = {"kind": "vertex", "project": "gecit-test", "model": "gemini-2.5-flash", **kw}
    return TypeAdapter(Backend).validate_python(body)


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


async def _call_and_header(server: EmulatorServer, backend: Any, env: dict[str, str]) -> str:
    server.state.reset()
    provider = build_provider("vx", backend, BuildContext(env=env))
    try:
        result = await provider.complete(REQ, CallOptions(total_timeout=10.0))
    finally:
        await provider.aclose()
    assert result.text
    [call] = server.state.requests
    return str(call.headers["authorization"])


async def test_access_token_from_an_env_variable_with_a_custom_endpoint(
    server: EmulatorServer,
) -> None:
    backend = spec(base_url=server.url, access_token_env="VERTEX_TOKEN")
    header = await _call_and_header(server, backend, {"VERTEX_TOKEN": "ya29.env-token\n"})
    assert header == "Bearer ya29.env-token"


async def test_access_token_from_a_file(server: EmulatorServer, tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("ya29.file-token\n")
    header = await _call_and_header(
        server, spec(base_url=server.url, access_token_file=str(path)), {}
    )
    assert header == "Bearer ya29.file-token"


def test_a_rotated_token_file_is_read_again_on_refresh(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("first")
    creds = token.from_file(str(path))
    assert creds.token == "first" and creds.expiry is not None
    path.write_text("second")
    creds.refresh(None)
    assert creds.token == "second"


def test_a_missing_token_disables_the_backend_and_says_which(tmp_path: Path) -> None:
    with pytest.raises(BackendDisabled) as err:
        build_provider("vx", spec(access_token_env="VERTEX_TOKEN"), BuildContext(env={}))
    assert "VERTEX_TOKEN" in str(err.value)
    missing = tmp_path / "nope"
    with pytest.raises(BackendDisabled) as err2:
        build_provider("vx", spec(access_token_file=str(missing)), BuildContext(env={}))
    assert "access_token_file" in str(err2.value)
    (tmp_path / "empty").write_text("  \n")
    with pytest.raises(BackendDisabled):
        build_provider("vx", spec(access_token_file=str(tmp_path / "empty")), BuildContext(env={}))


def test_only_one_token_source() -> None:
    with pytest.raises(ValidationError):
        spec(access_token_env="A", access_token_file="/x")
