"""A plate next to where a car was left ('park etmiş', 'parked') or stands in the way ('whoever
owns ..., you are blocking') is a plate even typed in lower case with hyphens; a parking fee
with numbers stays public."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


@pytest.mark.parametrize(
    "text",
    [
        "komşu 34-abc-12 gri fiat yine garajın önüne park etmiş",
        "someone parked 06 ab 1234 across the loading bay again",
        "whoever owns 16 DT 518 pls move it, your blocking the gym entrance",
    ],
)
def test_a_parked_car_plate_is_personal(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert any(e.type == "PLAKA" for e in result.entities), result.as_record()


def test_parking_prices_stay_public(clf: Classifier) -> None:
    assert clf.classify(["Parking fee is 25 TL for 2 hours, 40 TL for the day."]).data_class == (
        "public"
    )


def test_an_owned_share_count_is_not_a_plate(clf: Classifier) -> None:
    # 'owns' reads a plate only in a plate's shape: a province, letters, digits
    assert clf.classify(["She owns 16 shares and 518 options."]).data_class == "public"


@pytest.mark.parametrize(
    "text",
    [
        # the vehicle word inflected: 'arabası', 'arabam', 'aracımı'
        "babamın arabası 41 KM 307, sigortası bu hafta bitiyor",
        "arabam 35 RT 2260, servisten ne zaman alabilirim",
        "aracımı satıyorum, plakası 07.DF.419, ekspertizi yeni",
        # the groups written apart by full stops
        "07.DF.419 plakalı beyaz hatchback",
    ],
)
def test_a_plate_beside_an_inflected_vehicle_word_or_dotted_is_personal(
    clf: Classifier, text: str
) -> None:
    result = clf.classify([text])
    assert any(e.type == "PLAKA" for e in result.entities), result.as_record()


def test_a_dotted_code_written_half_apart_is_no_plate(clf: Classifier) -> None:
    result = clf.classify(["aracın kaydı: form 07.DF 419 sayfada"])
    assert not any(e.type == "PLAKA" for e in result.entities), result.as_record()
