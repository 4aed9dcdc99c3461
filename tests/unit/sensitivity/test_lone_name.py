"""A lone first name that is an everyday word counts as a person only when used as a name."""

from __future__ import annotations

import pytest

from gateway.sensitivity.lone_name import used_as_name


def _at(text: str, word: str) -> bool:
    i = text.index(word)
    return used_as_name(text, i, i + len(word))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Bayram tatilinde diyabet hastaları oruç tutmalı mı?", "Bayram"),
        ("Umut verici bir kanser tedavisi bulundu.", "Umut"),
        ("Can you explain how HIV spreads?", "Can"),
    ],
)
def test_everyday_word_at_sentence_start_is_no_one(text: str, word: str) -> None:
    assert not _at(text, word)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Dün Umut ile konuştuk, depresyonda.", "Umut"),
        ("Deniz'in ameliyatı yarın.", "Deniz"),
        ("Can dedi ki sendikaya üye olmuş.", "Can"),
        ("Sayın Bayram, raporunuz hazır.", "Bayram"),
        ("Ayşe yarın gelmeyecek.", "Ayşe"),
    ],
)
def test_name_used_as_a_name_counts(text: str, word: str) -> None:
    assert _at(text, word)
