"""A face match logged for a named person ('yüz_eşleşme=0.97 personel=...', 'FaceMatch ...
subject=...') is biometric data about that person; the same word in a setting names no one.
Conditions and beliefs named by a device, a scan or a movement ('ortez', 'anatomy scan',
'derin ekoloji') count when they concern someone, and stay public as general questions."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(SensitivityConfig(judge={"enabled": False}), cache_entries=0)


@pytest.mark.parametrize(
    "text",
    [
        "2025-02-14 07:58:31 TURNIKE-2 yüz_eşleşme=0.94 personel=Gamze Uçar sicil=1187 GİRİŞ",
        'FaceMatch ts=2025-06-01T06:12:44Z subject="Tarık Ekinci" gallery=EMP-3310 score=0.98',
        "kamera kaydında yüzü eşleşti, gelen kişinin Erdem Sarp olduğu doğrulandı",
    ],
)
def test_a_face_match_logged_for_someone_is_biometric(clf: Classifier, text: str) -> None:
    res = clf.classify([text])
    assert res.data_class == "special"
    assert "biometric" in res.categories


@pytest.mark.parametrize(
    "text",
    [
        "config: facematch_threshold=0.92, retries=3",
        "Yüz eşleşme eşiğini 0.9'dan 0.95'e çekersek yanlış kabul oranı ne olur?",
    ],
)
def test_a_face_match_setting_names_no_one(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


@pytest.mark.parametrize(
    "text",
    [
        "annem dizine ortez taktığı için merdiven çıkamıyor, zemin katta oda rica ediyoruz",
        "Hi Priya, your anatomy scan is booked for Tuesday 9:20 at the women's unit",
        "i started covering my hair last month and my manager keeps commenting on it",
        "Ekipten Bora derin ekoloji görüşü yüzünden maden şirketinin projesinde çalışmıyor",
    ],
)
def test_indirect_terms_about_someone_are_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


@pytest.mark.parametrize(
    "text",
    [
        "Ortez ile korse arasındaki fark nedir?",
        "What does a 20-week anatomy scan usually check?",
        "Derin ekoloji akımının kurucusu kimdir?",
    ],
)
def test_the_same_terms_in_general_questions_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


def test_a_coded_value_in_a_record_that_names_its_person_counts(clf: Classifier) -> None:
    text = (
        "2025-03-01 06:02:11 INFO payroll.deduction employee=MertAydin(5531) "
        "code=UNION_DUES_TEKSIF amount=41.00 status=applied"
    )
    res = clf.classify([text])
    assert res.data_class == "special"
    assert "membership" in res.categories


@pytest.mark.parametrize(
    "text",
    [
        "2025-03-01 06:02:11 INFO payroll.deduction code=UNION_DUES_TEKSIF total=8120.00 n=198",
        "ALTER TABLE payroll ADD COLUMN union_dues_code varchar(32);",
    ],
)
def test_the_same_code_in_a_total_or_a_schema_names_no_one(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"
