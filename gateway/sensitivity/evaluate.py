"""Evaluates the classifier on a labelled JSONL set (lines of {"id", "text", "label"}) and
prints per-class precision/recall, leak rate, special leak rate and over-block rate.

    python -m gateway.sensitivity.evaluate [tests/data/sensitivity_eval.jsonl]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from gateway.core.types import DATA_CLASS_ORDER
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig

DEFAULT_SET = Path(__file__).resolve().parents[2] / "tests" / "data" / "sensitivity_eval.jsonl"
CLASSES = ("public", "personal", "special")


@dataclass
class Report:
    pairs: list[tuple[str, str, str]] = field(default_factory=list)  # (id, gold, predicted)

    def _count(self, gold: str | None = None, pred: str | None = None) -> int:
        return sum(
            1
            for _, g, p in self.pairs
            if (gold is None or g == gold) and (pred is None or p == pred)
        )

    def precision(self, cls: str) -> float:
        n = self._count(pred=cls)
        return self._count(gold=cls, pred=cls) / n if n else 1.0

    def recall(self, cls: str) -> float:
        n = self._count(gold=cls)
        return self._count(gold=cls, pred=cls) / n if n else 1.0

    @property
    def leak_rate(self) -> float:
        """Personal or special records predicted public."""
        sensitive = [p for _, g, p in self.pairs if g != "public"]
        return sum(1 for p in sensitive if p == "public") / len(sensitive) if sensitive else 0.0

    @property
    def special_leak_rate(self) -> float:
        """Special records predicted lower than special."""
        special = [p for _, g, p in self.pairs if g == "special"]
        return sum(1 for p in special if p != "special") / len(special) if special else 0.0

    @property
    def over_block_rate(self) -> float:
        """Public records predicted higher than public."""
        public = [p for _, g, p in self.pairs if g == "public"]
        return sum(1 for p in public if p != "public") / len(public) if public else 0.0

    def errors(self) -> list[tuple[str, str, str]]:
        return [t for t in self.pairs if t[1] != t[2]]

    def render(self) -> str:
        lines = [f"records: {len(self.pairs)}"]
        for cls in CLASSES:
            lines.append(
                f"{cls:>9}: n={self._count(gold=cls):4d}  precision={self.precision(cls):.3f}"
                f"  recall={self.recall(cls):.3f}"
            )
        lines.append(f"leak rate (personal+special -> public): {self.leak_rate:.3%}")
        lines.append(f"special leak rate (special -> lower):    {self.special_leak_rate:.3%}")
        lines.append(f"over-block rate (public -> higher):      {self.over_block_rate:.3%}")
        for ident, gold, pred in self.errors():
            direction = "over" if DATA_CLASS_ORDER[pred] > DATA_CLASS_ORDER[gold] else "under"
            lines.append(f"  miss {ident}: gold={gold} predicted={pred} ({direction})")
        return "\n".join(lines)


def evaluate(path: Path = DEFAULT_SET, config: SensitivityConfig | None = None) -> Report:
    # a generous budget: this measures detection quality, not speed (see bench/classify.py)
    clf = Classifier(config or SensitivityConfig(time_budget_ms=10_000))
    report = Report()
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                predicted = clf.classify([row["text"]]).data_class
                report.pairs.append((row["id"], row["label"], predicted))
    return report


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    print(evaluate(Path(args[0]) if args else DEFAULT_SET).render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
