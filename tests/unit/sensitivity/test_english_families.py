"""English wording of the special categories the first stage must know (lexicon_english): a
condition by its drug, clinic, device or leave; a faith by its feast, fast, pilgrimage, clergy,
rite or food rule; dress that shows a belief; a party by its campaigning; a union by its
steward, its bargaining unit or its strike; a record by its prison, sentence, court or check;
a body read by a machine or a lab. And the everyday uses of the same words (a habit of coffee,
a local shop, time served as CEO, a probation period, gradient descent, the European Union),
which must fire no topic."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from tests.unit.sensitivity.helpers import check_family, family_cases


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


_NAMES_THE_TOPIC = [
    ("My uncle has been on Mounjaro since the spring.", "health"),
    ("Our receptionist takes Elvanse and asked for a quiet desk.", "health"),
    ("My boyfriend started PrEP through the clinic last month.", "health"),
    ("Grandad was prescribed apixaban after his atrial fibrillation came back.", "health"),
    ("Joanne is on maternity leave and her cover starts Monday.", "health"),
    ("He got signed off sick with stress for four weeks.", "health"),
    ("My sister had her anomaly scan yesterday.", "health"),
    ("Our new hire uses a guide dog and needs the lift pass.", "health"),
    ("Farid is fasting and will take Eid al-Fitr off.", "religion"),
    ("My mother-in-law attends mass every morning before work.", "religion"),
    ("The new chaplain at our care home is ordained in the Anglican church.", "religion"),
    ("Please order him a meal with no pork, it's for religious reasons.", "religion"),
    ("My flatmate gets up for fajr and his alarm wakes the whole floor.", "religion"),
    ("Sister Bernadette wears a wimple in every staff photo.", "appearance"),
    ("Our cashier Miriam covers her hair with a tichel.", "appearance"),
    ("The new driver wears a patka under his helmet.", "appearance"),
    ("Liam is the union steward for the night crew.", "membership"),
    ("My wife is on strike with the rest of the bargaining unit.", "membership"),
    ("Our office manager is a staff side rep for Unison.", "membership"),
    ("My dad volunteers at phone banking for the Green Party.", "political_opinion"),
    ("Her brother is a card-carrying socialist.", "political_opinion"),
    ("My neighbour did eight years at a federal prison.", "criminal_record"),
    ("Our applicant has an unspent conviction on his DBS certificate.", "criminal_record"),
    ("Kevin got a suspended sentence and is on bail until the hearing.", "criminal_record"),
    ("His cousin was remanded and appears at the crown court next week.", "criminal_record"),
    ("My brother was questioned by police and the file went to the prosecutor.", "criminal_record"),
    ("2025-06-01 gate-7 auth.face user=p.ng score=0.94", "biometric"),
    ("Delete Ravi's face embeddings from the door system.", "biometric"),
    ("The karyotype came back with trisomy 21 for the Jones baby.", "genetic"),
    (
        "My daughter's newborn screening showed she is a carrier of sickle cell trait.",
        "genetic",
    ),
    ("Upload Laura's exome sequencing report to her record.", "genetic"),
    ("His pharmacogenomic panel says he is a poor metabolizer of codeine.", "genetic"),
    ('fixture = {"name": "Ada Lowe", "pgx": {"CYP2D6": "*4/*4"}}', "genetic"),
    ("Our bookkeeper is of Somali descent.", "ethnicity"),
    ("Her grandmother is Torres Strait Islander.", "ethnicity"),
    ("Our accountant had a past relationship with a client of hers.", "sexual_life"),
    ("My son is a conscientious objector and a committed pacifist.", "philosophical_belief"),
    ("My mom's onco appt moved to Friday.", "health"),
    ("She was admitted with neutropenia last night.", "health"),
    ("Her bf is bi and she is fine with it.", "sexual_life"),
    ("My patient is MSM and wants to start PrEP.", "sexual_life"),
    ("He signed a card in the organizing drive last week.", "membership"),
    ("The face rec at the gate flagged our courier Sam.", "biometric"),
    ("Tom carries an MLH1 change, says the lab.", "genetic"),
]

_EVERYDAY: list[tuple[str, str | None]] = [
    ("She has a habit of double-checking the invoices before lunch.", None),
    ("Tom is in her habit of arriving ten minutes early, it seems.", None),
    ("We served 5 years as the sole supplier to the council.", None),
    ("Her probation period ends in March, book the review.", None),
    ("He presented the roadmap with conviction.", None),
    ("Our local shop closes at six on Sundays.", None),
    ("This sentence has a grammar error, please fix it.", None),
    ("I bowled a strike in the last frame.", None),
    ("Poland joined the European Union in 2004.", None),
    ("The optimiser uses stochastic gradient descent.", None),
    ("The submit button is disabled until the form is valid.", None),
    ("I lost my faith in this vendor after the third outage.", None),
    ("The hospitality team booked rooms for the offsite.", None),
    ("Please set the certificate thumbprint in the config.", None),
    ("I'm sleeping with the window open because of the heat.", None),
    ("Meal prep on Sunday saves me an hour a day.", None),
]


@pytest.mark.parametrize(
    ("check", "text", "category"), family_cases(_NAMES_THE_TOPIC, _EVERYDAY, folded=False)
)
def test_english_wording_names_the_topic(check: str, text: str, category: str | None) -> None:
    """Each sentence fires its category; everyday English fires no topic."""
    check_family(check, text, category)


@pytest.mark.parametrize(
    "text",
    [
        "I've been on Mounjaro since March and my GP wants bloods.",
        "My brother did eight months in HMP Durham for burglary.",
        "I'm the union steward for our bargaining unit and we go on strike Monday.",
        "My wife wears a tichel and her new employer asked her to remove it.",
    ],
)
def test_english_wording_about_someone_is_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


@pytest.mark.parametrize(
    "text",
    [
        "I have a habit of double-checking every invoice before lunch.",
        "I served 5 years as finance director before joining this company.",
        "My probation period ends in March, what should I prepare for the review?",
        "I lost my faith in this vendor after the third outage.",
    ],
)
def test_everyday_english_about_someone_stays_below_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class != "special"


@pytest.mark.parametrize(
    "text",
    [
        "I'm the shop steward for the depot, and the bargaining unit votes on Friday.",
        "I’m a lifelong vegan and the canteen keeps forgetting.",
    ],
)
def test_english_self_predicate_is_special(clf: Classifier, text: str) -> None:
    """The term right after 'I'm a/the' is said of the writer, whatever the model makes of
    the rest of the sentence."""
    assert clf.classify([text]).data_class == "special"
