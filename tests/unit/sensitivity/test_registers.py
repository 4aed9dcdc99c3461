"""Text as people type it: a name in lower case or given by a title only is a person; a date's
or a title's full stop does not end the sentence that ties a topic to its subject; everyday
words for a condition, a practice or a record are topics. Talk about the same topics with no
one concerned stays below special, and everyday words that are also names stay text."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.special import _sentence
from gateway.sensitivity.textnorm import encode_text, fold_encoded


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


@pytest.mark.parametrize(
    "text",
    [
        "zeynep hanım yarın sabah faturaları getirecek",
        "osman bey ile sözleşmeyi cuma imzalıyoruz",
        "Dr. Kaplan perşembe günü izinli, randevuları kaydırın",
        "Mrs. Okafor asked for the invoice to be resent",
        "lütfen fatma yıldırım'ın sözleşmesini arşive kaldır",
        "sayın hakan koç, başvurunuz alınmıştır",
    ],
)
def test_lowercase_and_title_only_names_are_personal(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "personal", found.as_record()


@pytest.mark.parametrize(
    "text",
    [
        "umut verici sonuçlar aldık, deniz yolu taşımacılığı büyüyor",
        "can sıkıcı bir hata var, kara liste güncellenmeli",
        "we will mark the tickets as done in june",
    ],
)
def test_everyday_words_that_are_names_stay_public(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class == "public", found.as_record()


def _folded(text: str) -> bytes:
    return fold_encoded(encode_text(text)[0])


def test_a_date_does_not_end_the_sentence() -> None:
    text = _folded("Personel Ali Kaya. 07.11.2024 tarihli rapora göre migren hastası.")
    at = text.index(b"migren")
    start, end = _sentence(text, at, at + 6)
    assert text[start:end].startswith(b" 07.11.2024")
    text = _folded("Dr. Aksoy: hasta diyabetli.")
    at = text.index(b"diyabet")
    assert _sentence(text, at, at + 7)[0] == 0


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Personelimiz Hakan Öztürk 14.02.2025 tarihli rapora göre migren hastası.", "health"),
        ("I have been on levetiracetam since my second seizure.", "health"),
        ("my dad goes to alcoholics anonymous twice a week now", "health"),
        ("kayınpederim hemodiyalize giriyor, pazartesi izin istiyorum", "health"),
        ("Our tenant told us she is hemcinsine aşık and her family cut her off.", "sexual_life"),
        ("ben vegan değilim ama vejetaryenim, menüde buna dikkat edin", "philosophical_belief"),
        ("our driver Paul has an electronic tag until the end of his sentence", "criminal_record"),
    ],
)
def test_everyday_wording_about_a_person_is_special(
    clf: Classifier, text: str, category: str
) -> None:
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()
    assert category in found.categories


@pytest.mark.parametrize(
    "text",
    [
        "What is the usual starting dose of levetiracetam?",
        "Alcoholics Anonymous was founded in 1935; summarise its history.",
        "hemodiyaliz ünitesi için cihaz tedarik şartnamesi hazırla",
        "How do electronic tags for offenders work?",
    ],
)
def test_the_same_words_in_general_talk_stay_below_special(clf: Classifier, text: str) -> None:
    found = clf.classify([text])
    assert found.data_class != "special", found.as_record()
