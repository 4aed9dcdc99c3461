"""The wording net: a statement about someone in words no lexicon lists ('another episode',
'clean for eight months') is special; the same net stays quiet where no one is pointed at, where
a topic already fired (the second stage decides there), and when the policy turns it off. The
shipped weights are rebuilt exactly by one command."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from gateway.sensitivity import train_wording
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.detect import Detectors
from gateway.sensitivity.textnorm import encode_text, fold_encoded, word_view
from gateway.sensitivity.wording import (
    MAX_BYTES,
    MODEL_PATH,
    WordingModel,
    features,
    load_wording,
)

_OFF = {"enabled": False}


def _words(text: str) -> bytes:
    return word_view(fold_encoded(encode_text(text)[0]))


def _toy(weight: float = 20.0) -> WordingModel:
    """'zorblat', a word no lexicon lists, alone reads as health: a model whose answer each test
    can work out by hand."""
    return WordingModel(
        -2.0,
        {b"zorblat": weight},
        {
            "health": (0.0, {b"zorblat": 1.0}),
            "religion": (0.0, {b"mosque": 1.0}),
        },
    )


def _run(text: str, model: WordingModel | None, **sensitivity: object) -> list[tuple[str, str]]:
    config = SensitivityConfig(judge=_OFF, **sensitivity)  # type: ignore[arg-type]
    det = Detectors(config, wording=model)
    _, cats, _ = det.run(text, 0.5)
    return [(c.category, c.stage) for c in cats]


def test_features_are_the_words_once() -> None:
    assert features(_words("Zorblat, zorblat again!")) == {b"zorblat", b"again"}
    assert features(b"") == set()


def test_a_text_longer_than_the_records_it_learned_from_is_left_to_the_lexicons() -> None:
    text = "Emre had a zorblat on Monday, cover his tickets."
    filler = " The quarterly figures are in the shared folder." * 200
    assert _run(text + filler[: MAX_BYTES - len(text)], _toy()) == [("health", "wording")]
    assert _run(text + filler, _toy()) == []


def test_the_probability_is_over_the_unit_vector_of_the_features() -> None:
    m = _toy()
    feats = features(_words("zorblat on monday"))
    assert m.probability(feats) == pytest.approx(1 / (1 + math.exp(-(-2.0 + 20.0 / math.sqrt(20)))))
    assert m.category(feats) == "health"
    assert m.category(features(_words("the mosque"))) == "religion"


def test_unlisted_words_about_a_named_person_are_special() -> None:
    assert _run("Emre had a zorblat on Monday, cover his tickets", _toy()) == [
        ("health", "wording")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "A zorblat is common in the first year.",  # no one pointed at
        "zorblat rates fell by ten percent",
    ],
)
def test_the_same_words_about_no_one_stay_public(text: str) -> None:
    assert _run(text, _toy()) == []


def test_a_probability_under_the_threshold_counts_for_nothing() -> None:
    text = "Emre had a zorblat on Monday, cover his tickets"
    assert _run(text, _toy(weight=1.0)) == []
    assert _run(text, _toy(), thresholds={"wording": 0.999, "wording_named": 0.999}) == []


def test_a_person_the_detectors_found_needs_less_than_a_cue() -> None:
    # weight 16 over a short text: p = 1 / (1 + e^-(-2 + 16/sqrt(20))) ≈ 0.83, between the
    # named threshold (0.8) and the cue's (0.85)
    named = "Emre Yılmaz had a zorblat on Monday, cover his tickets"
    cue = "I had a zorblat on Monday, cover my tickets"
    assert _run(named, _toy(weight=16.0)) == [("health", "wording")]
    assert _run(cue, _toy(weight=16.0)) == []
    assert _run(cue, _toy(weight=16.0), thresholds={"wording": 0.8}) == [("health", "wording")]


def test_where_a_topic_fired_the_second_stage_decides_alone() -> None:
    text = "Emre had a zorblat and his diabetes on Monday"
    stages = {stage for _, stage in _run(text, _toy())}
    assert stages and "wording" not in stages


def test_a_listed_word_in_its_everyday_sense_keeps_it_quiet() -> None:
    # 'probation' before 'ends' is a new hire's trial period, which the everyday rules set aside;
    # the net would read the listed word as the topic itself
    text = "Emre had a zorblat before his probation ends"
    assert _run(text, _toy()) == []
    assert _run(text.replace("probation", "contract"), _toy()) == [("health", "wording")]


def test_the_policy_turns_it_off() -> None:
    text = "Emre had a zorblat on Monday, cover his tickets"
    assert _run(text, _toy(), detectors={"wording": False}) == []


def test_a_missing_or_foreign_model_file(tmp_path: Path) -> None:
    assert load_wording(tmp_path / "absent.json") is None
    data = json.loads(_toy().to_json())
    assert WordingModel.from_json(json.dumps(data)) == _toy()
    data["features"] = "words"
    with pytest.raises(ValueError, match="other features"):
        WordingModel.from_json(json.dumps(data))


@pytest.fixture(scope="module")
def clf() -> Classifier:
    return Classifier(SensitivityConfig(judge=_OFF), cache_entries=0)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # none of these fires a lexicon term; the shipped net reads them
        (
            "Emre had another episode on Monday and went home early, please cover his tickets",
            "health",
        ),
        (
            "Burak has been clean for eight months now and his sponsor says he is doing great",
            "health",
        ),
    ],
)
def test_the_shipped_net_reads_unlisted_wording(clf: Classifier, text: str, category: str) -> None:
    result = clf.classify([text])
    assert (result.data_class, result.stage, result.categories) == (
        "special",
        "wording",
        (category,),
    )
    assert result.band == "uncertain" or result.confidence >= 0.95


@pytest.mark.parametrize(
    "text",
    [
        "Our office party episode was fun, the podcast team recorded it",
        "The clinic opens at nine on Mondays and closes at six",
        "Please send the signed contract to Mehmet Kaya before Friday.",
    ],
)
def test_the_shipped_net_leaves_everyday_text_alone(clf: Classifier, text: str) -> None:
    assert clf.classify([text]).data_class in ("public", "personal")


def test_training_rebuilds_the_shipped_wording_model(tmp_path: Path) -> None:
    out = tmp_path / "wording.json"
    assert train_wording.main(["--out", str(out)]) == 0
    assert json.loads(out.read_text()) == json.loads(MODEL_PATH.read_text()), (
        "the shipped wording net is stale: run python -m gateway.sensitivity.train_wording"
    )


def test_a_listed_given_name_in_lower_case_points_at_someone() -> None:
    """'burak' typed in a chat is no identified person to the detectors, but it says whom the
    words are about; an everyday word that is also a name ('umut': hope) does not."""
    assert _run("zorblat again for burak, lol, whole office knows", _toy()) == [
        ("health", "wording")
    ]
    assert _run("zorblat again for umut, lol, whole office knows", _toy()) == []
