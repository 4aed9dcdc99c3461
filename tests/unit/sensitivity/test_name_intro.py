"""The one table of words that introduce a name (name_intro): every entry is a word of the word
view, says one way it introduces, and that way finds the name it stands before; the same word
before an everyday word finds nothing."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from gateway.sensitivity.name_intro import INTRODUCERS, How
from gateway.sensitivity.names import person_names
from tests.unit.sensitivity.helpers import word_view_of


def _names(text: str) -> set[tuple[str, str]]:
    """(name, detector) of each person name found in `text`."""
    _, words, found = word_view_of(text)
    return {(text[c.start : c.end], c.detector) for c in person_names(text, words, found)}


def test_every_entry_is_a_word_of_the_word_view_and_listed_once() -> None:
    for entry in INTRODUCERS:
        assert re.fullmatch(r"[a-z]+", entry.word), entry
        assert entry.after is None or (entry.how is How.SELF and entry.after.isalpha()), entry
    twice = [k for k, n in Counter((e.word, e.how) for e in INTRODUCERS).items() if n > 1]
    assert not twice


@pytest.mark.parametrize(
    ("how", "text", "name", "reason"),
    [
        (How.LABEL, "alıcı: doğan yavuz, kapıya bırakın", "doğan yavuz", "name_label"),
        (How.OWN_NAME, "merhaba, adım umut ve siparişimi soracaktım", "umut", "name_intro"),
        (How.SELF, "selam ben tuncay, kargom gelmedi", "tuncay", "name_intro"),
        (How.SELF, "hi, i'm nadia, 28, looking for a room", "nadia", "name_intro"),
        (How.WHOSE, "her name's ruth and she starts monday", "ruth", "name_intro"),
        (How.KIN, "komşunuz gökhan olarak yazıyorum", "gökhan", "name_intro"),
    ],
)
def test_each_way_finds_the_name_it_introduces(how: How, text: str, name: str, reason: str) -> None:
    assert (name, reason) in _names(text), how


@pytest.mark.parametrize(
    "text",
    [
        "alıcı: doğan bir kedi gibi sessizce girdi",  # a label before no listed surname
        "ben umut ediyorum ki toplantı kısa sürer",  # 'ben' with no comma or stop after
        "i am nadia's manager and i approve the leave",  # 'am' wants 'i' and then a stop
        "the boss is kerem, ask him",  # 'is' gives the writer's own name only after 'this'
        "the name is ruth and it is on the form",  # 'name is' without whose
        "oğlum can sıkıntısından ne yapacağını bilmiyor",  # kin before an everyday word
    ],
)
def test_the_same_words_before_everyday_words_find_no_introduced_name(text: str) -> None:
    assert not {r for _, r in _names(text) if r in ("name_label", "name_intro")}
