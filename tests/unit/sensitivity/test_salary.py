"""What someone earns, with the amount, is personal data: the writer's own pay ('maaşım 55 bin',
'net maasim 41.250 tl', 'my salary is £38,000') and a named person's or a relative's ("Mustafa'nın
net salary'si 39k", 'eşimin maaşı 40 bin'). Pay that belongs to no one stays public: the
minimum wage, an average, a job ad's band, a question without an amount."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import Detectors, SensitivityConfig

_SOMEONES = [
    "Ben 6 yıldır aynı yerdeyim, maaşım 55 bin brüt, ne kadar zam isteyebilirim?",
    "ablacim maasim 32 bin net, kira 18 bin. nasil butce yaparim",
    "Şu anki maaşım 78.000 brüt, yeni teklif 95.000.",
    "Mustafa'nın net salary'si 39k, avansı 10k.",
    "Eşimin maaşı 40 bin TL, benimki 35 bin.",
    "my salary is £38,000 and I want a raise",
    "She earns 3,200 euros a month after tax.",
    "Ayşe Hanım'ın maaşı 62.500 TL olarak güncellendi.",
    "ik notu: volkan ertan net maas 68.500 tl, ocak zammi sonrasi 79.000",
    "Confidential: Gökhan's base is $9,200/month.",
]
_NO_ONES = [
    "Asgari ücret 22.104 TL oldu.",
    "Ortalama yazılımcı maaşı 80 bin TL civarında.",
    "Developer salaries start at 60k in London.",
    "The salary band for this role is 45k-55k.",
    "Maaşımı nasıl hesaplarım? Brütten nete çeviren bir formül var mı?",
    "In 2024 the average wage was 3,200 euros.",
    "We offer a competitive salary of 50k plus bonus.",
    "My salary review is in 2025, what should I prepare?",
]


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(SensitivityConfig(judge={"enabled": False}), cache_entries=0)


@pytest.mark.parametrize("text", _SOMEONES)
def test_someones_pay_with_its_amount_is_personal(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "personal", (text, result)
    assert "MAAS" in {e.type for e in result.entities}


@pytest.mark.parametrize("text", _NO_ONES)
def test_pay_of_no_one_is_public(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "public", (text, result)


def test_the_salary_detector_can_be_turned_off() -> None:
    off = Classifier(
        SensitivityConfig(judge={"enabled": False}, detectors=Detectors(salary=False)),
        cache_entries=0,
    )
    assert off.classify([_SOMEONES[0]]).data_class == "public"
