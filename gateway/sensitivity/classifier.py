"""The sensitivity classifier: all text of a request in, a Sensitivity out. Never raises: an
error or an overrun of the time budget yields `special` with the reason recorded."""

from __future__ import annotations

import time
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
        personal, special = th.personal, th.special
        deadline = started + self.config.time_budget_ms / 1000
        run = self._detectors.run
        clock = time.perf_counter
        findings: list[Finding] = []
        best_below = 0.0
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError("texts must be strings")
            ents, cats = run(text, personal)
            for e in ents:
                if e.confidence >= personal:
                    findings.append(
                        Finding(e.kind, i, e.start, e.end, e.confidence, None, e.detector)
                    )
                elif e.confidence > best_below:
                    best_below = e.confidence
            for c in cats:
                if c.confidence >= special:
                    findings.append(
                        Finding(c.category, i, c.start, c.end, c.confidence, c.category, "lexicon")
                    )
                elif c.confidence > best_below:
                    best_below = c.confidence
            if clock() > deadline:
                raise _BudgetExceeded
        return _result(findings, best_below, (clock() - started) * 1000)


def _result(findings: list[Finding], best_below: float, elapsed_ms: float) -> Sensitivity:
    if not findings:
        return Sensitivity(
            data_class="public", confidence=1.0 - best_below, reason=None, elapsed_ms=elapsed_ms
        )
    ent_counts: dict[str, int] = {}
    cats: set[str] = set()
    confidence = findings[0].confidence
    for f in findings:
        if f.category is None:
            ent_counts[f.kind] = ent_counts.get(f.kind, 0) + 1
        else:
            cats.add(f.category)
        if f.confidence > confidence:
            confidence = f.confidence
    cat_set = sorted(cats)
    data_class: DataClass = "special" if cat_set else ("personal" if ent_counts else "public")
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
