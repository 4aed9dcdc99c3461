"""The judge: a third opinion for the special categories' second stage. When a topic fired
and the context model (subject.py) is unsure whether its sentence concerns a person, a small
multilingual language model reads the sentence (judge_model.py) and a logistic head trained
in this repository (`python -m gateway.sensitivity.train_judge`, judge_head.json) turns the
model's answer features and the context model's own probability into the probability the
classifier uses.

The model is loaded once per process, on first use (or when the classifier is warmed), and
never when no topic fires: the hot path does not know it exists. When it cannot be had (the
`local` extra is not installed, the file is damaged, llama.cpp fails) the context model
decides, and the reason is kept for `status`."""

from __future__ import annotations

import functools
import json
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gateway.sensitivity.config import Judge as JudgeSettings

if TYPE_CHECKING:  # llama.cpp and numpy come with the `local` extra: imported when used
    from gateway.sensitivity.judge_model import JudgeModel

HEAD_PATH: Final = Path(__file__).with_name("judge_head.json")


@dataclass(frozen=True, slots=True)
class Head:
    """Logistic regression over [logit of the context model's probability, the model's
    features], standardisation folded into the weights; and the band of context-model
    probabilities in which the judge is asked at all."""

    weights: tuple[float, ...]  # [context log-odds, feature 0, feature 1, ...]
    bias: float
    low: float
    high: float
    prompt_sha: str  # the prompt the head was trained for (judge_model.prompt_digest)

    def probability(self, context_p: float, features: Sequence[float]) -> float:
        if len(features) != len(self.weights) - 1:
            raise ValueError("the head was trained for another number of features")
        z = self.bias + self.weights[0] * _logit(context_p)
        z += math.fsum(map(float.__mul__, self.weights[1:], features))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_json(self) -> str:
        return json.dumps(
            {
                "prompt_sha256": self.prompt_sha,
                "band": [self.low, self.high],
                "bias": round(self.bias, 6),
                "weights": [round(w, 6) for w in self.weights],
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Head:
        data = json.loads(text)
        low, high = data["band"]
        return cls(
            tuple(float(w) for w in data["weights"]),
            float(data["bias"]),
            float(low),
            float(high),
            str(data["prompt_sha256"]),
        )


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def load_head(path: Path = HEAD_PATH) -> Head | None:
    try:
        return Head.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


@dataclass(slots=True)
class Allowance:
    """What one classification may still spend on the judge: sentences and the judge's own
    time (`time_s`, on top of the detectors' time budget; waiting for the model counts).
    `wanted` counts the sentences the judge would have read but was not allowed to (the cap,
    its time, or an allowance of none): such a result is not remembered per text."""

    sentences: int
    time_s: float
    reserve_s: float
    wanted: int = 0
    judged: int = 0
    spent_s: float = 0.0

    def take(self) -> bool:
        if self.sentences <= 0 or self.spent_s + self.reserve_s > self.time_s:
            self.wanted += 1
            return False
        self.sentences -= 1
        return True


@dataclass
class Judge:
    """The model and its head for one process. Thread-safe: one sentence at a time (a
    llama.cpp context is one sequence); a caller that cannot get the model within its time
    falls back to the context model, and no caller ever waits for the model to load."""

    settings: JudgeSettings
    head: Head | None = field(default_factory=load_head)
    _model: JudgeModel | None = None
    _error: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)  # the model's one sequence
    _loading: threading.Lock = field(default_factory=threading.Lock)
    _starting: threading.Lock = field(default_factory=threading.Lock)
    _loader: threading.Thread | None = None

    @property
    def error(self) -> str | None:
        """Why the judge is not available, once loading it failed."""
        return self._error

    def wants(self, context_p: float) -> bool:
        """Whether the judge is asked about a hit the context model gave `context_p`."""
        head = self.head
        return (
            head is not None
            and self._error is None
            and self.settings.enabled
            and head.low <= context_p <= head.high
        )

    def load(self) -> bool:
        """Load the model now (warm-up, ~2-4 s); False when it cannot be had."""
        with self._loading:
            if self._model is None and self._error is None:
                self._model, self._error = _open(self.settings, self.head)
        return self._model is not None

    def _load_in_background(self) -> None:
        """Loading takes seconds, far more than a request's time budget: it happens when the
        classifier is warmed (start-up, the offload children, the CLI) or, when that was
        skipped, in a thread started by the first sentence that wants the model."""
        with self._starting:  # never `_loading`: a load holds it for seconds
            if self._loader is None and self._model is None and self._error is None:
                self._loader = threading.Thread(
                    target=self.load, name="gecit-judge-load", daemon=True
                )
                self._loader.start()

    def probability(self, sentence: str, context_p: float, allowance: Allowance) -> float | None:
        """The judge's probability that `sentence` concerns a person, or None when it may not
        or cannot answer in time (the context model's `context_p` then stands). The model is
        stopped when the allowance's time is spent, so the judge never adds more than its own
        time budget to a classification."""
        head = self.head
        if head is None or not allowance.take():
            return None
        model = self._model
        if model is None:
            self._load_in_background()
            allowance.wanted += self._error is None  # asked again once it is there
            return None
        started = time.perf_counter()
        stop = started + allowance.time_s - allowance.spent_s
        if not self._lock.acquire(timeout=max(0.0, stop - started)):
            allowance.wanted += 1  # another thread held the model all the time there was
            allowance.spent_s += time.perf_counter() - started
            return None
        try:
            from gateway.sensitivity.judge_model import JudgeTimeout

            try:
                features = model.features(sentence, stop)
            except JudgeTimeout:
                allowance.wanted += 1
                return None
            except Exception as exc:  # llama.cpp failed: the context model decides from now
                self._error = f"{type(exc).__name__}: {exc}"
                return None
            allowance.judged += 1
            return head.probability(context_p, features)
        finally:
            allowance.spent_s += time.perf_counter() - started
            self._lock.release()


def _open(settings: JudgeSettings, head: Head | None) -> tuple[JudgeModel | None, str | None]:
    """(the loaded model, None) or (None, why it cannot be had)."""
    from gateway.sensitivity.judge_file import model_file

    try:
        from gateway.sensitivity.judge_model import JudgeModel, prompt_digest

        if head is None:
            raise RuntimeError("no head built (judge_head.json)")
        if head.prompt_sha != prompt_digest():
            raise RuntimeError("the head was trained for another prompt")
        cache = Path(settings.cache_dir) if settings.cache_dir else None
        return JudgeModel(model_file(cache), settings.threads), None
    except Exception as exc:  # the `local` extra missing, a damaged file, llama.cpp
        return None, f"{type(exc).__name__}: {exc}"


@functools.lru_cache(maxsize=2)
def shared_judge(settings: JudgeSettings) -> Judge:
    """The process's judge for these settings: every classifier built with them (a policy
    reload, the offload children's classifiers) shares one loaded model."""
    return Judge(settings)
