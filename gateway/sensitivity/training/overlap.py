"""Counts the sentences that the training data shares with a labelled set, after
normalisation (Turkish-aware folding, punctuation and spacing removed). Prints only counts:
it is meant to be run against a holdout set that whoever tunes the classifier may not read.

    python -m gateway.sensitivity.training.overlap /work/holdout/*.jsonl
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from gateway.sensitivity.textnorm import fold
from gateway.sensitivity.training.generate import examples, handwritten
from gateway.sensitivity.training.human import TRAINED, WORDING_ONLY, human_examples

_SPLIT = re.compile(r"(?<=[.!?\n])\s*|\n+")
_NOT_WORD = re.compile(r"[^a-z0-9]+")
_MIN_CHARS = 12  # "Merhaba." or "Teşekkürler." in two sets is no shared sentence


def sentences(text: str) -> Iterator[str]:
    for part in _SPLIT.split(text):
        norm = " ".join(_NOT_WORD.sub(" ", fold(part)).split())
        if len(norm) >= _MIN_CHARS:
            yield norm


def training_sentences() -> set[str]:
    out: set[str] = set()
    # every record either model learns from: the context model's (short ones of TRAINED) and
    # the wording net's (TRAINED and WORDING_ONLY, long ones too)
    learned = human_examples(TRAINED + WORDING_ONLY, max_chars=None)
    for ex in [*examples(seed=13), *handwritten(), *learned]:
        out.update(sentences(ex.text))
    return out


def overlap(paths: Iterable[Path], train: set[str]) -> tuple[int, int]:
    """(shared normalised sentences, all normalised sentences of the sets)."""
    seen: set[str] = set()
    for path in paths:
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    seen.update(sentences(json.loads(line).get("text", "")))
    return len(seen & train), len(seen)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print(
            "usage: python -m gateway.sensitivity.training.overlap SET.jsonl ...", file=sys.stderr
        )
        return 2
    train = training_sentences()
    shared, total = overlap([Path(a) for a in args], train)
    print(f"training sentences: {len(train)}; set sentences: {total}; shared: {shared}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
