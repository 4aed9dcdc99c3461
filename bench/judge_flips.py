"""Which records the language-model judge changes, and why (a development aid for dev sets).

    python bench/judge_flips.py SET.jsonl [...] [--low P] [--features-cache PATH]

Classifies every record twice, with the judge and without it, and prints each record whose
class differs: its gold label, both classes, and every sentence the judge answered for with
the context model's probability and the judge's. Also counts, per set, the special records
missed with a context-model probability below the band's low end and the public records that
have such a hit (what a wider band would send to the judge). For dev sets only: it prints
record text."""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from classify_quality import Rates

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import Judge, SensitivityConfig


def _record_judgements(clf: Any, only_stage: str | None = None) -> list[Any]:
    """Wrap the classifier's second stage so each judgement it makes (of `only_stage`, when
    given) is appended to the returned list."""
    sink: list[Any] = []
    stage = clf._detectors.context
    inner = stage.judge

    def logged(*a: Any, **k: Any) -> Any:
        h = inner(*a, **k)
        if only_stage is None or h.stage == only_stage:
            sink.append(h)
        return h

    stage.judge = logged
    return sink


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="+", type=Path)
    ap.add_argument("--low", type=float, default=None, help="override the band's low end")
    ap.add_argument("--features-cache", type=Path, default=Path("/tmp/judge_flips_feats.pkl"))
    args = ap.parse_args(argv)
    on = Classifier(SensitivityConfig())
    off = Classifier(SensitivityConfig(judge=Judge(enabled=False)))
    judge = on.judge
    assert judge is not None and on.warm_judge(), judge and judge.error
    if args.low is not None and judge.head is not None:
        import dataclasses

        judge.head = dataclasses.replace(judge.head, low=args.low)
    cache: dict[str, list[float]] = {}
    if args.features_cache.is_file():
        cache = pickle.loads(args.features_cache.read_bytes())
    model: Any = judge._model
    inner_features = model.features

    def features(sentence: str, deadline: float = float("inf")) -> list[float]:
        if sentence not in cache:
            cache[sentence] = inner_features(sentence)
        return cache[sentence]

    model.features = features
    asked: list[tuple[str, float, float | None]] = []
    inner_p = judge.probability

    def probability(sentence: str, p: float, allowance: Any) -> float | None:
        allowance.time_s = 1e9  # measure the answers, not this machine's load
        q = inner_p(sentence, p, allowance)
        asked.append((sentence, p, q))
        return q

    judge.probability = probability  # type: ignore[method-assign]
    judged = _record_judgements(on, only_stage="judge")
    hits = _record_judgements(off)
    low = judge.head.low if judge.head else 0.0
    for path in args.sets:
        flips = {"up": 0, "down": 0}
        rates = {"off": Rates(), "on": Rates()}
        reached = 0
        below = {"special_missed": 0, "public_ok": 0, "public_any": 0, "special_any": 0}
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            text, gold = rec["text"], rec["label"]
            asked.clear()
            hits.clear()
            judged.clear()
            a = off.classify([text]).data_class
            lows = [h for h in hits if h.stage == "model" and h.confidence < low]
            b = on.classify([text]).data_class
            rates["off"].add(gold, a, False)
            rates["on"].add(gold, b, False)
            reached += any(q is not None for _, _, q in asked)
            if lows:
                below["public_any" if gold == "public" else "special_any"] += gold != "personal"
                if gold == "special" and a != "special":
                    below["special_missed"] += 1
                    print(
                        f"  [below-band miss] {min(h.confidence for h in lows):.4f} {text[:160]!r}"
                    )
                if gold == "public" and a == "public":
                    below["public_ok"] += 1
            if (a == "special") != (b == "special"):
                flips["up" if b == "special" else "down"] += 1
                good = (b == "special") == (gold == "special")
                print(
                    f"{path.name} gold={gold} off={a} on={b} {'BETTER' if good else 'WORSE'}"
                    f" len={len(text)}"
                )
                answered = iter(judged)
                for s, p, q in asked:
                    qs = "-" if q is None else f"{q:.3f}"
                    who = "" if q is None else f" someone={next(answered).someone}"
                    print(f"    p={p:.3f} q={qs}{who} {s[:200]!r}")
        print(f"== {path.name} flips {flips} below-band {below}", flush=True)
        for k, r in rates.items():
            print(f"   judge {k:3s} {r.line()}")
        print(f"   judge answered for {reached} records", flush=True)
    args.features_cache.write_bytes(pickle.dumps(cache))
    return 0


if __name__ == "__main__":
    sys.exit(main())
