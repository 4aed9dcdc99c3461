"""A topic word followed by what it qualifies, owned by the writer ('sendika üyeliğim', 'kanser
tedavim'), says the membership or treatment is the writer's own; the same words without the
ending ask about the topic in general."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier

OWN = (
    "kanser tedavim bitti sonunda.",
    "psikiyatri randevum saat 3te.",
    "sendika uyeligim dustu mu acaba?",
    "Sendika üyeliğim devam ediyor mu?",
)

GENERAL = (
    "Sendika üyeliği nasıl iptal edilir?",
    "kanser tedavisi ne kadar sürer?",
    "psikiyatri randevusu nasıl alınır?",
    "Kemoterapi seansları kaç hafta sürer?",
    "HIV testi nerede yapılır?",
)


@pytest.mark.parametrize("text", OWN)
def test_the_writers_own_membership_or_treatment_is_special(clf: Classifier, text: str) -> None:
    res = clf.classify([text])
    assert res.data_class == "special" and res.stage == "rules", (res.data_class, res.stage)


@pytest.mark.parametrize("text", GENERAL)
def test_the_same_words_about_no_one_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


def test_a_contracts_penalty_clause_is_no_criminal_record(clf: Classifier) -> None:
    # 'cezai şart' is a penalty clause in a contract; a criminal proceeding still counts
    for text in (
        "MADDE 6 – CEZAİ ŞART: gecikmede aylık bedelin %10'u indirilir.",
        "Cezai şartın tutarı 10.000 TL.",
    ):
        assert clf.classify([text]).data_class == "public", text
    assert clf.classify(["Ahmet Yılmaz hakkında cezai işlem başlatıldı."]).data_class == "special"
