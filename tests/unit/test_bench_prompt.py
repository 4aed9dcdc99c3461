"""The hot-path benchmark measures the traffic most requests are: no personal data and no
special-category topic. Its per-request codes once spelled abbreviations the classifier knows
("ibd", "hiv"), sending 0.4% of the load to the language-model judge."""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_no_request_code_of_the_benchmark_makes_a_topic_fire() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        from loadgen import MARK, chat_body, tag
    finally:
        sys.path.remove(str(BENCH))
    from gateway.sensitivity.classifier import Classifier

    template = json.loads(chat_body("m", False))["messages"][-1]["content"]
    assert MARK in template
    clf = Classifier(cache_entries=0)
    # every code of up to three letters, and the four-letter ones a run reaches
    fired = [
        code
        for code in map(tag, range(30_000))
        if clf.classify([template.replace(MARK, code)]).stage != "lexicon"
    ]
    assert fired == []
