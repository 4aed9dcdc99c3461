"""Special categories named indirectly or in forms no lexicon lists: a condition by its drug or
its operation, a union by its name, 'Kürt' with its Turkish letter; a surname is no topic.
Talk about the same topics with no person concerned stays below special."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.morphology import medical_words
from gateway.sensitivity.spelling import diacritic_words
from gateway.sensitivity.textnorm import encode_text, fold_encoded, word_view


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Hastam kanser", "health"),
        ("Hastam depresyonda", "health"),
        ("Hastam HIV pozitif", "health"),
        ("Hastamız Ayşe Yılmaz (TC 10000000146) için epikriz yaz", "health"),
        ("My patient has been on Keytruda since the spring.", "health"),
        ("Our employee Selin had a thyroidectomy last week and needs light duties.", "health"),
        ("Hastamıza dün kolesistektomi yapıldı, taburcu planı yapalım.", "health"),
        ("Müvekkilim geçen yıl hırsızlık suçundan tutuklandı.", "criminal_record"),
        ("Babam 30 yıldır Tez-Koop-İş üyesi.", "membership"),
        ("Yeni komşumuz Kürt, annesi Türkçeyi zor konuşuyor.", "ethnicity"),
        ("I'm a practising Muslim and need a prayer room.", "religion"),
    ],
)
def test_indirect_statement_about_a_person_is_special(
    clf: Classifier, text: str, category: str
) -> None:
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()
    assert category in found.categories


@pytest.mark.parametrize(
    "text",
    [
        "Kanser taramaları kaç yaşında başlamalı?",
        "What does a course of Keytruda cost in general?",
        "Explain what a thyroidectomy is for a patient leaflet.",
        "CHP ve AKP'nin ekonomi programlarını karşılaştır.",
        "What are the five pillars of Islam?",
        "Sendikalar kanununa göre toplu sözleşme süreci nasıl işler?",
        "Türkiye'de diyabet oranı yüzde 14'e ulaştı.",
        "Kurt gibi acıktım, öğle yemeğine ne yiyelim?",
        "We moved the diploma files; the aroma of coffee filled the room.",
    ],
)
def test_general_talk_about_the_same_topics_is_public(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "public", result.as_record()


@pytest.mark.parametrize(
    "text", ["Ahmet Kurt toplantıya geç kaldı.", "Elif Özbek raporu gönderdi."]
)
def test_a_surname_after_a_first_name_is_no_topic(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "personal", result.as_record()
    assert not result.categories


def _words(text: str) -> tuple[bytes, bytes]:
    encoded, _ = encode_text(text)
    return encoded, word_view(fold_encoded(encoded))


def test_medical_words_are_found_by_their_form() -> None:
    _, words = _words("pt had a lumpectomy; kolesistektomisi sonrası; arthritis, melanoma")
    assert [t for _, _, t in medical_words(words)] == [
        b"lumpectomy",
        b"kolesistektomisi",
        b"arthritis",
        b"melanoma",
    ]
    _, prose = _words("The diploma, the aroma and hypnosis; otomasyon sistemi.")
    assert list(medical_words(prose)) == []


def test_kurdish_is_told_from_wolf_by_its_turkish_letter() -> None:
    encoded, words = _words("Komşumuz KÜRT, kurt gibi aç; Kürtçe konuşuyor.")
    found = [(words[s:e], cat) for s, e, _, cat in diacritic_words(encoded, words)]
    assert found == [(b"kurt", "ethnicity"), (b"kurtce", "ethnicity")]


@pytest.mark.parametrize(
    "text",
    [
        "aslen kurtuz, dedem Mardin'den gelmis",
        "annem de babam da kurt, evde kurtce konusuruz",
        "biz kurtler bayramda koye gideriz",
    ],
)
def test_kurdish_typed_without_its_letter_is_found_in_forms_a_wolf_never_takes(
    clf: Classifier, text: str
) -> None:
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()
    assert "ethnicity" in found.categories


@pytest.mark.parametrize(
    "text",
    [
        "ormanda bir kurt gordum, cok korktum",
        "kurtlerin tarihi uzerine akademik makaleleri ozetle",
        "Kurt Cobain'in sarkilarini Turkceye cevir",
    ],
)
def test_wolf_and_general_talk_typed_without_turkish_letters_stay_public(
    clf: Classifier, text: str
) -> None:
    result = clf.classify([text])
    assert result.data_class == "public", result.as_record()
