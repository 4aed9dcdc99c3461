"""Detection quality of the classifier on a labelled JSONL set, in aggregate figures only.

Records: {"id", "text", "label"} and optionally "lang", "category" (the special category of a
special record), "slices" (a list of slice names, or an object of flags). Prints leak, special
leak and over-block overall, special recall per category, the same three rates per slice
(language; lower case; typed without Turkish letters; long >= 2 KB; first person and any other
slice the set names), the share of records the second stage judged, its latency, the share the
language-model judge answered for and its latency per sentence, and the band.

It never prints a record's text or id: a holdout set must stay unseen by whoever tunes the
classifier, so only counts and rates leave this module."""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig

_TURKISH = frozenset("çğıöşüÇĞİÖŞÜ")
_LONG = 2048
_ORDER = {"public": 0, "personal": 1, "special": 2}


@dataclass
class Rates:
    n: int = 0
    sensitive: int = 0
    leaked: int = 0
    special: int = 0
    special_leaked: int = 0
    special_leaked_if_uncertain_special: int = 0
    public: int = 0
    over: int = 0

    def add(self, gold: str, pred: str, uncertain: bool) -> None:
        self.n += 1
        if gold != "public":
            self.sensitive += 1
            self.leaked += pred == "public"
        if gold == "special":
            self.special += 1
            self.special_leaked += pred != "special"
            self.special_leaked_if_uncertain_special += pred != "special" and not uncertain
        if gold == "public":
            self.public += 1
            self.over += pred != "public"

    def line(self) -> str:
        return (
            f"n={self.n:5d}  leak={_pct(self.leaked, self.sensitive)}"
            f"  special leak={_pct(self.special_leaked, self.special)}"
            f"  over-block={_pct(self.over, self.public)}"
        )


# the holdout's targets (most of each rate allowed), checked by `bench/classify.py --targets`
TARGETS: dict[str, float] = {"leak": 0.02, "special leak": 0.03, "over-block": 0.08}


def combined(parts: Iterable[Rates]) -> Rates:
    """The rates of several sets taken as one."""
    out = Rates()
    for r in parts:
        for name in vars(out):
            setattr(out, name, getattr(out, name) + getattr(r, name))
    return out


def missed_targets(r: Rates) -> list[str]:
    """The targets `r` misses, each with its rate and limit; empty when it meets them all. A set
    with no record of a kind meets that kind's target vacuously."""
    rates = {
        "leak": (r.leaked, r.sensitive),
        "special leak": (r.special_leaked, r.special),
        "over-block": (r.over, r.public),
    }
    return [
        f"{name} {_pct(k, n).strip()} > {TARGETS[name]:.0%}"
        for name, (k, n) in rates.items()
        if n and k / n > TARGETS[name]
    ]


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:5.1f}% ({a}/{b})" if b else "    -  (0/0)"


@dataclass
class Quality:
    overall: Rates = field(default_factory=Rates)
    slices: dict[str, Rates] = field(default_factory=lambda: defaultdict(Rates))
    category_total: Counter[str] = field(default_factory=Counter)
    category_found: Counter[str] = field(default_factory=Counter)
    bands: Counter[str] = field(default_factory=Counter)
    stages: Counter[str] = field(default_factory=Counter)
    # where the misses come from: which stage let a sensitive record through
    misses: Counter[str] = field(default_factory=Counter)
    judged: int = 0
    stage2_ms: list[float] = field(default_factory=list)
    # the language-model judge: records it answered for, and the time of each answer
    judge_records: int = 0
    judge_ms: list[float] = field(default_factory=list)
    judge_error: str | None = None
    total_ms: list[float] = field(default_factory=list)

    def render(self, name: str) -> str:
        out = [f"== {name}", "overall   " + self.overall.line()]
        o = self.overall
        out.append(
            "          special leak if uncertain results are served as special: "
            + _pct(o.special_leaked_if_uncertain_special, o.special)
        )
        if self.category_total:
            out.append("special recall per category:")
            for cat in sorted(self.category_total):
                out.append(
                    f"  {cat:22s} {_pct(self.category_found[cat], self.category_total[cat])}"
                )
        out.append("per slice:")
        for sl in sorted(self.slices):
            out.append(f"  {sl:22s} {self.slices[sl].line()}")
        out.append(
            "bands: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.bands.items()))
            + "; deciding stage: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.stages.items()))
        )
        if self.misses:
            out.append(
                "misses by stage: " + ", ".join(f"{k} {v}" for k, v in sorted(self.misses.items()))
            )
        n = max(1, o.n)
        out.append(f"second stage reached by {_pct(self.judged, n)} of records")
        if self.stage2_ms:
            out.append(
                f"second stage latency per record that reached it: p50 "
                f"{_q(self.stage2_ms, 0.5):.3f} ms, p95 {_q(self.stage2_ms, 0.95):.3f} ms"
            )
        out.append(f"judge (language model) answered for {_pct(self.judge_records, n)} of records")
        if self.judge_ms:
            out.append(
                f"judge latency per sentence: p50 {_q(self.judge_ms, 0.5):.1f} ms, "
                f"p95 {_q(self.judge_ms, 0.95):.1f} ms ({len(self.judge_ms)} sentences)"
            )
        if self.judge_error:
            out.append(f"judge unavailable: {self.judge_error}")
        out.append(
            f"classify latency per record: p50 {_q(self.total_ms, 0.5):.3f} ms, "
            f"p95 {_q(self.total_ms, 0.95):.3f} ms"
        )
        return "\n".join(out)


def _q(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(xs, n=100, method="inclusive")[round(q * 100) - 1]


def slices_of(rec: dict[str, Any]) -> Iterator[str]:
    text: str = rec["text"]
    lang = rec.get("lang")
    if isinstance(lang, str):
        yield "lang=" + lang
    if text == text.lower():
        yield "lowercase"
    if lang in ("tr", "mix") and not any(c in _TURKISH for c in text):
        yield "ascii_folded"
    if len(text.encode("utf-8")) >= _LONG:
        yield "long>=2KB"
    named = rec.get("slices")
    if isinstance(named, list):
        yield from (f"set:{s}" for s in named if isinstance(s, str))
    elif isinstance(named, dict):
        yield from (f"set:{k}" for k, v in named.items() if v)
    register = rec.get("register")
    if isinstance(register, str):
        yield "register=" + register


class _TimedStage:
    """Wraps the classifier's second stage to measure the time it takes per record."""

    def __init__(self, clf: Classifier) -> None:
        self.spent = 0.0
        self.calls = 0
        stage = getattr(clf._detectors, "context", None)  # absent in a classifier without it
        if stage is None:
            return
        inner = stage.judge

        def judge(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - t0
                self.calls += 1

        stage.judge = judge  # type: ignore[method-assign]


class _TimedJudge:
    """Wraps the language-model judge to count and time the sentences it answers for."""

    def __init__(self, clf: Classifier) -> None:
        self.times: list[float] = []
        self.judge = getattr(clf, "judge", None)  # absent in a classifier without one
        if self.judge is None:
            return
        inner = self.judge.probability

        def probability(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            p = inner(*args, **kwargs)
            if p is not None:
                self.times.append(time.perf_counter() - t0)
            return p

        self.judge.probability = probability


def read(path: Path) -> Iterable[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def measure(path: Path, config: SensitivityConfig | None = None) -> Quality:
    # no per-text cache: a repeated record must cost what a new one costs
    clf = Classifier(config or SensitivityConfig(time_budget_ms=60_000), cache_entries=0)
    if hasattr(clf, "warm_judge"):
        clf.warm_judge()  # loaded before the first record, as at the gateway's start-up
    timed = _TimedStage(clf)
    timed_judge = _TimedJudge(clf)
    q = Quality()
    for rec in read(path):
        gold = rec["label"]
        timed.spent, timed.calls = 0.0, 0
        answered = len(timed_judge.times)
        t0 = time.perf_counter()
        res = clf.classify([rec["text"]])
        q.total_ms.append((time.perf_counter() - t0) * 1000)
        if timed.calls:
            q.judged += 1
            q.stage2_ms.append(timed.spent * 1000)
        if len(timed_judge.times) > answered:
            q.judge_records += 1
        pred = res.data_class
        uncertain = getattr(res, "band", "confident") == "uncertain"
        band = getattr(res, "band", "confident")
        q.bands[band] += 1
        q.stages[getattr(res, "stage", "lexicon")] += 1
        q.overall.add(gold, pred, uncertain)
        for sl in slices_of(rec):
            q.slices[sl].add(gold, pred, uncertain)
        cat = rec.get("category")
        if gold == "personal" and pred == "public":
            # which kind of personal data went unnoticed: a count per the set's own category
            kind = cat if isinstance(cat, str) and cat else "uncategorised"
            q.misses[f"personal->public, {kind[:24]}"] += 1
        elif gold == "special" and pred != "special":
            fired = "topic judged not about a person" if timed.calls else "no topic fired"
            q.misses[f"special->{pred}, {fired}"] += 1
        if gold == "special" and isinstance(cat, str) and cat:
            q.category_total[cat] += 1
            q.category_found[cat] += pred == "special"
    q.judge_ms = [t * 1000 for t in timed_judge.times]
    q.judge_error = getattr(timed_judge.judge, "error", None)
    return q
