# ruff: noqa: E501  (sentence tables read better unwrapped)
"""A text that declares the people in it invented — an exam or case-based question, a moot, a
hypothetical — raises the bar for judgements that point only at a role ('a patient', 'a
candidate'); a name, I or my kin in the same text keeps the judgement. Sentences written for
these tests."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.document import corrected, declared
from gateway.sensitivity.special import CategoryHit
from gateway.sensitivity.subject import _first_person_tr

PUBLIC = [
    "Question 12: a 45-year-old patient presents with sudden loss of vision in one eye and a history of diabetes. What is the most likely cause? (Hypothetical case for revision.)",
    "For a moot court exercise: may a landlord refuse a tenant because of a past conviction for theft? Give both sides.",
    "Soru 9: 34 yaşında kadın hasta, iki haftadır süren öksürük ve gece terlemesi ile başvuruyor. Aşağıdakilerden hangisi ilk istenecek tetkiktir?",
]


@pytest.mark.parametrize("text", PUBLIC)
def test_declared_invented_cases_are_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"


SPECIAL = [
    "Question 12: my father, 45, presents with sudden loss of vision in one eye and has diabetes. What is the most likely cause?",
    "For a moot court exercise I need help, but first: I have a past conviction for theft, may my landlord refuse me?",
    "Soru 9: Annem 34 yaşında, iki haftadır öksürüğü ve gece terlemesi var, tüberküloz olabilir mi?",
    "Hypothetical question about Ahmet Korkmaz: he was diagnosed with epilepsy last year, can he keep his licence?",
]


@pytest.mark.parametrize("text", SPECIAL)
def test_the_same_case_about_a_real_person_stays_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


def test_declaration_markers() -> None:
    assert declared(b"q3. which of the following")
    assert declared(b"soru 14: asagidakilerden hangisi")
    assert declared(b"(case-based question, no real patient.)")
    assert not declared(b"the patient in bed 4 has diabetes")
    assert not declared(b"questions: call hr")


@pytest.mark.parametrize(
    "folded",
    [
        b"please summarize the plot in five points",
        b"bu vaka sorusu sinav icindir",
        b"isimler gercek kisiler degildir",
        b"question 12) a carrier mother",
        b"hazirlik: q12. which gene",
        b"a hypothetically pregnant employee",
        b"book club notes",
        b"bu romaninda bir doktor anlatilir",
    ],
)
def test_every_kind_of_declaration_is_found(folded: bytes) -> None:
    # plain words and numbered or worded forms are looked for in two ways: both must answer
    assert declared(folded)


def test_a_declared_case_lowers_roles_not_real_people() -> None:
    role = CategoryHit("health", 0, 5, 0.8, stage="model", someone=True, concrete=False)
    real = CategoryHit("health", 0, 5, 0.8, stage="model", someone=True, concrete=True)
    exam = b"q7. a patient presents with chest pain"
    assert corrected([role], 0.4, 0.6, exam)[0].confidence < 0.5
    assert corrected([real], 0.4, 0.6, exam)[0].confidence == 0.8
    assert corrected([role], 0.4, 0.6, b"a patient presents with chest pain")[0].confidence == 0.8


def test_nouns_in_im_are_not_the_writer() -> None:
    # inheritance, an election, an October date: no 'I'
    assert not _first_person_tr(b"x'e bagli kalitim")
    assert not _first_person_tr(b"pazar secim var")
    assert _first_person_tr(b"dun hastaneye gittim")


GROUPS = [
    ("Sayın Yolcularımız, sefer saatleri değişmiştir; sağlık raporu istenmeyecektir.", "public"),
    ("Sayın Katılımcılar, seminer salonu ikinci kattadır.", "public"),
    # a listed name after 'Sayın' stays a name, even when it ends like a plural
    ("Sayın Güler Aksoy, sendika üyeliğiniz onaylandı.", "special"),
    ("Sayın Kerem Aydın, başvurunuz alınmıştır.", "personal"),
]


@pytest.mark.parametrize(("text", "expected"), GROUPS)
def test_a_group_addressed_in_the_plural_is_no_name(
    clf: Classifier, text: str, expected: str
) -> None:
    assert clf.classify([text]).data_class == expected


def test_every_role_and_the_turkish_every_are_no_third_person() -> None:
    from gateway.sensitivity.subject import _THIRD_PERSON_EN as third

    assert third.search(b"her gun vejetaryen secenek bulunur") is None
    assert third.search(b"every employee may join a union") is None
    assert third.search(b"any candidate may apply") is None
    assert third.search(b"her sister is vegetarian") is not None
    assert third.search(b"the employee joined a union") is not None
    assert third.search(b"a company employee joined a union") is not None


def test_a_trade_with_our_is_someone_in_our_care() -> None:
    from gateway.sensitivity.subject import _POSSESSIVE_ROLE as ours

    assert ours.search(b"yeni muhasebecimiz diyabet hastasi") is not None
    assert ours.search(b"temizlikcimiz bayramda izinli") is not None
    assert ours.search(b"amacimiz farkindalik yaratmak") is None


def test_a_quarter_or_a_numbered_real_case_declares_nothing() -> None:
    assert not declared(b"badge readers everywhere by q3.")
    assert not declared(b"- q2: billing engine go-live")
    assert not declared(b"case 2: an employee in accounts disclosed a diagnosis")
    assert declared(b"q1. a patient presents with chest pain")
