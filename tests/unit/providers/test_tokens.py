"""The fast token estimate (cp1254 classes + C-level counts) equals the plain definition."""

from __future__ import annotations

import random
import re

import pytest

from gateway.core.types import ChatRequest
from gateway.providers.tokens import estimate_prompt_tokens, estimate_text_tokens

_PIECE = re.compile(r"\w+|[^\w\s]", re.UNICODE)


def plain(text: str) -> int:
    """One token per punctuation mark, 1 + (n - 1) // 4 per word of n characters."""
    n = 0
    for m in _PIECE.finditer(text):
        size = m.end() - m.start()
        n += 1 + (size - 1) // 4 if size > 1 else 1
    return n


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "a",
        "abcd",
        "abcde",
        "abcdefgh",
        "abcdefghi",
        "diyabetli hastalarımız.",
        "TCKN 10000000146, tel +90 532 123 45 67!",
        "İstanbul'da ŞEHİR ığüşöç",
        "²³ ½ µ ª º",
        "tab\tnew\nline\x1c\x1d\x1e\x1f\x85\xa0end",
        "emoji 😀 ok",
        "Arabic digits ٣٤٥٦٧ x",
        "a_b_c_d_e",
        "...",
        "—–“”‘’•…",
        "x" * 4001,
    ],
)
def test_matches_the_definition(text: str) -> None:
    assert estimate_text_tokens(text) == plain(text)


def test_random_texts_match_the_definition() -> None:
    alphabet = "aşçğıİöüAZ09_ \t\n.,;!?-—'\"ü€™²½😀٣\x85\xa0\u2028"
    rng = random.Random(7)
    for _ in range(5000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert estimate_text_tokens(s) == plain(s), repr(s)


def test_prompt_adds_four_per_message() -> None:
    req = ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "Merhaba!"},
            ],
        }
    )
    assert estimate_prompt_tokens(req) == plain("Be brief.") + plain("Merhaba!") + 8
