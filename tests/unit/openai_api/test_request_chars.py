"""The character limit may skip its walk over a request's text when the body is too small to
hold more characters than allowed; that rests on a character never taking less than a byte of
JSON, which holds for any text, any escaping and every text-bearing place."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.core.errors import InvalidRequest
from gateway.core.textplaces import request_texts
from gateway.openai_api.intake import parse_chat
from gateway.openai_api.limits import EdgeLimits

texts = st.text(min_size=0, max_size=40)


def _body(system: str, user: str, tool_desc: str, ascii_only: bool) -> bytes:
    doc = {
        "model": "m",
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": [{"type": "text", "text": user}]},
        ],
        "tools": [{"type": "function", "function": {"name": "f", "description": tool_desc}}],
    }
    # ensure_ascii writes every non-ASCII character as a \\u escape: six bytes, or twelve
    return _ascii_json(doc) if ascii_only else orjson.dumps(doc)


def _ascii_json(doc: object) -> bytes:
    return json.dumps(doc, ensure_ascii=True).encode()


@settings(max_examples=200, deadline=None)
@given(texts, texts, texts, st.booleans())
def test_a_request_never_holds_more_characters_than_its_body_has_bytes(
    system: str, user: str, tool_desc: str, ascii_only: bool
) -> None:
    body = _body(system, user, tool_desc, ascii_only)
    chat = parse_chat(body)
    assert sum(len(t) for t in request_texts(chat)) <= len(body)


def test_a_body_larger_than_the_limit_is_still_counted() -> None:
    limits = EdgeLimits(max_request_chars=30)
    body = _ascii_json(
        {"model": "m", "messages": [{"role": "user", "content": "ç" * 31}]}
    )  # 31 characters in 6 bytes each: the body is far over 30 bytes, the text just over
    chat = parse_chat(body)
    with pytest.raises(InvalidRequest) as err:
        limits.check_chat(chat, len(body))
    assert err.value.code == "request_too_long"
    fits = parse_chat(
        _ascii_json({"model": "m", "messages": [{"role": "user", "content": "ç" * 30}]})
    )
    limits.check_chat(fits, 6 * 30 + 40)  # over the limit in bytes, within it in characters


def test_without_the_body_size_the_text_is_always_counted() -> None:
    chat = parse_chat(
        orjson.dumps({"model": "m", "messages": [{"role": "user", "content": "x" * 31}]})
    )
    with pytest.raises(InvalidRequest):
        EdgeLimits(max_request_chars=30).check_chat(chat)
