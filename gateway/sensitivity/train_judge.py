"""Rebuilds the language-model judge's head (judge_head.json) from the repository's files.

    python -m gateway.sensitivity.train_judge [--out PATH] [--generated N]

The sentences are the context model's training sentences (gateway/sensitivity/training/): all
hand-written ones, N generated ones drawn with a fixed seed, and the records written by others
(human.py) in which the judge would read one sentence. Each topic hit the context
model would decide (not those the rules decide) gives one row: the judge model's features of
its sentence (judge_model.py, ~0.1-0.3 s each on one core: the command takes minutes) and the
context model's probability for it. That probability comes from a context model trained
without the row's sentence (four folds), as it would be for a sentence never seen: the head
would otherwise learn to trust it blindly. Logistic regression by Newton's method with L2 on
standardised features, from zero: the same files, model and llama.cpp build give the same
head."""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gateway.sensitivity.config import Judge as JudgeSettings
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.detect import Detectors, as_entities, second_stage_people
from gateway.sensitivity.judge import HEAD_PATH, Head
from gateway.sensitivity.judge_file import default_cache_dir, model_file
from gateway.sensitivity.judge_model import N_FEATURES, JudgeModel, prompt_digest
from gateway.sensitivity.special import People, _sentence, topic_hits
from gateway.sensitivity.subject import SubjectModel
from gateway.sensitivity.textnorm import encode_text, fold_encoded, shape_view, word_view
from gateway.sensitivity.train import _HAND_WEIGHT, featurise, fit, write_replacing
from gateway.sensitivity.training.generate import Example, examples, handwritten
from gateway.sensitivity.training.human import human_examples

FOLDS = 4
L2 = 1000.0
# the context-model probabilities for which the judge is asked: outside, the context model
# is sure enough (and right often enough on the development sets) that a model call would
# cost ~0.2 s for nothing
BAND = (0.03, 0.97)
# How the head's opinion joins the context model's: their log-odds add, plus a lean towards
# `special`. Trained together on the generated sentences the head only learns to copy the
# context model (even out of fold it is right on ~99% of them: the frames repeat); on text
# written by others the two disagree usefully. Both numbers were chosen on the development
# sets (tests/data and an independent one), among 1 and 0.5 for the weight and -0.5..1 for
# the lean: a lean of 1 fails closed, as the policy does when unsure.
CONTEXT_WEIGHT = 1.0
LEAN = 1.0
_SEED = 5

Row = tuple[str, float, int, float]  # sentence, context probability, label, weight


def judged_sentences(det: Detectors, text: str) -> list[tuple[str, float]]:
    """(sentence, context-model probability) of every topic hit of `text` the context model
    decides (the rules' sure cases are never put to the judge)."""
    encoded, _ = encode_text(text)
    folded = fold_encoded(encoded)
    words = word_view(folded)
    tokens = det.scanner.scan(words)
    ents = det.entities(text, folded, words, shape_view(folded), tokens)
    hits = topic_hits(det.special, words, tokens, encoded)
    # the people the classifier sees at run time (detect.py), so the rows are the sentences
    # it would put to the judge
    people = People.of(
        as_entities(second_stage_people(text, ents, det.config.thresholds.personal)), hits
    )
    out = []
    for hit in hits:
        if hit.tag.endswith("!"):
            continue
        judged = det.context.judge(folded, hit, people, hit.tag)
        if judged.stage == "model":
            s, e = _sentence(folded, hit.start, hit.end)
            out.append((text[s:e], judged.confidence))
    return out


Kind = str  # "generated", "hand" (hand-written sentences) or "human" (records by others)
_WEIGHT: dict[Kind, float] = {"generated": 1.0, "hand": float(_HAND_WEIGHT), "human": 1.0}


def fold_models(data: Sequence[tuple[Example, Kind]]) -> list[SubjectModel]:
    """One context model per fold, each trained without that fold's examples (as train.py
    trains the shipped one: hand-written sentences counted thrice)."""
    det = Detectors(_OFF, model=None)
    models = []
    for k in range(FOLDS):
        rows = []
        for kind in ("generated", "hand", "human"):
            part = [e for i, (e, c) in enumerate(data) if i % FOLDS != k and c == kind]
            kind_rows, _, _ = featurise(det, part)
            rows += kind_rows * (_HAND_WEIGHT if kind == "hand" else 1)
        models.append(fit(rows))
    return models


_OFF = SensitivityConfig(judge=JudgeSettings(enabled=False))


def rows_of(data: Sequence[tuple[Example, Kind]], chosen: set[int]) -> list[Row]:
    """A record written by others gives a row only when the judge would read one sentence of
    it: its label is the record's, and in a longer record it may belong to another sentence."""
    dets = [Detectors(_OFF, model=m) for m in fold_models(data)]
    rows: list[Row] = []
    for i, (ex, kind) in enumerate(data):
        if i not in chosen:
            continue
        judged = judged_sentences(dets[i % FOLDS], ex.text)
        if kind == "human" and len(judged) != 1:
            continue
        for sentence, p in judged:
            rows.append((sentence, p, ex.label, _WEIGHT[kind]))
    return rows


def newton(
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    w: npt.NDArray[np.float64],
    l2: float,
    iters: int = 30,
) -> npt.NDArray[np.float64]:
    """Weighted L2 logistic regression; the last column of `x` is the bias (not penalised)."""
    beta = np.zeros(x.shape[1])
    reg = np.full(x.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -30, 30)))
        grad = x.T @ (w * (p - y)) + reg * beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(reg)
        beta = beta - np.linalg.solve(hess, grad)
    return beta


def fit_head(
    features: npt.NDArray[np.float64],
    context_p: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    w: npt.NDArray[np.float64],
) -> Head:
    """The head: a logistic regression on the judge model's features alone, the
    standardisation folded into its weights, joined to the context model's log-odds."""
    mu = features.mean(axis=0)
    sd = features.std(axis=0) + 1e-6
    x = np.hstack([(features - mu) / sd, np.ones((len(y), 1))])
    beta = newton(x, y, w, L2)
    weights = (CONTEXT_WEIGHT, *(float(v) for v in beta[:-1] / sd))
    bias = float(beta[-1] - np.sum(beta[:-1] * mu / sd)) + LEAN
    return Head(weights, bias, BAND[0], BAND[1], prompt_digest())


def features_of(sentences: Sequence[str], cache: Path | None) -> npt.NDArray[np.float64]:
    """The judge model's features of each sentence, from `cache` where it holds them (keyed
    by the sentence's digest, for this prompt digest only: the file's name carries it);
    the cache is rewritten with every sentence computed."""
    known: dict[str, npt.NDArray[np.float64]] = {}
    if cache is not None and cache.name and cache.is_file():
        with np.load(cache) as stored:
            known = dict(zip(stored["keys"].tolist(), stored["features"], strict=True))
    keys = [hashlib.sha256(s.encode("utf-8")).hexdigest() for s in sentences]
    missing = [(k, s) for k, s in zip(keys, sentences, strict=True) if k not in known]
    if missing:
        model = JudgeModel(model_file(), threads=1)
        for k, s in missing:
            known[k] = np.asarray(model.features(s), dtype=np.float64)
        model.close()
        if cache is not None and cache.name:
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_suffix(".tmp.npz")
            np.savez(tmp, keys=np.array(list(known)), features=np.stack(list(known.values())))
            tmp.replace(cache)
    print(f"{len(sentences) - len(missing)} of {len(sentences)} sentences' features cached")
    out = np.empty((len(sentences), N_FEATURES))
    for j, k in enumerate(keys):
        out[j] = known[k]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gateway.sensitivity.train_judge")
    ap.add_argument("--out", type=Path, default=HEAD_PATH)
    ap.add_argument("--generated", type=int, default=2200)
    ap.add_argument(
        "--features-cache",
        type=Path,
        default=default_cache_dir() / f"judge-features-{prompt_digest()[:16]}.npz",
        help="the model's features of sentences already computed (they depend only on the "
        "sentence and the prompt, not on the context model): a rebuild after a lexicon or "
        "training change computes only the new sentences' ('' turns it off)",
    )
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    data: list[tuple[Example, Kind]] = [
        *((e, "generated") for e in examples(seed=13)),
        *((e, "hand") for e in handwritten()),
        *((e, "human") for e in human_examples()),
    ]
    generated = [i for i, (_, kind) in enumerate(data) if kind == "generated"]
    chosen = {i for i, (_, kind) in enumerate(data) if kind != "generated"}
    chosen.update(random.Random(_SEED).sample(generated, min(args.generated, len(generated))))
    rows = rows_of(data, chosen)
    print(f"{len(rows)} sentences from {len(chosen)} examples ({time.perf_counter() - t0:.0f} s)")
    feats = features_of([r[0] for r in rows], args.features_cache)
    print(f"features of {len(rows)} sentences ({time.perf_counter() - t0:.0f} s)")
    head = fit_head(
        feats,
        np.array([r[1] for r in rows]),
        np.array([float(r[2]) for r in rows]),
        np.array([r[3] for r in rows]),
    )
    labels = np.array([r[2] == 1 for r in rows])
    alone = Head((0.0, *head.weights[1:]), head.bias - LEAN, 0, 1, "")
    for name, h in (("the head alone", alone), ("joined to the context model", head)):
        probs = np.array(
            [h.probability(r[1], f.tolist()) for r, f in zip(rows, feats, strict=True)]
        )
        print(f"training accuracy, {name}: {float(np.mean((probs >= 0.5) == labels)):.3f}")
    write_replacing(args.out, head.to_json() + "\n")
    print(f"wrote {args.out} in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
