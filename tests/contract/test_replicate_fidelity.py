"""Replicate's ways of ending a prediction that did not succeed, through the `replicate` client:
a stream that ends `done {"reason": "canceled"}`, or `error` + `done {"reason": "error"}`, is
the model's failure (no finish, no usage to charge), never a success."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest
from gateway.emulators.base import EmulatorServer, EmulatorState, Mode
from gateway.emulators.replicate import build_app
from gateway.providers.replicate import ReplicateProvider
from gateway.providers.replicate.adapter import done_reason
from tests.contract.harnesses.replicate import _make

from .test_contract import FAST

REQUEST = ChatRequest.model_validate(
    {"model": "m", "stream": True, "messages": [{"role": "user", "content": "Merhaba"}]}
)


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
async def provider(server: EmulatorServer) -> AsyncIterator[ReplicateProvider]:
    server.state.reset()
    p = _make(server.url)
    yield p
    await p.aclose()


async def _stream(provider: ReplicateProvider) -> tuple[list[ChatChunk], ProviderError]:
    got: list[ChatChunk] = []
    with pytest.raises(ProviderError) as err:
        async for chunk in provider.stream(REQUEST, FAST):
            got.append(chunk)
    return got, err.value


@pytest.mark.parametrize("kind", ["canceled", "error_frame"])
async def test_a_stream_ended_unsuccessfully_after_output_is_cut_and_not_charged(
    server: EmulatorServer, provider: ReplicateProvider, kind: str
) -> None:
    server.state.mode = Mode(kind=kind, cut_after=2)  # type: ignore[arg-type]
    got, err = await _stream(provider)
    assert [c.text for c in got] == ["Merhaba! ", "Size "]
    assert err.kind == FailureKind.INTERRUPTED
    assert all(c.usage is None and c.finish_reason is None for c in got), "nothing to charge"


@pytest.mark.parametrize(
    ("kind", "failure"),
    [("canceled", FailureKind.PROVIDER), ("error_frame", FailureKind.TRANSIENT)],
)
async def test_a_stream_ended_unsuccessfully_before_output_is_the_models_failure(
    server: EmulatorServer, provider: ReplicateProvider, kind: str, failure: FailureKind
) -> None:
    server.state.mode = Mode(kind=kind, cut_after=0)  # type: ignore[arg-type]
    got, err = await _stream(provider)
    assert got == []
    assert err.kind == failure  # may fall back: nothing reached the client


@pytest.mark.parametrize("kind", ["canceled", "error_frame"])
async def test_a_polled_prediction_that_did_not_succeed_is_a_failure(
    server: EmulatorServer, provider: ReplicateProvider, kind: str
) -> None:
    server.state.mode = Mode(kind=kind)  # type: ignore[arg-type]
    with pytest.raises(ProviderError) as err:
        await provider.complete(REQUEST.model_copy(update={"stream": False}), FAST)
    assert err.value.kind in (FailureKind.PROVIDER, FailureKind.TRANSIENT)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("{}", None),
        ("", None),
        ('{"reason": "canceled"}', "canceled"),
        ('{"reason": "error"}', "error"),
        ("not json", None),
        ("[1]", None),
    ],
)
def test_done_reason(data: str, reason: str | None) -> None:
    assert done_reason(data) == reason


async def _create(
    server: EmulatorServer, path: str, body: dict[str, Any], prefer: str = ""
) -> httpx.Response:
    headers = {"authorization": "Bearer r8_test", **({"prefer": prefer} if prefer else {})}
    async with httpx.AsyncClient(base_url=server.url, headers=headers) as client:
        return await client.post(path, json=body)


MODEL_PATH = "/v1/models/meta/meta-llama-3-8b-instruct/predictions"


async def test_a_documented_create_is_accepted(server: EmulatorServer) -> None:
    answer = await _create(
        server,
        MODEL_PATH,
        {
            "input": {
                "prompt": "Merhaba",
                "system_prompt": "Kısa",
                "max_tokens": 8,
                "temperature": 0.5,
                "top_p": 0.9,
                "stop_sequences": "<|eot_id|>",
                "seed": 1,
            },
            "stream": True,
            "webhook_events_filter": ["completed"],
        },
        prefer="wait=5",
    )
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize(
    ("path", "body", "prefer", "where"),
    [
        (MODEL_PATH, {"prompt": "x"}, "", "input is required"),
        (
            MODEL_PATH,
            {"input": {"prompt": "x"}, "version": "abc"},
            "",
            "Additional property version",
        ),
        ("/v1/predictions", {"input": {"prompt": "x"}}, "", "version is required"),
        (
            MODEL_PATH,
            {"input": {"prompt": "x", "max_completion_tokens": 5}},
            "",
            "Additional property max_completion_tokens",
        ),
        (MODEL_PATH, {"input": {"prompt": "x", "temperature": 7}}, "", "input.temperature"),
        (MODEL_PATH, {"input": {"prompt": "x", "max_tokens": "5"}}, "", "input.max_tokens"),
        (
            MODEL_PATH,
            {"input": {"prompt": "x", "stop_sequences": ["a"]}},
            "",
            "input.stop_sequences",
        ),
        (
            MODEL_PATH,
            {"input": {"prompt": "x"}, "webhook_events_filter": ["done"]},
            "",
            "webhook_events_filter",
        ),
        (MODEL_PATH, {"input": {"prompt": "x"}}, "wait=600", "Prefer"),
    ],
)
async def test_refuses_what_the_api_reference_and_model_schema_refuse(
    server: EmulatorServer, path: str, body: dict[str, Any], prefer: str, where: str
) -> None:
    answer = await _create(server, path, body, prefer)
    assert answer.status_code == 422
    problem = answer.json()
    assert problem["title"] == "Input validation failed"
    assert where in problem["detail"]


def _done_without_reason_app(state: EmulatorState) -> Starlette:
    """A stream whose `done` carries no reason (its `error` event lost) while the prediction
    itself reports `failed`: the finished prediction's status decides, not the bare `done`."""

    def prediction(base: str, status: str) -> bytes:
        return orjson.dumps(
            {
                "id": "p1",
                "model": "acme/llm",
                "version": "v",
                "status": status,
                "input": {},
                "output": None,
                "error": None,
                "logs": "",
                "metrics": {"input_token_count": 3, "output_token_count": 2},
                "urls": {
                    "get": f"{base}/v1/predictions/p1",
                    "cancel": "x",
                    "stream": f"{base}/v1/streams/p1",
                },
            }
        )

    async def create(request: Request) -> Response:
        base = str(request.base_url).rstrip("/")
        return Response(prediction(base, "starting"), 201, media_type="application/json")

    async def stream(_request: Request) -> Response:
        body = (
            b"event: output\nid: p1:1\ndata: Bir \n\n"
            b"event: output\nid: p1:2\ndata: iki\n\n"
            b"event: done\nid: p1:3\ndata: {}\n\n"
        )
        return Response(body, media_type="text/event-stream")

    async def get(request: Request) -> Response:
        base = str(request.base_url).rstrip("/")
        return Response(prediction(base, "failed"), media_type="application/json")

    return Starlette(
        routes=[
            Route("/v1/models/acme/llm/predictions", create, methods=["POST"]),
            Route("/v1/streams/p1", stream, methods=["GET"]),
            Route("/v1/predictions/p1", get, methods=["GET"]),
        ]
    )


async def test_a_failed_prediction_behind_a_bare_done_is_not_a_success() -> None:
    with EmulatorServer(_done_without_reason_app) as srv:
        p = ReplicateProvider("rep", "acme/llm", "r8", base_url=srv.url)
        try:
            got, err = await _stream(p)
        finally:
            await p.aclose()
    assert "".join(c.text for c in got) == "Bir iki"
    assert err.kind == FailureKind.INTERRUPTED
    assert all(c.usage is None for c in got), "nothing to charge"
