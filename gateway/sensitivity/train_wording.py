"""Rebuilds the wording net (wording.py) from the records others wrote and prints its figures.

    python -m gateway.sensitivity.train_wording [--out PATH]

Every record of the sets `training/human.py` trains on (TRAINED and WORDING_ONLY) that the net
would read (up to MAX_BYTES, pointing at someone) is one example:
special or not, and for a special one its category. Features are those the classifier computes
at run time (`wording.features` of the same word view), so training and serving cannot drift
apart. Logistic regression by plain SGD with L2, a fixed seed and a fixed order, in Python
floats: the same files give the same weights on any machine."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from gateway.sensitivity.config import Detectors as DetectorSwitches
from gateway.sensitivity.config import Judge, SensitivityConfig
from gateway.sensitivity.detect import Detectors, second_stage_people
from gateway.sensitivity.names import OWNED_LOWER
from gateway.sensitivity.sgd import sgd
from gateway.sensitivity.textnorm import encode_text, fold_encoded, shape_view, word_view
from gateway.sensitivity.train import write_replacing
from gateway.sensitivity.training.human import TRAINED, WORDING_ONLY, human_examples
from gateway.sensitivity.wording import (
    MAX_BYTES,
    MODEL_PATH,
    WordingModel,
    features,
    points_at_someone,
    scale,
)

_CONFIG = SensitivityConfig(judge=Judge(enabled=False), detectors=DetectorSwitches(wording=False))
_PERSONAL = _CONFIG.thresholds.personal
_EPOCHS = 10
_RATE = 1.0
_L2 = 1e-4
_CATEGORY_EPOCHS = 5
_KEEP = 1e-3  # smaller weights are dropped from the file: they move no decision
# the special-or-not model keeps its strongest weights only: each request's words are looked up
# in it, and a smaller table stays in the CPU's caches (on the measuring sets 40k words and the
# strongest 10k raised the same 37 of 50 missed special records)
_TOP = 10_000
# a category only names what the first model raised: its strongest weights are enough, and all
# of them for eleven categories would be a file seven times the size
_CATEGORY_TOP = 1500

# the development sets' category names, as the classifier reports them
CATEGORY_OF = {
    "health": "health",
    "religion": "religion",
    "political": "political_opinion",
    "union": "membership",
    "philosophical": "philosophical_belief",
    "ethnicity": "ethnicity",
    "sexual_life": "sexual_life",
    "criminal": "criminal_record",
    "genetic": "genetic",
    "biometric": "biometric",
    "dress": "appearance",
}

Row = tuple[list[bytes], float, float]  # features, label, each feature's value


def row_of(det: Detectors, text: str, label: int) -> Row | None:
    """None for a text the net never reads: longer than MAX_BYTES, or pointing at no one. The
    net learns only where it is asked: were records about no one among its examples, the words
    that point at someone ('ben', 'my', 'hanım') would read as the special category itself."""
    encoded, _ = encode_text(text)
    folded = fold_encoded(encoded)
    words = word_view(folded)
    if len(words) > MAX_BYTES:
        return None
    tokens = det.scanner.scan(words)
    ents = det.entities(text, folded, words, shape_view(folded), tokens)
    # a lower-case name known only by its apostrophe points at someone when the net reads
    # (as a listed given name does, wording.py) but not among its examples: with them it
    # missed 9 more special records of the measuring sets
    people = sum(e.detector != OWNED_LOWER for e in second_stage_people(text, ents, _PERSONAL))
    if not points_at_someone(folded, people):
        return None
    feats = sorted(features(words))
    return feats, float(label), scale(len(feats))


def fit(rows: Sequence[Row], epochs: int) -> tuple[float, dict[bytes, float]]:
    bias, w = sgd([(f, y, v, 0) for f, y, v in rows], epochs, _RATE, (_L2, _L2))
    return bias, {k: x for k, x in w.items() if abs(x) >= _KEEP}


def _strongest(
    bias: float, weights: dict[bytes, float], n: int
) -> tuple[float, dict[bytes, float]]:
    top = sorted(weights.items(), key=lambda kv: (-abs(kv[1]), kv[0]))[:n]
    return bias, dict(top)


def build() -> tuple[WordingModel, list[Row], list[tuple[Row, str]]]:
    rows: list[Row] = []
    special: list[tuple[Row, str]] = []
    det = Detectors(_CONFIG)
    for ex in human_examples(TRAINED + WORDING_ONLY, max_chars=None):
        row = row_of(det, ex.text, ex.label)
        if row is None:
            continue
        rows.append(row)
        if ex.label and ex.category in CATEGORY_OF:
            special.append((row, CATEGORY_OF[ex.category]))
    bias, weights = _strongest(*fit(rows, _EPOCHS), _TOP)
    categories: dict[str, tuple[float, dict[bytes, float]]] = {}
    for name in sorted(set(CATEGORY_OF.values())):
        one = [(feats, float(cat == name), v) for (feats, _, v), cat in special]
        categories[name] = _strongest(*fit(one, _CATEGORY_EPOCHS), _CATEGORY_TOP)
    return WordingModel(bias, weights, categories), rows, special


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gateway.sensitivity.train_wording")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    model, rows, special = build()
    print(
        f"records written by others that point at someone: {len(rows)}, "
        f"special: {int(sum(r[1] for r in rows))}"
    )
    right = sum(int((model.probability(set(feats)) >= 0.5) == bool(y)) for feats, y, _ in rows)
    named = sum(int(model.category(set(row[0])) == cat) for row, cat in special)
    print(
        f"training accuracy {right / len(rows):.3f}; category named right on "
        f"{named / max(1, len(special)):.3f} of {len(special)} special records; "
        f"weights: {len(model.weights)} + "
        f"{sum(len(w) for _, w in model.categories.values())} for the categories"
    )
    write_replacing(args.out, model.to_json() + "\n")
    print(
        f"wrote {args.out} ({args.out.stat().st_size // 1024} KB) "
        f"in {time.perf_counter() - t0:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
