"""Identifiers and names in the shapes forms, bookings and quick notes give them: a passport
number under a field name ('passportNumber'), a mistyped or foreign passport word, eight digits
right under 'Pasaport No'; a birth date after 'doğ.' or with a two-digit year under a birth
column; given names of the young and surnames the lists lacked; a first name typed in lower
case beside a job or a birth year; a clinical note that heads its patient by sex and age; a
passenger name as airlines write it; and Saadet, a woman's name before it is a party's."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.subject import cues_of
from gateway.sensitivity.textnorm import fold_bytes


def _kinds(clf: Classifier, text: str) -> set[str]:
    return {e.type for e in clf.classify([text]).entities}


@pytest.mark.parametrize(
    "text",
    [
        '{"passportNumber": "U48213907", "nationality": "TR"}',
        "passenger.passportNo=U48213907 seat=14C",
        "pasaportundaki numara U48213907 olarak görünüyor",
        "Travel document no: U48213907",
        "pasport no: U12345678",
        "Reisepass Nr. C01X00T47",
        "Pasaport No: 12345678 (eski tip)",
    ],
)
def test_a_passport_number_under_any_passport_word_is_one(clf: Classifier, text: str) -> None:
    assert "PASAPORT" in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "passport no. 2024 yılında yenilendi, 12345678 TL ödedim",
        '{"productNumber": "U48213907", "stock": 12}',
        "Pasaport harcı 2026 yılında 12345678 kuruş değil",
    ],
)
def test_numbers_not_labelled_as_the_passports_are_none(clf: Classifier, text: str) -> None:
    assert "PASAPORT" not in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "1) Ege Kılınçarslan, doğ. 07/09/2014, forma no 8",
        "PNR,Ad,Soyad,DogumTarihi,Ucus\nK7Q2LM,Oya,Kandemir,12/03/87,TK2154",
        '{"name": "X", "dateOfBirth": "1987-03-12"}',
    ],
)
def test_a_birth_date_under_its_abbreviation_or_column_is_one(clf: Classifier, text: str) -> None:
    assert "DOGUM_TARIHI" in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "Sipariş tarihi 12/03/87, teslim 14/03/87",
        "hot dog 12.03.2024 fiyat listesi",
    ],
)
def test_a_two_digit_year_without_a_birth_word_is_no_birth_date(clf: Classifier, text: str) -> None:
    assert "DOGUM_TARIHI" not in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "Batu Sezgin bugün antrenmana gelmedi.",
        "Kayra Yücel ve Talha Korkmaz sunumu hazırlıyor.",
        "bizim kasadaki ayse caliskan cok kaba davrandi",
    ],
)
def test_young_given_names_and_frequent_surnames_are_names(clf: Classifier, text: str) -> None:
    assert "AD_SOYAD" in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "adı nesrin gölbaşı, doğum 1991, banka müdürü",
        "kübra taşdelen, depo şefi, esenyurt ana depo",
        "depo şefi kübra taşdelen izne çıktı",
    ],
)
def test_a_lower_case_first_name_beside_a_job_or_birth_year_is_personal(
    clf: Classifier, text: str
) -> None:
    result = clf.classify([text])
    assert "AD" in {e.type for e in result.entities}
    assert result.data_class == "personal"


@pytest.mark.parametrize(
    "text",
    [
        "hemşire olmak için sabır ve sevgi gerekir",
        "kasiyer olarak çalışmak istiyorum, nasıl başvurulur",
        "depo şefi ilanı: umut verici bir kariyer, 1990 sonrası doğumlular başvurabilir",
    ],
)
def test_a_job_without_a_listed_name_beside_it_names_no_one(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


@pytest.mark.parametrize("header", ["(M, 34)", "(K, 52)", "(34, F)"])
def test_a_patient_headed_by_sex_and_age_is_a_clinical_note(header: str) -> None:
    sentence = fold_bytes(f"Follow-up, clinic ref 20931 {header}. Continues treatment.")
    assert cues_of(sentence, False, False, False, False).clinical
    plain = fold_bytes("Follow-up, clinic ref 20931. Continues treatment.")
    assert not cues_of(plain, False, False, False, False).clinical


@pytest.mark.parametrize(
    "text",
    [
        "2025-08-03 checkin pnr=KX4T9Q pax='OZTURK/ALPERMR' doc_type=P seat=23C",
        "Passenger: SMITH/JANE MRS, seat 14A",
        "bilet: YILMAZ/AYSE, TK2154, 14C",
    ],
)
def test_a_passenger_name_in_the_airline_form_is_a_name(clf: Classifier, text: str) -> None:
    assert "AD_SOYAD" in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "The service speaks TCP/IP and reads INPUT/OUTPUT ports",
        "Kullanım: AND/OR operatörleri, HTTP/HTTPS yönlendirmesi",
        "Raporda ABC/DEFMR kodu geçiyor",
    ],
)
def test_capitals_around_a_slash_without_a_listed_name_are_none(clf: Classifier, text: str) -> None:
    assert "AD_SOYAD" not in _kinds(clf, text)


def test_a_woman_named_saadet_says_nothing_of_a_party(clf: Classifier) -> None:
    text = "Annem Saadet Erginer'in 14 Kasım 1956 doğumlu olduğunu biliyorum, davetiye yazar mısın"
    assert clf.classify([text]).data_class == "personal"
