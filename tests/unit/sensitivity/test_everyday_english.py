"""English words that share a topic's stem in an everyday sense: a new hire's probation
period, a nationality that starts like a body part, a thing that is 'depressing'. The same
stems in their sensitive sense about a person still count."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


@pytest.mark.parametrize(
    "text",
    [
        "Quick feedback on Daniel Hughes before his probation ends: solid work, confirm him.",
        "Reminder: Megan Doyle's probation review with her manager is on Thursday.",
        "Write a LinkedIn post for me, Kate Byrne, that is not depressing.",
        "Visa form for Sean Walsh: irish, born 1984, passport Z68090981.",
    ],
)
def test_everyday_senses_name_no_category(clf: Classifier, text: str) -> None:
    result = clf.classify([text])
    assert result.data_class == "personal", result.findings


@pytest.mark.parametrize(
    "text",
    [
        "Daniel Hughes is on probation for burglary and sees his probation officer weekly.",
        "Kate Byrne has been depressed since March and takes sertraline.",
        "Sean Walsh enrolled his iris scan at the border kiosk.",
        "Our nanny Siobhan Ward is an Irish Traveller.",
        "Colin Reyes has been disabled since the accident and needs the ground-floor desk.",
    ],
)
def test_sensitive_senses_stay_special(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"
