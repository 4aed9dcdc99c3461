"""The second stage's verdicts over a whole text: a long text gets more chances to be wrong.

Each sentence where a topic fires is judged on its own, and one judgement at or above the
threshold makes the whole text special. A report, an article or the minutes of a meeting that
discuss health, religion or unions in general terms fire in dozens of sentences; if a plain
sentence is wrongly taken for a statement about someone one time in forty, such a document is
blocked about half the time. So the more sentences the context model judged in one text, the
more confident its judgement must be to count: the odds of each judgement are divided by the
number of judgements beyond the first few (`FREE`), up to `CAP` (a Bonferroni-like correction).
A statement about a person in a long public text still counts: it comes with a name, a first
person or a kin word, and the context model is then sure of it (odds of 20:1 and more), which
survives the division. The rules' verdicts (a first-person ending, an identifier next to the
topic) and an admin's term are left as they are."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from gateway.sensitivity.special import Band, CategoryHit

FREE: Final = 2
CAP: Final = 8
_JUDGED: Final = frozenset({"model", "judge"})


def corrected(hits: Sequence[CategoryHit], low: float, high: float) -> list[CategoryHit]:
    """`hits` of one text with the model's and the judge's confidences corrected for how many
    of them there are; `low`/`high`: the uncertain band, recomputed for a corrected hit."""
    n = sum(1 for h in hits if h.stage in _JUDGED)
    if n <= FREE:
        return list(hits)
    shift = math.log(min(n, CAP) / FREE)
    out = []
    for h in hits:
        if h.someone or h.stage not in _JUDGED or h.confidence <= 0.0 or h.confidence >= 1.0:
            out.append(h)
            continue
        z = math.log(h.confidence / (1.0 - h.confidence)) - shift
        p = 1.0 / (1.0 + math.exp(-z))
        band: Band = "uncertain" if low <= p < high else "confident"
        out.append(replace(h, confidence=p, band=band))
    return out
