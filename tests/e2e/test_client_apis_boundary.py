"""The data boundary on the client APIs beside chat: a special-category sentence put into any
text-bearing place of a Responses, Anthropic Messages or legacy completions request never
reaches the cloud emulator (the policy blocks special data, and nothing else could serve it);
a checksum-valid T.C. Kimlik No in any such place reaches it only as a placeholder. Each new
shape translates into ChatRequest places the classifier and the redactor read, so the chat
path's rules hold without a second copy of them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.emulators.base import EmulatorServer, Mode
from tests.e2e.client_gateway import Gateway, running_gateway

SPECIAL = "Hastam Ayşe Yılmaz HIV pozitif, tedavisini özetle"
TCKN = "28473615040"  # checksum-valid, computed as tests/unit/sensitivity/helpers.py does
PERSONAL = f"Müşterimiz Ayşe Yılmaz, T.C. kimlik no {TCKN}, iade istiyor."

Body = dict[str, Any]


def _responses(text: str) -> list[Body]:
    call = {"type": "function_call", "call_id": "c1", "name": "lookup"}
    asked = {"role": "user", "content": "Kayda bak."}
    return [
        {"input": text},
        {"input": [{"role": "user", "content": [{"type": "input_text", "text": text}]}]},
        {"instructions": text, "input": "Özetle."},
        {"input": [{"role": "developer", "content": text}, asked]},
        {
            "input": [
                asked,
                {**call, "arguments": orjson.dumps({"not": text}).decode()},
                {"type": "function_call_output", "call_id": "c1", "output": "tamam"},
            ]
        },
        {
            "input": [
                asked,
                {**call, "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c1", "output": text},
            ]
        },
        {
            "input": [
                asked,
                {**call, "arguments": "{}"},
                {
                    "type": "function_call_output",
                    "call_id": "c1",
                    "output": [{"type": "input_text", "text": text}],
                },
            ]
        },
    ]


def _messages(text: str) -> list[Body]:
    use = {"type": "tool_use", "id": "tu1", "name": "lookup"}
    asked = {"role": "user", "content": "Kayda bak."}
    return [
        {"messages": [{"role": "user", "content": text}]},
        {"messages": [{"role": "user", "content": [{"type": "text", "text": text}]}]},
        {"system": text, "messages": [asked]},
        {"system": [{"type": "text", "text": text}], "messages": [asked]},
        {
            "messages": [
                asked,
                {"role": "assistant", "content": [{**use, "input": {"not": text}}]},
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": "tu1", "content": "tamam"}],
                },
            ]
        },
        {
            "messages": [
                asked,
                {"role": "assistant", "content": [{**use, "input": {}}]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "tu1",
                            "content": [{"type": "text", "text": text}],
                        }
                    ],
                },
            ]
        },
    ]


def _completions(text: str) -> list[Body]:
    return [{"prompt": text}, {"prompt": [text]}]


PLACES: list[tuple[str, Callable[[str], list[Body]], Body]] = [
    ("/v1/responses", _responses, {}),
    ("/v1/messages", _messages, {"max_tokens": 32}),
    ("/v1/completions", _completions, {}),
]
CASES = [(path, i, base) for path, build, base in PLACES for i in range(len(build("x")))]


def _body(path: str, index: int, base: Body, text: str, stream: bool) -> Body:
    build = next(b for p, b, _ in PLACES if p == path)
    return {"model": "chat", "stream": stream, **base, **build(text)[index]}


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    with running_gateway(tmp_path_factory.mktemp("boundary")) as g:
        yield g


@pytest.fixture
def cloud(gw: Gateway) -> EmulatorServer:
    gw.cloud.state.reset()
    gw.cloud.state.mode = Mode(echo=True, echo_piece=3)
    return gw.cloud


def _cloud_saw(cloud: EmulatorServer) -> bytes:
    return b"\n".join(r.body + orjson.dumps(r.json()) for r in cloud.state.requests)


def _assert_refused(gw: Gateway, path: str, body: Body) -> None:
    r = gw.post(path, body)
    assert r.status_code == 403, (path, r.status_code)
    text = r.text
    assert "HIV" not in text and "Ayşe" not in text  # the refusal never echoes the prompt
    if path == "/v1/messages":
        assert r.json()["error"]["type"] == "permission_error"
    else:
        assert r.json()["error"]["code"] == "blocked_by_policy"


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("path", "index", "base"), CASES)
def test_special_category_never_reaches_the_cloud(
    gw: Gateway, cloud: EmulatorServer, path: str, index: int, base: Body, stream: bool
) -> None:
    _assert_refused(gw, path, _body(path, index, base, SPECIAL, stream))
    assert cloud.state.requests == []


@pytest.mark.parametrize(("path", "index", "base"), CASES)
def test_personal_data_reaches_the_cloud_only_redacted(
    gw: Gateway, cloud: EmulatorServer, path: str, index: int, base: Body
) -> None:
    r = gw.post(path, _body(path, index, base, PERSONAL, False))
    assert r.status_code == 200, r.text
    assert r.headers["x-gecit-data-class"] == "personal"
    seen = _cloud_saw(cloud)
    assert seen and TCKN.encode() not in seen and b"[TCKN_1]" in seen


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    case=st.sampled_from(CASES),
    stream=st.booleans(),
    before=st.sampled_from(["", "Not: ", "Lütfen yardım et. ", "Dosya özeti:\n"]),
    after=st.sampled_from(["", " Teşekkürler.", "\nAcil.", " (gizli)"]),
)
def test_special_anywhere_with_any_wrapping_is_refused(
    gw: Gateway,
    cloud: EmulatorServer,
    case: tuple[str, int, Body],
    stream: bool,
    before: str,
    after: str,
) -> None:
    path, index, base = case
    cloud.state.requests.clear()
    _assert_refused(gw, path, _body(path, index, base, before + SPECIAL + after, stream))
    assert cloud.state.requests == []


def _schema(text: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"note": {"type": "string", "description": text}}}


DEFINITION_CASES: list[tuple[str, Body]] = [
    (
        "/v1/responses",
        {
            "input": "Kayda bak.",
            "tools": [{"type": "function", "name": "lookup", "description": SPECIAL}],
        },
    ),
    (
        "/v1/responses",
        {
            "input": "Kayda bak.",
            "tools": [{"type": "function", "name": "lookup", "parameters": _schema(SPECIAL)}],
        },
    ),
    (
        "/v1/responses",
        {
            "input": "Kayda bak.",
            "text": {"format": {"type": "json_schema", "name": "out", "schema": _schema(SPECIAL)}},
        },
    ),
    (
        "/v1/messages",
        {
            "max_tokens": 32,
            "messages": [{"role": "user", "content": "Kayda bak."}],
            "tools": [
                {"name": "lookup", "description": SPECIAL, "input_schema": {"type": "object"}}
            ],
        },
    ),
    (
        "/v1/messages",
        {
            "max_tokens": 32,
            "messages": [{"role": "user", "content": "Kayda bak."}],
            "output_config": {"format": {"type": "json_schema", "schema": _schema(SPECIAL)}},
        },
    ),
]


@pytest.mark.parametrize(("path", "body"), DEFINITION_CASES)
def test_special_in_tool_definitions_and_schemas_never_reaches_the_cloud(
    gw: Gateway, cloud: EmulatorServer, path: str, body: Body
) -> None:
    _assert_refused(gw, path, {"model": "chat", **body})
    assert cloud.state.requests == []
