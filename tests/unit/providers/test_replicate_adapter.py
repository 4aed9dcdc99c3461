"""The Replicate adapter through the real `replicate` client against the predictions emulator:
version refs, polling, history flattening, usage (exact and estimated), model failures."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer, EmulatorState, Mode
from gateway.emulators.replicate import VERSION, build_app
from gateway.policy.schema import ReplicateBackend
from gateway.providers.base import CallOptions
from gateway.providers.registry import BackendDisabled, BuildContext
from gateway.providers.replicate import ReplicateProvider
from gateway.providers.replicate.factory import build

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)
LONG = "kelime " * 2100


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
async def provider(server: EmulatorServer) -> AsyncIterator[ReplicateProvider]:
    server.state.reset()
    p = ReplicateProvider(
        "rep", "meta/meta-llama-3-8b-instruct", "r8_tok", base_url=server.url, poll_interval=0.01
    )
    yield p
    await p.aclose()


def req(**kw: object) -> ChatRequest:
    body: dict[str, object] = {"model": "a", "messages": [{"role": "user", "content": "Selam"}]}
    body.update(kw)
    return ChatRequest.model_validate(body)


async def test_version_reference_uses_the_versions_endpoint(server: EmulatorServer) -> None:
    server.state.reset()
    p = ReplicateProvider("rep", f"meta/llama:{VERSION}", "r8_tok", base_url=server.url)
    try:
        result = await p.complete(req(), FAST)
    finally:
        await p.aclose()
    assert result.text == server.state.mode.reply
    sent = server.state.requests[0]
    assert sent.path == "/v1/predictions" and sent.json()["version"] == VERSION


async def test_multi_turn_history_is_flattened_with_a_transcript(
    provider: ReplicateProvider, server: EmulatorServer
) -> None:
    await provider.complete(
        req(
            seed=3,
            messages=[
                {"role": "system", "content": "Türkçe yanıt ver."},
                {"role": "developer", "content": "Kısa ol."},
                {"role": "user", "content": "Merhaba"},
                {"role": "assistant", "content": "Selam!"},
                {"role": "user", "content": "Nasılsın?"},
            ],
        ),
        FAST,
    )
    inp = server.state.requests[0].json()["input"]
    assert inp["system_prompt"] == "Türkçe yanıt ver.\n\nKısa ol."
    assert inp["prompt"] == ("User: Merhaba\n\nAssistant: Selam!\n\nUser: Nasılsın?\n\nAssistant:")
    assert inp["seed"] == 3


async def test_exact_usage_from_metrics_and_length_finish(
    provider: ReplicateProvider, server: EmulatorServer
) -> None:
    result = await provider.complete(req(max_tokens=3), FAST)
    assert result.finish_reason == "length"
    assert result.usage is not None and not result.usage.estimated
    assert result.usage.completion_tokens == 3 == server.state.served_completion_tokens
    chunks = [c async for c in provider.stream(req(stream=True, max_tokens=2), FAST)]
    assert [c.text for c in chunks if c.text] == ["Merhaba! ", "Size "]
    assert chunks[-1].finish_reason == "length" and chunks[-1].usage is not None


async def test_stream_reads_the_sse_url_then_fetches_metrics(
    provider: ReplicateProvider, server: EmulatorServer
) -> None:
    chunks = [c async for c in provider.stream(req(stream=True), FAST)]
    paths = [r.path for r in server.state.requests]
    assert paths[0].endswith("/predictions") and paths[1].startswith("/v1/streams/")
    assert paths[2] == "/v1/predictions/" + paths[1].rsplit("/", 1)[1]
    assert server.state.requests[1].headers["accept"] == "text/event-stream"
    assert chunks[-1].usage is not None and chunks[-1].usage.prompt_tokens == 1


async def test_context_overflow_fails_the_prediction_as_context_length(
    provider: ReplicateProvider,
) -> None:
    with pytest.raises(ProviderError) as err:
        await provider.complete(req(messages=[{"role": "user", "content": LONG}]), FAST)
    assert err.value.kind == FailureKind.CONTEXT_LENGTH and "kelime" not in err.value.message


async def test_sse_error_event_before_output_raises_before_any_chunk(
    provider: ReplicateProvider,
) -> None:
    got = []
    with pytest.raises(ProviderError) as err:
        async for c in provider.stream(
            req(stream=True, messages=[{"role": "user", "content": LONG}]), FAST
        ):
            got.append(c)
    assert got == [] and err.value.kind == FailureKind.CONTEXT_LENGTH


async def test_missing_token_header_is_a_credential_failure(server: EmulatorServer) -> None:
    p = ReplicateProvider("rep", "meta/llama", "", base_url=server.url)
    p._client._async_client.headers.pop("authorization", None)
    try:
        with pytest.raises(ProviderError) as err:
            await p.complete(req(), FAST)
    finally:
        await p.aclose()
    assert err.value.kind == FailureKind.CREDENTIAL and err.value.status == 401


async def test_malformed_stream_event_after_output_is_interrupted(
    provider: ReplicateProvider, server: EmulatorServer
) -> None:
    server.state.mode = Mode(kind="malformed")
    got = []
    with pytest.raises(ProviderError) as err:
        async for c in provider.stream(req(stream=True), FAST):
            got.append(c)
    assert got and err.value.kind == FailureKind.INTERRUPTED


def _polling_app(state: EmulatorState) -> Starlette:
    """A model without streaming whose prediction needs two polls and reports no metrics."""
    polls: dict[str, int] = {"n": 0}

    def prediction(status: str, output: Any) -> bytes:
        return orjson.dumps(
            {
                "id": "p1",
                "model": "acme/old",
                "version": "v",
                "status": status,
                "input": {},
                "output": output,
                "error": None,
                "logs": "",
                "metrics": {},
                "urls": {"get": "x", "cancel": "y"},
            }
        )

    async def create(request: Request) -> Response:
        state.requests.append(await _logged(request))
        return Response(prediction("starting", None), 201, media_type="application/json")

    async def get(request: Request) -> Response:
        state.requests.append(await _logged(request))
        polls["n"] += 1
        done = polls["n"] >= 2
        return Response(
            prediction(
                "succeeded" if done else "processing", ["Bir ", "iki ", "üç"] if done else ["Bir "]
            ),
            media_type="application/json",
        )

    return Starlette(
        routes=[
            Route("/v1/models/acme/old/predictions", create, methods=["POST"]),
            Route("/v1/predictions/p1", get, methods=["GET"]),
        ]
    )


async def _logged(request: Request) -> Any:
    from gateway.emulators.base import Logged

    return Logged(request.method, request.url.path, "", dict(request.headers), await request.body())


async def test_a_model_that_cannot_stream_is_polled_and_usage_estimated() -> None:
    with EmulatorServer(_polling_app) as srv:
        p = ReplicateProvider("rep", "acme/old", "r8", base_url=srv.url, poll_interval=0.01)
        try:
            chunks = [c async for c in p.stream(req(stream=True), FAST)]
        finally:
            await p.aclose()
        assert [r.method for r in srv.state.requests] == ["POST", "GET", "GET"]
    assert len(chunks) == 1 and chunks[0].text == "Bir iki üç"
    assert chunks[0].usage is not None and chunks[0].usage.estimated
    assert chunks[0].usage.completion_tokens == 3 and chunks[0].finish_reason == "stop"


def test_factory_needs_the_token_env_var() -> None:
    spec = ReplicateBackend(
        kind="replicate", model="meta/meta-llama-3-8b-instruct", api_token_env="MY_R8"
    )
    with pytest.raises(BackendDisabled, match="MY_R8"):
        build("rep", spec, BuildContext(env={}))
    p = build("rep", spec, BuildContext(env={"MY_R8": "r8_x"}))
    assert p.capabilities.tools is False and p.model == spec.model
    bad = ReplicateBackend(kind="replicate", model="no-slash", api_token_env="MY_R8")
    with pytest.raises(BackendDisabled, match="owner/name"):
        build("rep", bad, BuildContext(env={"MY_R8": "r8_x"}))
