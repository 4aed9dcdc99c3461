"""The second stage's verdicts over a whole text: a judgement about no one must be surer, and
more so in a long text, which gets more chances to be wrong.

Each sentence where a topic fires is judged on its own, and one judgement at or above the
threshold makes the whole text special. A report, an article or the minutes of a meeting that
discuss health, religion or unions in general terms fire in dozens of sentences; if a plain
sentence is wrongly taken for a statement about someone one time in forty, such a document is
blocked about half the time. So the more sentences the context model judged in one text, the
more confident its judgement must be to count: the odds of each judgement are divided by the
number of judgements beyond the first few (`FREE`), up to `CAP` (a Bonferroni-like correction).

Only judgements of sentences that point at no one are corrected: no name, no I or we, no kin or
role word, nobody in the sentence before (subject.someone). Those are the context model's
guesses from the frame alone, and even in a short text they must reach odds of `NOBODY_ODDS`
rather than 1:1 (most general questions it took for statements sat just above 0.5). A
statement about a person in a long public text still counts as before. The rules' verdicts (a
first-person ending, an identifier next to the topic) and an admin's term are left as they
are.

A text that speaks to whoever reads it — a medicine leaflet ('doktorunuza veya eczacınıza
danışınız', 'consult your pharmacist'), a staff handbook or a policy for all employees, a
notice to all colleagues — raises the bar for judgements about no one by `READER_ODDS` more:
its 'you' is every reader, and the frames of such texts ('if you have ...', 'your condition')
read to the context model like someone's own case. A judgement that points at someone (a name,
I, a kin word) is left as it is, so 'Dear all, Ayşe Yılmaz is on chemotherapy' stays special.

A text that declares the people in it invented — an exam or case-based question ('Q7.',
'Soru 14:', 'aşağıdakilerden hangisi', 'no real patient'), a hypothetical, a moot, fiction or
a novel's plot, a Punnett square — raises the bar by `DECLARED_ODDS` for every judgement that
points at no real person: its 'a 60-year-old patient', 'a woman who is a carrier' or 'a
candidate' is a role the question invents. A name, I or my kin (special.CategoryHit.concrete)
keeps its judgement, so 'Q7. My sister is a carrier ...' stays special."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from gateway.sensitivity.special import Band, CategoryHit

FREE: Final = 2  # judgements a text may hold before the count raises the bar
CAP: Final = 8  # beyond this many the bar rises no more: odds / (CAP / FREE) at most
NOBODY_ODDS: Final = 1.5  # a judgement about no one counts from p = 0.6, not 0.5
_JUDGED: Final = frozenset({"model", "judge"})
READER_ODDS: Final = 4.0
# what a leaflet, a handbook, a policy or a notice to everyone says of its reader (folded)
_TO_READERS: Final = re.compile(
    rb"kullanma talimati|doktorunuza|eczaciniza|hekiminize|el kitabi|tum calisanlar\w*"
    rb"|tum personel\w*|degerli calisma arkadaslarimiz|degerli calisanlarimiz|herkes davetli\w*"
    rb"|sayin calisanlar\w*|degerli calisanlar|sayin personel\w*|tum ekip\w*|tum birimler\w*"
    rb"|package leaflet|patient information leaflet|(?:consult|ask|talk to|tell) your"
    rb" (?:doctor|pharmacist|gp|nurse)|employee handbook|staff handbook|this policy"
    rb"|all employees|all staff|dear all|dear colleagues|everyone is welcome|to: all"
    rb"|dear team|hi all|hello all|hi everyone|hello everyone|all colleagues|company-wide"
)


DECLARED_ODDS: Final = 10.0
# what an exam, a case, a moot, fiction or a textbook says of itself (folded). The plain words
# are looked for as substrings, one fast pass each: one regex alternation of them all tried
# every alternative at every offset (~60 us for a short prompt). Then the numbered and worded
# forms that need a pattern.
_DECLARED_WORDS: Final = (
    b"case-based",
    b"case based",
    b"no real patient",
    b"no real person",
    b"no real people",
    b"hypothetical",
    b"fictional",
    b"fictitious",
    b"moot",
    b"exam question",
    b"practice question",
    b"multiple choice",
    b"punnett",
    b"summarise the plot",
    b"summarize the plot",
    b"plot of",
    b"book club",
    b"the novel",
    b"textbook",
    b"worked example",
    b"asagidakilerden hangisi",
    b"vaka sorusu",
    b"varsayimsal",
    b"kurgusal",
    b"ders notlar",
    b"sinav sorusu",
    b"romanin konusu",
    b"romaninda",
)
_DECLARED: Final = re.compile(
    # a numbered question; 'Q1'-'Q4' only opening a line ('by Q3.' is a quarter), and no
    # numbered case ('Case 2:', 'Vaka 3:' list real ones in an HR file or a case series)
    rb"(?<![a-z0-9])(?:soru|question) ?[0-9]{1,3}[.):]"
    rb"|(?<![a-z0-9])q ?(?:[5-9]|[1-9][0-9]{1,2})[.)]|(?:^|\n)q[1-4]\. "
    rb"|gercek (?:kisi|hasta|aile)\w* (?:degil|kullanma)\w*"
)


def declared(folded: bytes) -> bool:
    """Whether a text declares the people in it invented (an exam, a case, fiction)."""
    return any(w in folded for w in _DECLARED_WORDS) or _DECLARED.search(folded) is not None


def to_readers(folded: bytes) -> bool:
    """Whether a text addresses whoever reads it (a leaflet, a handbook, a notice to all)."""
    return _TO_READERS.search(folded) is not None


def corrected(
    hits: Sequence[CategoryHit], low: float, high: float, folded: bytes = b""
) -> list[CategoryHit]:
    """`hits` of one text, the model's and the judge's confidences about no one corrected for
    how many judgements there are and whether the text (`folded`) speaks to whoever reads
    it; `low`/`high`: the uncertain band, recomputed."""
    n = sum(1 for h in hits if h.stage in _JUDGED)
    shift = math.log(NOBODY_ODDS * max(1.0, min(n, CAP) / FREE))
    if n and folded and to_readers(folded):
        shift += math.log(READER_ODDS)
    # looked for only when some judgement could be lowered by it
    roles = any(h.stage in _JUDGED and not h.concrete for h in hits)
    invented = math.log(DECLARED_ODDS) if roles and folded and declared(folded) else 0.0
    out = []
    for h in hits:
        if h.stage not in _JUDGED or h.confidence <= 0.0 or h.confidence >= 1.0:
            out.append(h)
            continue
        by = (0.0 if h.someone else shift) + (0.0 if h.concrete else invented)
        if by <= 0.0:
            out.append(h)
            continue
        z = math.log(h.confidence / (1.0 - h.confidence)) - by
        p = 1.0 / (1.0 + math.exp(-z))
        band: Band = "uncertain" if low <= p < high else "confident"
        out.append(replace(h, confidence=p, band=band))
    return out
