"""Identifiers in the shapes other countries write them: a Maestro card (50, 56-58) is a card,
and a North American number written the way it is there ('(415) 555-0148', '212-555-0199') is
a phone, while the same digits next to an order or invoice word are not. A passport number is
one where the passport word and a number word come a little before it, not another document's
number beside that word."""

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
        "use my card for the tickets: 5628 5455 7273 6713, exp 11/27",
        "airbnb'yi benim kartla ödedim (5800 6423 0192 3124), you each owe me 2100",
        "Maestro kartım 5018 1234 5678 9014, son kullanma 04/28",
    ],
)
def test_a_maestro_card_is_a_card(clf: Classifier, text: str) -> None:
    assert "KART" in _kinds(clf, text)


def test_the_same_digits_failing_the_check_digit_are_no_card(clf: Classifier) -> None:
    assert "KART" not in _kinds(clf, "use my card for the tickets: 5628 5455 7273 6714")


@pytest.mark.parametrize(
    "text",
    [
        "can u text my mom at (415) 555-0148 when the car is ready?",
        "ring me 212-555-0199 tonight",
        "Office line (646)555-0123, ask for Dana.",
    ],
)
def test_a_north_american_number_in_its_own_shape_is_a_phone(clf: Classifier, text: str) -> None:
    assert _kinds(clf, text) == {"TELEFON"}


@pytest.mark.parametrize(
    "text",
    [
        "Sipariş no 415-555-0148 kargoda",
        "fatura tutarı 1.250,00 TL, 212.555.0199 referans",
        "Ankara ofis: (312) 444 12 34",  # a Turkish landline, read as before
        "build 2024-555-0148 failed",  # a four-digit first group is no area code
    ],
)
def test_the_same_digits_as_a_reference_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


@pytest.mark.parametrize(
    "text",
    [
        "my passport got renewed since i booked, the new number is 126447109, can you update it",
        "pasaportumu yeniledim, yeni numara u23456789",
        "Passport: 549012783 (UK), expires 2031",
        "Pasaport no: U 12345678, adı Ali Kaya",
    ],
)
def test_a_passport_number_named_a_little_before_it_is_one(clf: Classifier, text: str) -> None:
    assert "PASAPORT" in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "pasaport başvurusu için randevu no 123456789",
        "pasaport başvuru numarası 123456789",
        "my passport expired, the case number is 123456789",
        "I need a passport photo for order number 123456789",
    ],
)
def test_another_documents_number_beside_the_passport_word_is_none(
    clf: Classifier, text: str
) -> None:
    assert "PASAPORT" not in _kinds(clf, text)


def test_a_passport_block_with_its_number_a_few_fields_on_is_one(clf: Classifier) -> None:
    text = (
        "Passport details: Full name: Selin Aktaş / Nationality: TUR / Issued: 2022 / "
        "Place of issue: Ankara / Number: U48213975 / Expiry: 2032"
    )
    assert "PASAPORT" in _kinds(clf, text)


def test_another_number_far_after_the_passport_word_is_none(clf: Classifier) -> None:
    text = (
        "Passport office opening hours changed this month; the desk on the third floor now "
        "closes at four. Your appointment ref no: U48213975, bring the printed form with you."
    )
    assert "PASAPORT" not in _kinds(clf, text)


@pytest.mark.parametrize(
    "text",
    [
        "pasaport no: K-48213975, vize başvurusu için",
        "Pasaport: K 482 139 75 (yeni çıktı)",
        "PP No: K48213975 — please add it to the booking",
    ],
)
def test_a_passport_number_hyphened_grouped_or_under_pp_is_one(clf: Classifier, text: str) -> None:
    assert "PASAPORT" in _kinds(clf, text)


@pytest.mark.parametrize("text", ["see pp. 48213975 for the tables", "order no K-48213975"])
def test_pages_and_orders_are_no_passport(clf: Classifier, text: str) -> None:
    assert "PASAPORT" not in _kinds(clf, text)
