"""A lone first name in a chat typed in lower case is a person when the writer introduces
themselves by it ('ben kerem, ...') or gives it to a relative or a neighbour ('eşim ...',
'komşunuz ...'); the same words with an everyday word after them stay text."""

from __future__ import annotations

import pytest

from gateway.sensitivity.classifier import Classifier


@pytest.mark.parametrize(
    "text",
    [
        "selam ben tuncay, kargom iki gündür dağıtımda görünüyor",
        "ben nazlı. yarınki randevumu perşembeye alabilir miyiz",
        "kızım zeynep bu sene liseye başladı, servis ücretini nereye yatıracağız",
        "komşunuz gökhan olarak yazıyorum, otoparktaki araç bana ait",
    ],
)
def test_a_lowercase_name_introduced_or_given_to_kin_is_personal(
    clf: Classifier, text: str
) -> None:
    assert clf.classify([text]).data_class == "personal"


@pytest.mark.parametrize(
    "text",
    [
        "ben umut ediyorum ki toplantı kısa sürer",
        "oğlum can sıkıntısından ne yapacağını bilmiyor",
        "ben de, yarın gelirim herhalde",
        "annem deniz kenarında yürümeyi seviyor",
    ],
)
def test_everyday_words_after_the_same_openers_stay_public(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class == "public"
