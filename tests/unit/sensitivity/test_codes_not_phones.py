"""Digits inside a code (a tool call's hex id, a request id) are no phone number, even next to
a phone word such as 'call': such ids travel in every tool-calling conversation, and reading
them as phones made one in ten of them personal data (the round trip then refused by a
public-only cloud alias)."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


@pytest.mark.parametrize(
    "text",
    [
        "call_2783e5336c85dc3ec6492305",
        "call_b5193b7550593a3bfa728a04",
        "call_925636e5095142851f0c64e8",
        "call_379f09581850379f395d0517",
        '{"tool_call_id": "call_4292dba5d9278006a2e7dd25", "content": "{\\"temp_c\\": 21}"}',
    ],
)
def test_hex_ids_after_a_phone_word_are_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


@pytest.mark.parametrize(
    "text",
    [
        "Beni tel 412 58 37 numarasından arayabilirsiniz.",
        "call me on 0532 123 45 67 tomorrow",
        "tel:05321234567",
    ],
)
def test_phone_numbers_standing_alone_are_still_found(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "personal"
    assert "TELEFON" in {e.type for e in found.entities}
