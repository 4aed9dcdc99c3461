"""A plate next to where a car was left ('park etmiş', 'parked') is a plate even typed in lower
case with hyphens; a parking fee with numbers stays public."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


@pytest.mark.parametrize(
    "text",
    [
        "komşu 34-abc-12 gri fiat yine garajın önüne park etmiş",
        "someone parked 06 ab 1234 across the loading bay again",
    ],
)
def test_a_parked_car_plate_is_personal(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert any(e.type == "PLAKA" for e in result.entities), result.as_record()


def test_parking_prices_stay_public(clf: Classifier) -> None:
    assert clf.classify(["Parking fee is 25 TL for 2 hours, 40 TL for the day."]).data_class == (
        "public"
    )
