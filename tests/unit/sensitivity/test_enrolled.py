"""A biometric template next to a person's numbered record is about that person, whatever the
sentence frame; talk about templates in general stays below special."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.enrolled import enrolled
from gateway.sensitivity.special import CategoryHit
from gateway.sensitivity.textnorm import fold_bytes


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(cache_entries=0)


@pytest.mark.parametrize(
    "text",
    [
        'Rewrite this error as a friendly push notification (max 120 chars): "Enrolment failed '
        "for user_id 90417: iris template quality 0.38 below threshold 0.60. Previous template "
        'kept."',
        'Make this log message readable for support: "palm vein template mismatch for customer '
        'no 55821, enrolment retried 3 times"',
        'Bu hatayı kullanıcıya nazik bir SMS olarak yaz: "kullanici_id 44120 için yüz şablonu '
        'kalitesi düşük (0.31), kayıt reddedildi."',
    ],
)
def test_a_template_of_a_numbered_person_is_special(clf: Classifier, text: str) -> None:
    """An error quoted in a prompt reads as talk about a system to the context model and the
    judge alike (both said public); the record's number says whose template it is."""
    found = clf.classify([text])
    assert found.data_class == "special", found.as_record()
    assert "biometric" in found.categories


@pytest.mark.parametrize(
    "text",
    [
        "Face embeddings for each user_id must be encrypted at rest; how do we rotate the keys?",
        "How does iris template enrolment work on the new turnstiles?",
        "Order id 12345678 shipped; the fingerprint reader module in it is the new model.",
    ],
)
def test_templates_in_general_stay_below_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class != "special"


def _unsure(folded: bytes, word: bytes, category: str = "biometric") -> CategoryHit:
    at = folded.index(word)
    return CategoryHit(category, at, at + len(word), 0.2, "confident", "model", True)


def test_only_an_unsure_biometric_hit_near_a_template_and_a_number_is_raised() -> None:
    folded = fold_bytes("log: user 7734 fingerprint template rejected, retry")
    raised = enrolled([_unsure(folded, b"fingerprint")], folded)
    assert [(h.category, h.confidence, h.stage) for h in raised] == [("biometric", 0.95, "rules")]
    # another category, or no template near the hit, is left as judged
    health = _unsure(folded, b"fingerprint", "health")
    assert enrolled([health], folded) == [health]
    plain = fold_bytes("log: user 7734 fingerprint reader rejected, retry")
    hit = _unsure(plain, b"fingerprint")
    assert enrolled([hit], plain) == [hit]
    # a number far beyond the reach of the hit says nothing about it
    far = fold_bytes("user 7734 " + "x " * 400 + "fingerprint template rejected")
    hit = _unsure(far, b"fingerprint")
    assert enrolled([hit], far) == [hit]
