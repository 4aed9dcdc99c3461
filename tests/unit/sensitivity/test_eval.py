"""Runs the labelled evaluation set and holds the classifier to the issue's targets."""

from __future__ import annotations

import json

from gateway.sensitivity.evaluate import DEFAULT_SET, evaluate


def test_eval_set_shape() -> None:
    rows = [json.loads(line) for line in DEFAULT_SET.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 400
    share = {
        c: sum(r["label"] == c for r in rows) / len(rows) for c in ("public", "personal", "special")
    }
    assert 0.35 <= share["public"] <= 0.45 and 0.30 <= share["personal"] <= 0.40
    assert 0.20 <= share["special"] <= 0.30
    assert {r["lang"] for r in rows} == {"tr", "en"}
    assert sum(len(r["text"]) > 2048 for r in rows) >= 20  # long prompts, item buried


def test_eval_targets() -> None:
    report = evaluate()
    print(report.render())
    assert report.leak_rate <= 0.03
    assert report.special_leak_rate <= 0.05
    assert report.over_block_rate <= 0.08
