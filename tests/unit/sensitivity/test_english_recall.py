"""English special-category wording that once fired no topic or was read as general talk: a
pregnancy by its weeks, leave or scans; weekly practice of a faith; a people by its own names
(with letters outside cp1254, 'Māori', 'Ngāi'); campaign money and signs; union dues and the
unions named by everyday words ('Unite', 'ver.di'); a biometric template enrolled again; a
general word inside the topic term itself ('Bible study', 'face template'); 'return' in prose.
Each with a hard negative: the same words in a question, a rule or everyday use."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.subject import cues_of
from gateway.sensitivity.textnorm import encode_text, fold, fold_encoded, word_view
from tests.unit.sensitivity.helpers import check_family, family_cases

_NAMES_THE_TOPIC = [
    ("Our designer is 26 weeks along and starts mat leave in May.", "health"),
    ("She has her 12-week scan on Tuesday morning.", "health"),
    ("Our neighbour goes to shul every Saturday and keeps kosher.", "religion"),
    ("My aunt leads the prayer group at her church fellowship.", "religion"),
    ("Our new intern is Māori and belongs to Ngāi Tahu.", "ethnicity"),
    ("The chef is Peranakan and cooks her grandmother's nyonya dishes.", "ethnicity"),
    ("Thank you for your donation to the Committee to Elect Ruiz.", "political_opinion"),
    ("Dad put a yard sign on the lawn and signed a petition.", "political_opinion"),
    ("Gareth's Unite dues start this month.", "membership"),
    ("His rep from ver.di joined the hearing.", "membership"),
    ("Please re-enrol her palm template at the security desk.", "biometric"),
    ("The paternity results name the alleged father.", "genetic"),
    ("He refused the oath on conscience grounds.", "philosophical_belief"),
    ("He got a deferred prosecution after a night in the cells.", "criminal_record"),
]

_EVERYDAY: list[tuple[str, str | None]] = [
    ("Unite the teams behind one roadmap before the launch.", None),
    ("The committee approved the new parking signs.", None),
    ("Please enrol in the security awareness course by Friday.", None),
]


@pytest.mark.parametrize(
    ("check", "text", "category"), family_cases(_NAMES_THE_TOPIC, _EVERYDAY, folded=False)
)
def test_english_family_names_the_topic(check: str, text: str, category: str | None) -> None:
    """Each sentence fires its category; the everyday words of those families fire no topic."""
    check_family(check, text, category)


def test_letters_outside_cp1254_fold_to_their_base_letter() -> None:
    encoded, _ = encode_text("Māori, Ngāi Tahu, Łódź, Dvořák")
    assert word_view(fold_encoded(encoded)).split() == [
        b"maori",
        b"ngai",
        b"tahu",
        b"lodz",
        b"dvorak",
    ]
    assert fold("Ō") == "o"


def test_a_general_word_inside_the_topic_term_is_not_general_talk() -> None:
    sentence = fold("That's her Bible study at the chapel.").encode("ascii")
    lo = sentence.index(b"bible study")
    hi = lo + len(b"bible study")
    assert not cues_of(sentence, False, False, False, False, term_start=lo, term_end=hi).general
    # a general word outside the term still makes the sentence general talk
    sentence = fold("Write a research summary of Bible study groups.").encode("ascii")
    lo = sentence.index(b"bible study")
    hi = lo + len(b"bible study")
    assert cues_of(sentence, False, False, False, False, term_start=lo, term_end=hi).general


def test_return_is_code_only_before_a_value() -> None:
    prose = fold("Phased return to work after her surgery.").encode("ascii")
    assert not cues_of(prose, False, False, False, False).code
    code = b'    return "overweight"'
    assert cues_of(code, False, False, False, False).code


@pytest.mark.parametrize(
    "text",
    [
        "hey, tamsin is 26 weeks along so she'll skip the offsite hike",
        "Payroll: Gareth's Unite dues start this month after he joined the branch.",
        "Hi Noor, your palm template failed at the gate, please re-enrol at security.",
        "Thanks Mrs. Okoye for your campaign donation and for taking a yard sign.",
        "heads up, bilal keeps kosher so order from the other caterer",
        "Our new intern Keanu is Māori and asked about the iwi liaison role.",
        "Return-to-work note for Megan Holt: after the stroke in June, four short days a week.",
    ],
)
def test_english_family_about_someone_is_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


@pytest.mark.parametrize(
    "text",
    [
        "We're three weeks along with the migration and on track.",
        "Bed rest is no longer routinely advised in pregnancy; summarise the evidence.",
        "What does an iwi do in New Zealand's treaty settlements?",
        "How are union subs collected through payroll check-off in the UK?",
        "Explain what re-enrolment means for a biometric template in access control.",
        "The face scan feature ships next quarter for all users.",
    ],
)
def test_english_family_in_general_talk_stays_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"
