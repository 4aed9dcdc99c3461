"""The sensitivity classifier: all text of a request in, a Sensitivity out. Never raises: an
error or an overrun of the time budget yields `special` with the reason recorded."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from gateway.core.types import ChatRequest, DataClass
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.detect import Detectors
from gateway.sensitivity.result import EntityCount, Finding, Sensitivity


class _BudgetExceeded(Exception):
    pass


def request_texts(request: ChatRequest) -> list[str]:
    """Every text a request carries: messages (all roles), tool calls, tool results, and the
    text parts of list contents; plus string/list `input` for embeddings-style bodies."""
    texts = request.all_texts()
    extra = getattr(request, "model_extra", None) or {}
    inp = extra.get("input")
    if isinstance(inp, str):
        texts.append(inp)
    elif isinstance(inp, list):
        texts.extend(x for x in inp if isinstance(x, str))
    return texts


class Classifier:
    def __init__(self, config: SensitivityConfig | None = None) -> None:
        self.config = config or SensitivityConfig()
        self._detectors = Detectors(self.config)

    def classify_request(self, request: ChatRequest) -> Sensitivity:
        try:
            texts = request_texts(request)
        except Exception as exc:  # pragma: no cover - defensive: fail closed
            return _fail_closed(f"classifier error: {type(exc).__name__}", 0.0)
        return self.classify(texts)

    def classify(self, texts: Sequence[str]) -> Sensitivity:
        started = time.perf_counter()
        try:
            return self._classify(texts, started)
        except _BudgetExceeded:
            elapsed = (time.perf_counter() - started) * 1000
            return _fail_closed(
                f"time budget exceeded ({elapsed:.1f} ms > {self.config.time_budget_ms} ms)",
                elapsed,
            )
        except Exception as exc:
            # only the exception type: a message could quote the text
            elapsed = (time.perf_counter() - started) * 1000
            return _fail_closed(f"classifier error: {type(exc).__name__}", elapsed)

    def _classify(self, texts: Sequence[str], started: float) -> Sensitivity:
        th = self.config.thresholds
        budget = self.config.time_budget_ms / 1000
        findings: list[Finding] = []
        best_below = 0.0
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError("texts must be strings")
            ents, cats = self._detectors.run(text, th.personal)
            for e in ents:
                if e.confidence >= th.personal:
                    findings.append(
                        Finding(e.kind, i, e.start, e.end, e.confidence, None, e.detector)
                    )
                else:
                    best_below = max(best_below, e.confidence)
            for c in cats:
                if c.confidence >= th.special:
                    findings.append(
                        Finding(c.category, i, c.start, c.end, c.confidence, c.category, "lexicon")
                    )
                else:
                    best_below = max(best_below, c.confidence)
            if time.perf_counter() - started > budget:
                raise _BudgetExceeded
        return _result(findings, best_below, (time.perf_counter() - started) * 1000)


def _result(findings: list[Finding], best_below: float, elapsed_ms: float) -> Sensitivity:
    ent_counts = Counter(f.kind for f in findings if f.category is None)
    cat_set = sorted({f.category for f in findings if f.category is not None})
    data_class: DataClass = "special" if cat_set else ("personal" if ent_counts else "public")
    confidence = max((f.confidence for f in findings), default=1.0 - best_below)
    return Sensitivity(
        data_class=data_class,
        entities=tuple(EntityCount(t, n) for t, n in sorted(ent_counts.items())),
        categories=tuple(cat_set),
        findings=tuple(findings),
        confidence=confidence,
        reason=None,
        elapsed_ms=elapsed_ms,
    )


def _fail_closed(reason: str, elapsed_ms: float) -> Sensitivity:
    return Sensitivity(data_class="special", confidence=0.0, reason=reason, elapsed_ms=elapsed_ms)
