# ruff: noqa: E501  (sentence tables read better unwrapped)
"""Texts that speak to whoever reads them — a medicine leaflet, a staff handbook, a question
about a rule that applies to anyone — concern no one; the same words about the writer or a
named person stay special. Sentences written for these tests."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.document import corrected, to_readers
from gateway.sensitivity.special import CategoryHit
from gateway.sensitivity.training.generic import generic_examples
from gateway.sensitivity.training.vocab import TOPICS

PUBLIC = [
    "Staff handbook, part 3. If you have asthma, tell your line manager which inhaler you keep at your desk. Requests are handled by HR.",
    "Kullanma talimatı: böbrek yetmezliğiniz varsa bu ilacı kullanmadan önce doktorunuza veya eczacınıza danışınız.",
    "Do foreigners need a criminal record check to rent a flat in Izmir?",
    "Epilepsi hastalığınız varsa bu ilacı kullanmadan önce hekiminize danışınız.",
]


@pytest.mark.parametrize("text", PUBLIC)
def test_texts_to_whoever_reads_them_are_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


SPECIAL = [
    "Staff handbook, part 3. Kerem Aydın has asthma and keeps his inhaler at his desk.",
    "Böbrek yetmezliğim var, bu ilacı kullanmadan önce doktoruma danışmam gerekiyor mu?",
    "I have a criminal record from 2019; will that stop me renting a flat in Izmir?",
    "Dear all, our colleague Nilay Şahin has started chemotherapy and will work from home.",
]


@pytest.mark.parametrize("text", SPECIAL)
def test_the_same_words_about_someone_stay_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


def test_reader_markers() -> None:
    assert to_readers(b"please consult your pharmacist if it persists")
    assert to_readers(b"degerli calisma arkadaslarimiz, yarin ofis kapali")
    assert not to_readers(b"my pharmacist said it is fine")


def test_a_text_to_all_readers_raises_the_bar_for_judgements_about_no_one() -> None:
    nobody = CategoryHit("health", 0, 5, 0.7, stage="model", someone=False)
    somebody = CategoryHit("health", 0, 5, 0.7, stage="model", someone=True)
    plain = b"the clinic opens at nine"
    leaflet = b"if it persists, consult your pharmacist"
    assert corrected([nobody], 0.4, 0.6, plain)[0].confidence >= 0.5
    assert corrected([nobody], 0.4, 0.6, leaflet)[0].confidence < 0.5
    assert corrected([somebody], 0.4, 0.6, leaflet)[0].confidence == 0.7


def test_generic_training_pairs_are_balanced() -> None:
    import random

    made = list(
        generic_examples(
            random.Random(1),
            "health",
            TOPICS["health"],
            400,
            lambda r, lang: {"name": "Deniz Akın"},
        )
    )
    labels = [label for _, label, _ in made]
    assert 150 < sum(labels) < 250


EVERYDAY = [
    ("12:01 WARN sync job=nightly auto-adjust disabled, threshold ok", "public"),
    ("The retry feature is disabled by default in the config.", "public"),
    ("Menüye Süryani ve Ermeni mutfağından iki tatlı ekleyelim mi?", "public"),
    ("Festivalde Laz horonu ve Çerkez dansları sahnelenecek.", "public"),
    (
        "Cuma günkü müşteri etkinliği için dress code smart casual, fabrikada kapalı ayakkabı şart.",
        "public",
    ),
    # the same words about someone
    ("My son is disabled and needs a ramp at school.", "special"),
    ("Mehmet Arslan is disabled since the accident, please keep the ramp free.", "special"),
    ("Yeni stajyer Ermeni, ailesi Kumkapı'da yaşıyor.", "special"),
    ("Ayşe Demir keeps ignoring our dress code and comes in a headscarf.", "special"),
]


@pytest.mark.parametrize(("text", "expected"), EVERYDAY)
def test_everyday_senses_and_their_counterparts(clf: Classifier, text: str, expected: str) -> None:
    assert clf.classify([text]).data_class == expected


def test_a_person_of_a_turkic_people_stays_special(clf: Classifier) -> None:
    # 'Türkü' after a people's name is 'Türk' with a suffix, not a folk song
    assert (
        clf.classify(["Yeni muhasebecimiz Ahıska Türkü, Rusça da konuşuyor."]).data_class
        == "special"
    )
