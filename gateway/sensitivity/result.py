"""The classifier's answer. Holds entity TYPES, counts, spans and confidences — never values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gateway.core.types import DataClass


@dataclass(frozen=True, slots=True)
class Finding:
    """One detection. `kind` is an entity type (e.g. TCKN) or, when `category` is set, the
    special category it belongs to. Spans index into texts[text_index] as given to classify()."""

    kind: str
    text_index: int
    start: int
    end: int
    confidence: float
    category: str | None = None
    detector: str = ""

    @property
    def is_entity(self) -> bool:
        return self.category is None


@dataclass(frozen=True, slots=True)
class EntityCount:
    type: str
    count: int


@dataclass(frozen=True, slots=True)
class Sensitivity:
    data_class: DataClass
    entities: tuple[EntityCount, ...] = ()
    categories: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()
    confidence: float = 1.0
    reason: str | None = None
    elapsed_ms: float = 0.0
    # the token estimate (gateway/core/tokens.py) of the texts classified, counted from the
    # bytes the detectors read; None when the classifier failed closed before the end
    tokens: int | None = None
    # 'uncertain' when the second stage could not tell whether a special-category statement
    # concerns an individual; the policy's `sensitivity.when_uncertain` decides what follows
    band: Literal["confident", "uncertain"] = "confident"
    # what decided the class: 'detectors' (identifiers), 'lexicon' (nothing sensitive, or an
    # admin term), 'rules' / 'model' (the second stage), 'fail_closed'
    stage: str = "lexicon"

    def as_record(self) -> dict[str, Any]:
        """What may be stored in the ledger and audit log: types, counts, categories only."""
        return {
            "data_class": self.data_class,
            "entities": [{"type": e.type, "count": e.count} for e in self.entities],
            "categories": list(self.categories),
            "confidence": round(self.confidence, 3),
            "reason": self.reason,
            "band": self.band,
            "stage": self.stage,
        }
