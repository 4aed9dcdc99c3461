"""A first name typed in lower case as the subject of a verb that takes a person ('bilal keeps
kosher', 'oksana is 30 weeks pregnant') is someone, as the same name capitalised is: a topic
next to it is about that person. Alone it stays a lone first name, below the personal
threshold, and a listed name that is an everyday word ('hope is', 'grace has') stays a word."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


@pytest.mark.parametrize(
    "text",
    [
        "heads up, bilal keeps kosher so order from the other caterer",
        "tomasz has epilepsy, keep the strobe lights off at the party",
        "yusuf goes to friday prayers at noon so move the call",
        "reminder that oksana is 30 weeks pregnant and works from home now",
    ],
)
def test_a_lower_case_name_as_subject_makes_the_topic_someone_s(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "special"


@pytest.mark.parametrize(
    "text",
    [
        "bilal is joining the standup at ten",
        "hope is what keeps cancer patients going, the article says",
        "grace has a central place in christian theology",
        "islam is the religion of most people in turkey",
    ],
)
def test_a_lone_lower_case_name_or_an_everyday_word_stays_public(
    clf: Classifier, text: str
) -> None:
    assert clf.classify([text]).data_class == "public"
