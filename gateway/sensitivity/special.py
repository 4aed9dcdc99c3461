"""KVKK Art. 6 special categories. A term fires only when the text is about an identifiable or
first-person subject: 'diyabetin belirtileri nelerdir?' is talk about a topic (public);
'hastamız Ayşe Yılmaz'a tip 2 diyabet tanısı kondu' and 'I was diagnosed with HIV' are data
about a person (special)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Final

from gateway.sensitivity.context import Words
from gateway.sensitivity.lexicon import Hit, Lexicon, Occurrences
from gateway.sensitivity.lexicon_special import FIRST_PERSON_SUFFIX, SPECIAL_TERMS

_FIRST_PERSON: Final = re.compile(FIRST_PERSON_SUFFIX)

# Markers of a concrete subject, searched in the sentence around a term (folded text).
SUBJECT: Final = Words(
    # Turkish: the writer, relatives, someone in the organisation's care
    rb"ben|benim|bende|bendeki|annem\w*|babam\w*|esim\w*|kizim\w*|oglum\w*|kardesim\w*|ablam\w*"
    rb"|abim\w*|agabeyim\w*|dedem\w*|ninem\w*|anneannem\w*|babaannem\w*|cocugum\w*|amcam\w*"
    rb"|teyzem\w*|halam\w*|dayim\w*|nisanlim\w*|sevgilim\w*|arkadasim\w*|hastamiz\w*"
    rb"|hastaniz\w*|hastaya|hastada|hastanin|muvekkil\w*|calisanimiz\w*|calisanlarimiz\w*"
    rb"|personelimiz\w*|iscimiz\w*|uyemiz\w*|ogrencimiz\w*|adayimiz\w*|basvuran\w*|sanik\w*"
    rb"|sayin|bay|bayan|hanim\w*|bey|beyin|beye"
    rb"|tanisi kon\w*|tani kon\w*|teshis(?:i)? kon\w*|teshis edil\w*|tedavi gor\w*"
    rb"|kullaniyor\w*|kullandim|ameliyat ol\w*|ameliyat edil\w*|yatirildi\w*|kaldirildi\w*"
    rb"|oldum|oluyorum|yasiyorum|cekiyorum|giyiyor\w*|takiyor\w*|uyesiyim|uyesidir|uyesi ol\w*"
    rb"|uye oldu\w*|uyeyim|tutuklandi\w*|mahkum oldu\w*|ceza aldi\w*|hapis yatti\w*|yakalandi\w*"
    rb"|pozitif cikti|dogum yapti|dusuk yapti|dedi ki|adli sicil kaydi"
    # English
    rb"|i|i'm|i've|i'd|my|mine|myself|me and|our (?:patient|client|employee|member|son|daughter|"
    rb"staff member|customer|student|tenant|applicant)|he|she|his|him"
    rb"|her (?:husband|wife|son|daughter|doctor|diagnosis)"
    rb"|patient|client|employee|applicant|mr|mrs|diagnosed|tested positive"
    rb"|was (?:arrested|convicted|sentenced|hospitali[sz]ed|admitted|charged)"
    rb"|my (?:wife|husband|son|daughter|mother|father|mom|dad|brother|sister|partner)",
    tail=rb"(?![a-z0-9])",
)
_SENTENCE_END: Final = re.compile(rb"[.!?\n]")
_WINDOW: Final = 160


@dataclass(frozen=True, slots=True)
class CategoryHit:
    category: str
    start: int
    end: int
    confidence: float


class SpanIndex:
    """Entity spans answering 'does any span overlap (lo, hi)?' with one bisect, so a prompt
    with thousands of terms and identifiers is not checked pair by pair."""

    __slots__ = ("_reach", "_starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [a for a, _ in ordered]
        self._reach = list(accumulate((b for _, b in ordered), max))  # furthest end so far

    def overlaps(self, lo: int, hi: int) -> bool:
        i = bisect_left(self._starts, hi)  # spans [0, i) start before hi
        return i > 0 and self._reach[i - 1] > lo


def build_lexicon(custom: Iterable[tuple[str, str]] = ()) -> Lexicon[str]:
    terms = [(t, cat) for cat, ts in SPECIAL_TERMS.items() for t in ts]
    return Lexicon([*terms, *custom])


def _sentence(folded: bytes, start: int, end: int) -> tuple[int, int]:
    lo = max(0, start - _WINDOW)
    hi = min(len(folded), end + _WINDOW)
    left = max(
        folded.rfind(b".", lo, start),
        folded.rfind(b"\n", lo, start),
        folded.rfind(b"?", lo, start),
        folded.rfind(b"!", lo, start),
    )
    m = _SENTENCE_END.search(folded, end, hi)
    return (left + 1 if left >= 0 else lo), (m.end() if m else hi)


def has_subject(
    folded: bytes,
    start: int,
    end: int,
    token: bytes,
    stem: bytes,
    entity_spans: SpanIndex,
) -> bool:
    """A first-person ending on the term, a subject marker in its sentence, or a personal
    identifier (name, TCKN, ...) within the window around it."""
    if len(token) > len(stem) and _FIRST_PERSON.search(token[len(stem) :]) is not None:
        return True
    s, e = _sentence(folded, start, end)
    if SUBJECT.search(folded, s, e):
        return True
    return entity_spans.overlaps(start - 2 * _WINDOW, end + 2 * _WINDOW)


def categories(
    lexicon: Lexicon[str],
    folded: bytes,
    words: bytes,
    found: Occurrences,
    entity_spans: Sequence[tuple[int, int]],
) -> Iterator[CategoryHit]:
    """Every special-category term, with 0.85 when a subject is there and 0.2 when not. A tag
    ending in '!' (an admin term that needs no subject) always counts."""
    hit: Hit[str]
    hits = lexicon.find(words, found)
    if not hits:
        return
    spans = SpanIndex(entity_spans)
    for hit in hits:
        direct = hit.tag.endswith("!")
        subject = direct or has_subject(folded, hit.start, hit.end, hit.token, hit.stem, spans)
        yield CategoryHit(hit.tag.rstrip("!"), hit.start, hit.end, 0.85 if subject else 0.2)
