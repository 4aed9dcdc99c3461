"""Special categories in records (log lines, JSON, CSV, SQL, key: value blocks): a field whose
name says it holds a special category, with a value, in a record that identifies someone, is
special; the same field names in a schema, an enum, a record about no one or a pseudonymised
table are not."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.special import CategoryHit
from gateway.sensitivity.structured import field_hits, in_log_records
from gateway.sensitivity.textnorm import encode_text, fold_bytes, fold_encoded, word_view


@pytest.fixture(scope="module")
def clf() -> Classifier:
    # the rules under test, without the language-model judge's view of the field words
    config = SensitivityConfig()
    judge = config.judge.model_copy(update={"enabled": False})
    return Classifier(config.model_copy(update={"judge": judge}), cache_entries=0)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("2025-06-03 14:10:07 INFO emr hasta_no=77120 tani=E11.9 servis=dahiliye", "health"),
        ('{"calisan": "Tuncay Erol", "mezhep": "Alevi", "birim": "depo"}', "religion"),
        ('{"employee_id": 5531, "union_member": true, "branch": "Kocaeli"}', "membership"),
        ("adi_soyadi;dept;sendikasi\nNuri Şahin;Lojistik;Nakliyat-İş\n", "membership"),
        (
            "INSERT INTO hr.staff (full_name, criminal_record)"
            " VALUES ('Oya Ekinci', 'theft 2019');",
            "criminal_record",
        ),
        ("sicil_no: 20417\nbirim: muhasebe\nsabika_kaydi: mevcut\n", "criminal_record"),
        ('{\n  "member": "m-2231",\n  "etnik_koken": "Çerkez"\n}', "ethnicity"),
        ("gate=B2 user_id=60412 modality=iris result=MATCH", "biometric"),
        (
            "java.lang.IllegalStateException: retina scan enrolment failed for user 88231",
            "biometric",
        ),
        ('audit 2026-02-11 subject="Levent Tan" brca2=positive lab=genlab', "genetic"),
    ],
)
def test_a_record_with_a_special_field_and_a_person_is_special(
    clf: Classifier, text: str, category: str
) -> None:
    result = clf.classify([text])
    assert result.data_class == "special"
    assert category in result.categories


@pytest.mark.parametrize(
    "text",
    [
        "CREATE TABLE visits (id SERIAL, patient_name TEXT, diagnosis VARCHAR(200), din TEXT);",
        '{"properties": {"mezhep": {"type": "string"}, "sendika": {"type": "string"}}}',
        'RELIGION_CHOICES = [("islam", "İslam"), ("none", "Belirtilmemiş")]',
        "report 2026-01-01 icd10=J45 cases=312 province=Izmir",
        "lot_id;parti_no;miktar\nL-11;P-203;40\n",
        "user=berk.oz method=otp result=ok",
        "ERROR sync: job=nightly queue=health retries=3",
        "kullanici_id=3321 sabika_kaydi=yok birim=satis",
    ],
)
def test_field_names_without_a_persons_value_stay_below_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class != "special"


def test_the_hit_covers_the_value_not_the_field_name() -> None:
    text = "patient_id=90113 dx=F41.1 clinic=3"
    folded = fold_encoded(encode_text(text)[0])
    words = word_view(folded)
    hits = field_hits(folded, words, {b"dx": [words.index(b" dx ") + 1]}, [])
    assert [(h.category, text[h.start : h.end]) for h in hits] == [("health", "F41.1")]


def _unsure_at(folded: bytes, word: bytes) -> CategoryHit:
    at = folded.index(word)
    return CategoryHit("health", at, at + len(word), 0.2, "confident", "model", True)


@pytest.mark.parametrize(
    "line",
    [
        "2025-03-02 10:14:55 INFO reminder sent to kullanici 44120 about dialysis",
        "2025-03-02 10:14:55 INFO reminder sent to customer number 4410 about dialysis",
        "2025-03-02 10:14:55 INFO reminder sent to user-id 58213 about dialysis",
        "2025-03-02 10:14:55 INFO reminder sent to patient #4410 about dialysis",
    ],
)
def test_a_log_line_of_a_numbered_person_ties_an_unsure_hit_to_them(line: str) -> None:
    """A record's person by number, however the program spells it ('user-id', 'kullanici')."""
    folded = fold_bytes(line)
    raised = in_log_records([_unsure_at(folded, b"dialysis")], folded, {}, [])
    assert [(h.confidence, h.stage) for h in raised] == [(0.95, "rules")]


def test_a_log_line_numbering_something_else_leaves_an_unsure_hit_as_judged() -> None:
    folded = fold_bytes("2025-03-02 10:14:55 INFO request 58213 served: article about dialysis")
    hit = _unsure_at(folded, b"dialysis")
    assert in_log_records([hit], folded, {}, []) == [hit]
