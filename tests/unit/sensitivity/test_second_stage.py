"""The second stage: a special-category topic counts only when the statement concerns an
identifiable or first-person individual; talk about the topic stays public. Lower case and text
typed without Turkish letters are judged alike; every result carries a band and the stage that
decided it."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import Judge, SensitivityConfig
from gateway.sensitivity.detect import Detectors
from gateway.sensitivity.subject import SubjectModel, load_model

# (category, about an individual, general talk about the same topic)
PAIRS = [
    (
        "health",
        "Hastam kanser, kemoterapiye ne zaman başlamalı?",
        "Kanser taraması kaç yaşında başlar?",
    ),
    (
        "health",
        "Hastam depresyonda, ilacını değiştirmeli miyim?",
        "Depresyonun belirtileri nelerdir?",
    ),
    ("health", "Hastam HIV pozitif, partnerine nasıl söylemeli?", "HIV nasıl bulaşır?"),
    (
        "health",
        "Hastamız Ayşe Yılmaz (TC 10000000146) için epikriz yaz.",
        "Epikriz nasıl yazılır, genel bir şablon ver.",
    ),
    (
        "health",
        "Oğlum epilepsi ilacı kullanıyor, okula söylemeli miyiz?",
        "Epilepsi nöbeti sırasında ne yapılmalı?",
    ),
    (
        "health",
        "My wife is on chemo and I need leave next week.",
        "How does chemotherapy damage cancer cells?",
    ),
    (
        "political_opinion",
        "Geçen seçimde CHP'ye oy verdim, müdürüm öğrenirse ne olur?",
        "CHP'nin kuruluş yılı nedir?",
    ),
    (
        "political_opinion",
        "My colleague Mary Brown is a registered Republican.",
        "What is the history of the Republican Party?",
    ),
    ("sexual_life", "Ben eşcinselim ve ailem bilmiyor.", "Eşcinsel evlilik hangi ülkelerde yasal?"),
    (
        "sexual_life",
        "I'm bisexual and scared to come out at work.",
        "What does the research say about bisexual visibility?",
    ),
    (
        "membership",
        "Çalışanımız Hakan sendikaya üye oldu, aidatı bordrodan kesin.",
        "Sendika üyeliği nasıl sona erer?",
    ),
    (
        "appearance",
        "Çalışanımız Fatma başörtülü, müşteri ziyaretine gitsin mi?",
        "Başörtüsü yasağı ne zaman kalktı?",
    ),
    (
        "genetic",
        "Müvekkilimin babalık testi sonucu dosyaya eklendi.",
        "Babalık testi nasıl yapılır?",
    ),
    (
        "criminal_record",
        "Kardeşim dün gözaltına alındı, avukat lazım.",
        "Gözaltı süresi en fazla kaç gündür?",
    ),
    ("religion", "Komşum Yehova Şahidi, kan nakline izin vermiyor.", "Yehova Şahitleri kimdir?"),
    (
        "ethnicity",
        "Kiracımız Arap asıllı diye yönetim şikayet ediyor.",
        "Arap asıllı nüfus hakkında istatistik var mı?",
    ),
]


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier()


@pytest.mark.parametrize(("category", "about", "general"), PAIRS)
def test_statement_about_an_individual_is_special_topic_talk_is_not(
    clf: Classifier, category: str, about: str, general: str
) -> None:
    found = clf.classify([about])
    assert found.data_class == "special", found.as_record()
    assert category in found.categories
    talk = clf.classify([general])
    assert talk.data_class == "public", talk.as_record()


@pytest.mark.parametrize(
    "text",
    [
        "hastam kanser, kemoterapiye ne zaman baslamali?",
        "HASTAM KANSER, KEMOTERAPİYE NE ZAMAN BAŞLAMALI?",
        "annemin seker hastaligi var, insulin dozunu artiralim mi",
        "cocugum otizm tanisi aldi okula nasil anlatalim",
        "ben escinselim ve ailem bilmiyor",
        "calisanimiz sendikaya uye oldu aidat kesilsin",
    ],
)
def test_lower_case_and_ascii_folded_text_is_judged_alike(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


def test_a_sensitive_sentence_buried_in_a_long_document_is_found(clf: Classifier) -> None:
    filler = "Toplantıda bütçe, satış hedefleri ve depo planı konuşuldu. " * 80
    doc = filler + "Not: çalışanımız Ali Kaya depresyon nedeniyle raporlu. " + filler
    assert len(doc) > 8000
    assert clf.classify([doc]).data_class == "special"
    assert clf.classify([filler * 2]).data_class == "public"


def test_result_names_the_stage_and_band(clf: Classifier) -> None:
    me = clf.classify(["Diyabetim var, şekerim 180."])  # first-person ending: a rule
    assert (me.stage, me.band) == ("rules", "confident")
    talk = clf.classify(["Diyabetin belirtileri nelerdir?"])  # judged by the model
    assert talk.stage == "model" and talk.data_class == "public"
    plain = clf.classify(["Toplantı yarın saat onda."])  # no topic: the second stage never ran
    assert (plain.stage, plain.band) == ("lexicon", "confident")
    ident = clf.classify(["TC 10000000146, randevu saati 10:00."])
    assert (ident.data_class, ident.stage) == ("personal", "detectors")


def test_a_judgement_between_the_band_limits_is_uncertain() -> None:
    """A model that cannot tell (probability 0.5) gives an uncertain hit; one that is sure
    gives a confident hit."""
    text = "Hastam kanser."
    unsure = Detectors(SensitivityConfig(), model=SubjectModel({}, 0.0))
    _, cats, _ = unsure.run(text, 0.5)
    assert cats and all(c.band == "uncertain" and c.stage == "model" for c in cats)
    sure = Detectors(SensitivityConfig(), model=SubjectModel({}, 4.0))
    _, cats, _ = sure.run(text, 0.5)
    assert cats and all(c.band == "confident" and c.confidence > 0.9 for c in cats)


def test_uncertain_band_reaches_the_result() -> None:
    clf = Classifier(SensitivityConfig(judge=Judge(enabled=False)))  # the context model's band
    clf._detectors = Detectors(clf.config, model=SubjectModel({}, -0.4))  # p = 0.40
    res = clf.classify(["Hastam kanser."])
    assert res.data_class == "public" and res.band == "uncertain" and res.stage == "model"
    assert res.as_record()["band"] == "uncertain"


def test_the_shipped_model_is_loaded() -> None:
    assert load_model() is not None
