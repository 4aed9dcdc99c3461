"""Names and passports in shapes the lists alone miss: a second name ending in s that is a
listed name ('Aras', 'Idris'), not a plural; a Turkish compound surname typed in lower case
('şahinkaya', 'öztekin', 'özdemirci'); and a passport's machine-readable zone, whose check
digits tell it from a row of capitals and filler."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(SensitivityConfig(judge={"enabled": False}), cache_entries=0)


def _kinds(clf: Classifier, text: str) -> set[str]:
    return {e.type for e in clf.classify([text]).entities}


@pytest.mark.parametrize(
    "text",
    [
        "Melike Aras joined the design team as a junior illustrator this week",
        "Please add Yusuf Idris to the vendor onboarding call on Thursday",
        "Onaylayan: Hakan Yunus, satın alma birimi",
    ],
)
def test_a_listed_name_ending_in_s_is_a_surname(clf: Classifier, text: str) -> None:
    assert "AD_SOYAD" in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "Kelly Services and Wendy Restaurants reported higher sales.",
        "Maria Cosmetics opens a new store in Kadıköy",
    ],
)
def test_a_plural_after_a_first_name_stays_no_surname(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


@pytest.mark.parametrize(
    "text",
    [
        "forklift sorumlusu sinan karakaya gece vardiyasına geçiyor",
        "kasadaki gizem öztekin bugün erken çıkacak, yerine kim bakar",
        "bizim muhasebeci levent özdemirci yeni beyannameyi hazırlamış",
        "müşteri temsilcisi ebru yavuzaslan iadeyi onayladığını söyledi",
    ],
)
def test_a_compound_surname_in_lower_case_makes_a_full_name(clf: Classifier, text: str) -> None:
    res = clf.classify([text])
    assert "AD_SOYAD" in _kinds(clf, text)
    assert res.data_class == "personal"


@pytest.mark.parametrize(
    "text",
    [
        "yarın sabah deniz kenarında yürüyüş yapalım mı",
        "umut etmekten vazgeçme, her şey düzelecek",
        "can sıkıntısından karakol önündeki banka oturduk",
    ],
)
def test_everyday_words_after_a_name_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


# the ICAO 9303 specimen's lines: passport L898902C3 (check digit 6), born 740812 (check 2)
_NAME_LINE = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
_NUMBER_LINE = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"


@pytest.mark.parametrize(
    "text",
    [
        f"Kiosk could not read this, please check:\n{_NAME_LINE}\n{_NUMBER_LINE}",
        f"misafirin MRZ satırı: {_NUMBER_LINE} (otel girişi)",
    ],
)
def test_a_machine_readable_zone_with_valid_check_digits_is_a_passport(
    clf: Classifier, text: str
) -> None:
    assert "PASAPORT" in _kinds(clf, text)
    assert clf.classify([text]).data_class == "personal"


def test_the_name_line_of_a_valid_zone_is_a_name(clf: Classifier) -> None:
    assert "AD_SOYAD" in _kinds(clf, f"{_NAME_LINE}\n{_NUMBER_LINE}")


@pytest.mark.parametrize(
    "text",
    [
        # one digit of the number changed: its check digit no longer holds
        "MRZ test vector: L898902C46UTO7408122F1204159ZE184226B<<<<<10",
        "Template: P<XXXSURNAME<<GIVEN<NAMES<<<<<<<<<<<<<<<<<<<<<<<",
        "while (a << 2) { b <<= 1; }",
    ],
)
def test_filler_and_broken_check_digits_are_no_passport(clf: Classifier, text: str) -> None:
    assert "PASAPORT" not in _kinds(clf, text)
    assert clf.classify([text]).data_class == "public"


@pytest.mark.parametrize(
    "text",
    [
        # everyday first names ('derya', 'can', 'deniz') after a job said right before them
        "ik notu: kasiyer derya yılmaz bu hafta iki kez geç geldi",
        "şoförümüz can demir yarın izinli, servis sabah gecikecek",
        "stajyer deniz kayalar'ın sözleşmesi haziranda bitiyor",
    ],
)
def test_a_job_before_a_lower_case_name_makes_it_one(clf: Classifier, text: str) -> None:
    assert "AD_SOYAD" in _kinds(clf, text)


def test_a_job_before_everyday_words_names_no_one(clf: Classifier) -> None:
    text = "kasiyer derya gibi sakin olmalı, müşteri ne derse desin"
    assert "AD_SOYAD" not in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "Cv özeti yaz: Gülsüm, 1987 doğumlu, on yıldır lojistikte",
        "A leaving card for Priya, born 1979, who retires on Friday",
        "dedem 1938'de Sivas'ın bir köyünde doğmuş, adı Hüseyin",
    ],
)
def test_a_first_name_with_a_birth_year_is_personal(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "personal"


@pytest.mark.parametrize(
    "text",
    [
        "Priya wrote the report in 1979 style, very retro",
        "1990 doğumlular için askerlik yoklaması ne zaman?",
    ],
)
def test_a_year_without_a_birth_word_or_a_name_names_no_one(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


def test_a_compact_ticket_birth_date_is_one(clf: Classifier) -> None:
    assert "DOGUM_TARIHI" in _kinds(clf, "PAX KORKMAZ/EMREMR DOB 14FEB91 SEAT 12A")


@pytest.mark.parametrize(
    "text",
    ["Ticket for Mr Sarıgül, seat 14C", "Saha ekibinden Hasan Sarıkaya yarın izinli"],
)
def test_surnames_that_start_like_a_turban_are_no_dress(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "personal"


@pytest.mark.parametrize(
    "text",
    [
        "Ask our receptionist Hilal for the spare key, she is in until six",
        "depodaki forklift operatörü Yasin bu hafta gece vardiyasında",
    ],
)
def test_a_first_name_with_a_job_is_personal(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "personal"


def test_a_job_without_a_name_names_no_one(clf: Classifier) -> None:
    text = "Our receptionist is in until six; the spare key is at the front desk"
    assert clf.classify([text]).data_class == "public"
