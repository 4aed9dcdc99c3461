"""The wording net: a special-category statement in words no lexicon lists.

The first stage fires only on listed terms, so a record that speaks of a treatment, a rally or
a court date in words nobody listed reaches no second stage at all. This net reads what the
lexicons cannot: a logistic model over the set of the text's words, trained
here (`python -m gateway.sensitivity.train_wording`) on the records others wrote
(`training/human.py`), each one labelled special or not as a whole. It only runs where no topic
fired, and its verdict counts only when the text points at someone (an identifier or a name
found, I or my, a kin or role word): a bag of words cannot tell whom a statement concerns, the
cues can. Its features are the set of words of the word view the detectors already built, one
dictionary lookup each. Four-letter stems as well caught one more of 50
special records on the measuring sets, for three times that cost."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gateway.sensitivity.lexicon_names import EVERYDAY_FIRST_NAMES, FIRST_NAMES
from gateway.sensitivity.special import SUBJECT, CategoryHit
from gateway.sensitivity.subject import Cues, concrete, cues_of, someone

MODEL_PATH: Final = Path(__file__).with_name("wording_model.json")
# it reads messages, not documents: on the measuring sets every special record it caught was
# under 1,000 characters and none it missed was longer, so a longer text is left to the
# lexicons and costs it nothing (reading 2 KB would cost ~30 us, a tenth of that text's time)
MAX_BYTES: Final = 1536
# what the weights are keyed by and how they are scaled, checked when a file is loaded
_FEATURES: Final = "words/short20"
# chosen on the measuring sets with the everyday sentences of the unit tests kept quiet: from
# 8 to 12 to 20, those firing went down by two thirds while the special records caught stayed
# the same
SHORT: Final = 20
# a listed given name that is no everyday word, as the word view spells it: 'raj', 'burak'.
# Typed in lowercase in a chat it is no name to the detectors, which want a capital or a
# surname to call a person identified; to the net it says whom the words are about, as 'my'
# does. Of the 12,900 records of the development sets, the 3 that named someone only this
# way and read as special to the net were all special
GIVEN_NAMES: Final = frozenset(n.encode("ascii") for n in FIRST_NAMES - EVERYDAY_FIRST_NAMES)


def features(words: bytes) -> set[bytes]:
    """Each word of the word view (`textnorm.word_view`) once."""
    return set(words.split())


@dataclass(frozen=True, slots=True)
class WordingModel:
    """`weights`: the special-or-not model; `categories`: one-vs-rest weights per special
    category, read only to name the category of a text the first one raised."""

    bias: float
    weights: dict[bytes, float]
    categories: dict[str, tuple[float, dict[bytes, float]]]

    def probability(self, feats: set[bytes]) -> float:
        return _sigmoid(_score(self.bias, self.weights, feats))

    def category(self, feats: set[bytes]) -> str:
        best, best_z = "health", -math.inf
        for name, (bias, weights) in self.categories.items():
            z = _score(bias, weights, feats)
            if z > best_z:
                best, best_z = name, z
        return best

    def to_json(self) -> str:
        def table(w: dict[bytes, float]) -> dict[str, float]:
            return {k.decode("ascii"): round(v, 5) for k, v in sorted(w.items())}

        return json.dumps(
            {
                "features": _FEATURES,
                "bias": round(self.bias, 5),
                "weights": table(self.weights),
                "categories": {
                    name: {"bias": round(b, 5), "weights": table(w)}
                    for name, (b, w) in sorted(self.categories.items())
                },
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> WordingModel:
        data = json.loads(text)
        if data.get("features") != _FEATURES:
            raise ValueError("wording model was trained on other features")

        def table(w: dict[str, float]) -> dict[bytes, float]:
            return {k.encode("ascii"): float(v) for k, v in w.items()}

        return cls(
            float(data["bias"]),
            table(data["weights"]),
            {
                name: (float(c["bias"]), table(c["weights"]))
                for name, c in data["categories"].items()
            },
        )


def wording_hit(
    model: WordingModel,
    threshold: float,
    folded: bytes,
    words: bytes,
    people: int,
    length: int,
    listed: Callable[[], bool],
) -> CategoryHit | None:
    """The net's verdict on a text in which no topic fired: a category hit over the whole text
    when the words read as a special-category statement (probability >= `threshold`) and the
    text points at someone: `people` found by the detectors (identifiers, names), a listed
    given name, else a cue (I, my, a kin or role word, he or she). The band stays uncertain
    below 0.95: the words alone are a guess, and the policy's `when_uncertain` decides what
    that does. `length`: the text's, in characters. `listed`: whether a lexicon term is in the
    text though no topic fired (an everyday sense: 'before his probation ends'); the lexicons
    have judged those words, and the net, which would read them as the topic, stays quiet."""
    if len(words) > MAX_BYTES:
        return None
    feats = features(words)
    p = model.probability(feats)
    if p < threshold:
        return None
    if listed():
        return None
    if people or not feats.isdisjoint(GIVEN_NAMES):
        real = True
    else:
        # the cues' patterns are written for a sentence and cost ~1 ms on 1.5 KB: read only
        # when the net has fired and no identifier or name already points at someone
        cues = _cues(folded)
        if not someone(cues):
            return None
        real = concrete(cues)
    return CategoryHit(
        model.category(feats),
        0,
        length,
        p,
        "uncertain" if p < 0.95 else "confident",
        "wording",
        someone=True,
        concrete=real,
    )


def points_at_someone(folded: bytes, people: int) -> bool:
    """Whether a text is one the net learns from: `people` found by the detectors, or a cue. A
    listed given name is not enough here, though it is when the net reads (`wording_hit`): the
    records that point at someone only by a lowercase first name, added to its examples, made
    it miss 13 more special records of the measuring sets (judge off)."""
    return people > 0 or someone(_cues(folded))


def _cues(folded: bytes) -> Cues:
    return cues_of(folded, False, False, False, bool(SUBJECT.search(folded, 0, len(folded))))


def load_wording(path: Path = MODEL_PATH) -> WordingModel | None:
    """The model `train_wording` built; None when it was not built (the net then stays off)."""
    try:
        return WordingModel.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def scale(n: int) -> float:
    """Each of a text's n features counts 1/sqrt(n): a long text is not surer for having more
    words. Below SHORT words it counts as SHORT: a few everyday words ('ben de, yarın gelirim')
    are too little to read a special category from."""
    return 1.0 / math.sqrt(max(n, SHORT)) if n else 0.0


def _score(bias: float, weights: dict[bytes, float], feats: set[bytes]) -> float:
    get = weights.get
    return bias + sum([get(f, 0.0) for f in feats]) * scale(len(feats))


def _sigmoid(z: float) -> float:
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))
