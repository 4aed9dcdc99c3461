"""One enumeration of a request's text-bearing places, shared by the classifier, the redactor and
the upstream body builder: a value in any place is classified, redacted before a cloud call, and
nothing the walk does not know is sent upstream."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
from pydantic import BaseModel

from gateway.core import types
from gateway.core.textplaces import PLAIN_FIELDS, TEXT_FIELDS, places, replace_texts, scan
from gateway.core.types import ChatRequest
from gateway.providers.openai_shape import request_body
from gateway.sensitivity import Classifier, SensitivityConfig
from gateway.sensitivity.redaction import Redactor
from tests.unit.sensitivity.helpers import make_tckn

TCKN = make_tckn("284736150")
SPECIAL = "Hastamız Ayşe Yılmaz'a HIV tanısı kondu"


def _body(**extra: Any) -> dict[str, Any]:
    return {"model": "chat", "messages": [{"role": "user", "content": "merhaba"}], **extra}


def _msgs(*messages: dict[str, Any]) -> dict[str, Any]:
    return {"model": "chat", "messages": list(messages)}


def _tool(
    name: str = "lookup",
    description: str = "finds a record",
    parameters: dict[str, Any] | None = None,
) -> dict[str, Any]:
    fn: dict[str, Any] = {"name": name, "description": description}
    if parameters is not None:
        fn["parameters"] = parameters
    return {"type": "function", "function": fn}


# one request per text-bearing place, the value put there by `v`
PLACES: dict[str, Callable[[str], dict[str, Any]]] = {
    "content": lambda v: _msgs({"role": "user", "content": f"Bilgi: {v}"}),
    "system": lambda v: _msgs(
        {"role": "system", "content": f"Bağlam: {v}"}, {"role": "user", "content": "özetle"}
    ),
    "developer": lambda v: _msgs(
        {"role": "developer", "content": f"Bağlam: {v}"}, {"role": "user", "content": "özetle"}
    ),
    "part_text": lambda v: _msgs(
        {"role": "user", "content": [{"type": "text", "text": f"Bilgi: {v}"}]}
    ),
    "part_input_text": lambda v: _msgs(
        {"role": "user", "content": [{"type": "input_text", "text": f"Bilgi: {v}"}]}
    ),
    "part_refusal": lambda v: _msgs(
        {"role": "user", "content": "soru"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": f"Olmaz: {v}"}]},
        {"role": "user", "content": "devam"},
    ),
    "message_refusal": lambda v: _msgs(
        {"role": "user", "content": "soru"},
        {"role": "assistant", "refusal": f"Olmaz: {v}"},
        {"role": "user", "content": "devam"},
    ),
    "message_name": lambda v: _msgs({"role": "user", "content": "merhaba", "name": v}),
    "tool_name": lambda v: _body(tools=[_tool(name=f"kayit_{v}")]),
    "tool_description": lambda v: _body(tools=[_tool(description=f"Bilgi: {v}")]),
    "tool_parameters_value": lambda v: _body(
        tools=[
            _tool(
                parameters={
                    "type": "object",
                    "properties": {"x": {"type": "string", "description": f"Bilgi: {v}"}},
                }
            )
        ]
    ),
    "tool_parameters_key": lambda v: _body(
        tools=[_tool(parameters={"type": "object", "properties": {f"k {v}": {"type": "string"}}})]
    ),
    "tool_parameters_enum": lambda v: _body(
        tools=[
            _tool(
                parameters={
                    "type": "object",
                    "properties": {"x": {"type": "string", "enum": [f"Bilgi: {v}"]}},
                }
            )
        ]
    ),
    "functions_legacy": lambda v: _body(functions=[{"name": "f", "description": f"Bilgi: {v}"}]),
    "tool_call_arguments": lambda v: _msgs(
        {"role": "user", "content": "ara"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {
                        "name": "lookup",
                        "arguments": orjson.dumps({"q": f"Bilgi: {v}"}).decode(),
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "{}"},
    ),
    "tool_call_id": lambda v: _msgs(
        {"role": "user", "content": "ara"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": f"c {v}",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": f"c {v}", "content": "{}"},
    ),
    "tool_result": lambda v: _msgs(
        {"role": "user", "content": "ara"},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": f"Bilgi: {v}"},
    ),
    "function_call_legacy": lambda v: _msgs(
        {"role": "user", "content": "ara"},
        {"role": "assistant", "function_call": {"name": "f", "arguments": f"Bilgi: {v}"}},
        {"role": "function", "name": "f", "content": "{}"},
    ),
    "tool_choice": lambda v: _body(
        tools=[_tool()], tool_choice={"type": "function", "function": {"name": f"lookup {v}"}}
    ),
    "response_format_schema": lambda v: _body(
        response_format={
            "type": "json_schema",
            "json_schema": {
                "name": "cevap",
                "schema": {"type": "object", "description": f"Bilgi: {v}"},
            },
        }
    ),
    "stop": lambda v: _body(stop=[f"Bilgi: {v}"]),
    "metadata": lambda v: _body(metadata={"not": f"Bilgi: {v}"}),
    "user": lambda v: _body(user=f"Bilgi: {v}"),
    "safety_identifier": lambda v: _body(safety_identifier=f"Bilgi: {v}"),
    "prompt_cache_key": lambda v: _body(prompt_cache_key=f"Bilgi: {v}"),
    "prediction": lambda v: _body(prediction={"type": "content", "content": f"Bilgi: {v}"}),
    "web_search_city": lambda v: _body(
        web_search_options={
            "user_location": {"type": "approximate", "approximate": {"city": f"Bilgi: {v}"}}
        }
    ),
}


def _request(place: str, value: str) -> ChatRequest:
    return ChatRequest.model_validate(PLACES[place](value))


def test_every_request_field_is_either_walked_for_text_or_holds_none() -> None:
    fields = set(ChatRequest.model_fields)
    assert set(TEXT_FIELDS) | set(PLAIN_FIELDS) == fields
    assert not set(TEXT_FIELDS) & set(PLAIN_FIELDS)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_value_in_each_place_is_enumerated(place: str) -> None:
    request = _request(place, TCKN)
    assert any(TCKN in text for _, text in places(request)), place


@pytest.mark.parametrize("place", sorted(PLACES))
def test_an_identifier_in_each_place_makes_the_request_personal(place: str) -> None:
    result = Classifier().classify_request(_request(place, f"TC {TCKN}"))
    assert result.data_class == "personal", place
    assert any(e.type == "TCKN" for e in result.entities)


@pytest.mark.parametrize("place", sorted(PLACES))
def test_a_special_category_sentence_in_each_place_makes_the_request_special(place: str) -> None:
    result = Classifier().classify_request(_request(place, SPECIAL))
    assert result.data_class == "special", place


@pytest.mark.parametrize("place", sorted(PLACES))
def test_redaction_replaces_the_value_in_each_place_and_the_body_carries_no_original(
    place: str,
) -> None:
    request = _request(place, f"TC {TCKN}")
    redacted, mapping = Redactor(Classifier()).redact_request(request)
    body = orjson.dumps(request_body(redacted, "m", stream=False)).decode()
    assert TCKN not in body
    assert TCKN not in orjson.dumps(redacted.model_dump(exclude_none=True)).decode()
    assert mapping.restore("[TCKN_1]") == TCKN
    assert TCKN in orjson.dumps(request.model_dump()).decode()  # the original is untouched


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_every_string_the_upstream_body_carries_was_enumerated() -> None:
    """Everything in one request with every place filled: each string of the body sent
    upstream is a place's text (or a fixed enumeration value the schema allows)."""
    merged: dict[str, Any] = {"model": "chat", "messages": []}
    for build in PLACES.values():
        body = build("değer")
        merged["messages"] += body["messages"]
        merged.update({k: v for k, v in body.items() if k not in ("model", "messages")})
    merged.update(
        service_tier="auto",
        reasoning_effort="low",
        modalities=["text"],
        logit_bias={"50256": -100},
        audio={"voice": "alloy", "format": "mp3"},
        response_format={"type": "json_schema", "json_schema": {"name": "n"}},
    )
    request = ChatRequest.model_validate(merged)
    texts = {t for _, t in places(request)}
    field_names = {
        name
        for obj in vars(types).values()
        if isinstance(obj, type) and issubclass(obj, BaseModel)
        for name in obj.model_fields
    }
    fixed = field_names | {
        "m",
        "user",
        "assistant",
        "system",
        "developer",
        "tool",
        "function",
        "text",
        "input_text",
        "refusal",
        "json_schema",
        "content",
        "approximate",
        "auto",
        "low",
        "mp3",
    }
    sent = set(_strings(request_body(request, "m", stream=False)))
    assert sent - texts - fixed == set()


def test_replace_texts_rewrites_every_place_and_leaves_the_original() -> None:
    request = ChatRequest.model_validate(PLACES["tool_parameters_key"]("abc"))
    found = scan(request)
    new = replace_texts(request, [t.replace("abc", "XYZ") for t in found.texts])
    assert [t for _, t in places(new)] == [t.replace("abc", "XYZ") for t in found.texts]
    assert [t for _, t in places(new)] != list(found.texts)
    assert "k XYZ" in new.tools[0].function.parameters["properties"]  # type: ignore[index]
    assert "k abc" in request.tools[0].function.parameters["properties"]  # type: ignore[index]


@pytest.mark.parametrize(
    "part",
    [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
        {"type": "file", "file": {"file_data": "JVBERi0=", "filename": "rapor.pdf"}},
        {"type": "input_image", "image_url": "https://example.com/x.png"},
        {"type": "text", "text": "bak", "image_url": {"url": "https://example.com/x.png"}},
    ],
)
def test_a_part_the_classifier_cannot_read_makes_the_request_special(part: dict[str, Any]) -> None:
    request = ChatRequest.model_validate(
        _msgs({"role": "user", "content": [{"type": "text", "text": "bu ne?"}, part]})
    )
    result = Classifier().classify_request(request)
    assert result.data_class == "special"
    assert result.reason is not None and "cannot read" in result.reason
    assert "messages[0].content[1]" in result.reason
    relaxed = Classifier(SensitivityConfig(unreadable_parts="as_text_only"))
    assert relaxed.classify_request(request).data_class == "public"


def test_the_text_around_an_unreadable_part_is_still_read_when_the_policy_allows_it() -> None:
    request = ChatRequest.model_validate(
        _msgs(
            {
                "role": "user",
                "content": [
                    {
                        "type": "file",
                        "file": {"file_data": "JVBERi0=", "filename": f"TC {TCKN}.pdf"},
                    }
                ],
            }
        )
    )
    relaxed = Classifier(SensitivityConfig(unreadable_parts="as_text_only"))
    assert relaxed.classify_request(request).data_class == "personal"
    redacted, _ = Redactor(relaxed).redact_request(request)
    assert TCKN not in orjson.dumps(request_body(redacted, "m", False)).decode()


@pytest.mark.parametrize(
    "body",
    [
        _msgs({"role": "system", "content": "sistem"}, {"role": "user", "content": "soru"}),
        _msgs({"role": "user", "content": ""}, {"role": "user", "content": "soru"}),
        _body(temperature=0.2, stream=True, max_tokens=5, seed=1),
        _body(user=None),
        _msgs({"role": "user", "content": "soru", "name": None}),
        *(build("değer") for build in PLACES.values()),
    ],
)
def test_the_plain_request_shortcut_finds_what_the_walk_finds(body: dict[str, Any]) -> None:
    request = ChatRequest.model_validate(body)
    assert scan(request).texts == tuple(text for _, text in places(request))
