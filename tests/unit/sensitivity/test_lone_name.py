"""A lone first name that is an everyday word counts as a person only when used as a name."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import Judge, SensitivityConfig
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


def _context_only() -> Classifier:
    """The context model decides alone: what it makes of the name, not the judge's second look."""
    return Classifier(SensitivityConfig(judge=Judge(enabled=False)), cache_entries=0)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        (
            "reminder: tuğba'nın sendika aidatı payroll'dan kesiliyor, export'a koymayın",
            "membership",
        ),
        (
            "yusuf'un 14 kasımdaki duruşması sentencing için, avukatı ertelenme bekliyor",
            "criminal_record",
        ),
        ("aysegul'un yeni yuz verisi turnikeye yuklenmemis, bilgi islem kayit alsin", "biometric"),
    ],
)
def test_a_lower_case_name_with_an_apostrophe_is_someone(text: str, category: str) -> None:
    """Only a name takes an apostrophe before its case ending or possessive: typed in lower
    case it is still the person the special statement is about."""
    found = _context_only().classify([text])
    assert found.data_class == "special", found.as_record()
    assert category in found.categories


def test_an_everyday_word_with_an_apostrophe_is_no_one() -> None:
    # 'umut' (hope) is also a name: its apostrophe alone does not make it someone here
    found = _context_only().classify(["umut'un sendika aidatı hakkında genel bilgi"])
    assert found.data_class != "special", found.as_record()
