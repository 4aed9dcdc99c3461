"""What `/readyz` calls "reachable" is checked for real, per kind: a stopped Replicate endpoint
or a closed litellm `api_base` is not reachable (their checks used to look only at the model
name, or at nothing)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gateway.emulators.base import EmulatorServer, EmulatorState, Mode, free_port
from gateway.emulators.replicate import build_app
from gateway.providers.litellm.adapter import LiteLLMProvider
from gateway.providers.openai_compat.adapter import OpenAICompatProvider
from gateway.providers.replicate import ReplicateProvider


async def test_replicate_check_reads_the_model_and_fails_once_the_endpoint_is_gone() -> None:
    srv = EmulatorServer(build_app).start()
    provider = ReplicateProvider("rep", "meta/meta-llama-3-8b-instruct", "r8_tok", base_url=srv.url)
    try:
        assert await provider.check()
        asked = [(r.method, r.path) for r in srv.state.requests]
        assert asked == [("GET", "/v1/models/meta/meta-llama-3-8b-instruct")]
        srv.state.mode = Mode(kind="status", status=500)
        assert not await provider.check()
        srv.state.mode = Mode(kind="throttle")
        assert await provider.check(), "throttled is reachable, with working credentials"
        srv.stop()
        assert not await provider.check()
    finally:
        await provider.aclose()


async def test_litellm_check_connects_to_its_api_base() -> None:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        up = LiteLLMProvider(
            "ll", "openai/m", api_base=f"http://127.0.0.1:{port}/v1", module=SimpleNamespace()
        )
        assert await up.check()
    down = LiteLLMProvider(
        "ll", "openai/m", api_base=f"http://127.0.0.1:{free_port()}/v1", module=SimpleNamespace()
    )
    assert not await down.check()


def _models_answering(status: int) -> Callable[[EmulatorState], Starlette]:
    def build(_state: EmulatorState) -> Starlette:
        async def models(_request: Request) -> Response:
            return Response(
                b'{"object": "list", "data": []}', status_code=status, media_type="application/json"
            )

        return Starlette(routes=[Route("/v1/models", models)])

    return build


@pytest.mark.parametrize(
    ("status", "reachable"), [(200, True), (404, True), (401, False), (403, False), (503, False)]
)
async def test_openai_compat_check_needs_an_answer_that_accepts_the_key(
    status: int, reachable: bool
) -> None:
    with EmulatorServer(_models_answering(status)) as srv:
        provider = OpenAICompatProvider("oc", srv.url + "/v1", "m", api_key="sk-wrong")
        try:
            assert await provider.check() is reachable
        finally:
            await provider.aclose()
