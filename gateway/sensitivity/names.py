"""Person names (lexicon + titles) and postal addresses, from lexicon hits on the word view."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.identifiers import Candidate
from gateway.sensitivity.lexicon import Lexicon, Occurrences
from gateway.sensitivity.lexicon_names import (
    FIRST_NAMES,
    NOT_SURNAMES,
    PUBLIC_FIGURES,
    SURNAMES,
    TITLES_AFTER,
    TITLES_BEFORE,
)
from gateway.sensitivity.textnorm import fold as _fold_word

NAME_LEXICON: Final[Lexicon[str]] = Lexicon(
    [(n, "first") for n in FIRST_NAMES]
    + [(t, "title_before") for t in TITLES_BEFORE]
    + [(t, "title_after") for t in TITLES_AFTER]
)
_NEXT_WORD: Final = re.compile(r"[ \t]{1,3}([A-ZÇĞİÖŞÜ][a-zçğıöşüâîû]+|[A-ZÇĞİÖŞÜ]{2,})")
_PREV_WORD: Final = re.compile(r"([A-ZÇĞİÖŞÜ][a-zçğıöşüâîû]+)[ \t]{1,3}$")

ADDRESS_LEXICON: Final[Lexicon[str]] = Lexicon(
    [
        (w, "street")
        for w in (
            "mah",
            "mahalle",
            "mahallesi",
            "mh",
            "cad",
            "cadde",
            "caddesi",
            "cd",
            "sok",
            "sokak",
            "sokagi",
            "sk",
            "bulvar*",
            "blv",
            "street",
            "avenue",
            "road",
            "lane",
            "boulevard",
        )
    ]
)
_ADDRESS_DETAIL: Final = re.compile(
    rb"(?<![a-z0-9])(?:no|numara|kat|daire|d|apt|apartmani|blok|site|suite|flat|unit)"
    rb"[ .:]{0,3}\d|\d{5}(?![0-9])|(?<![a-z0-9])(?:[a-z]+ )?/ ?[a-z]+(?![a-z])|\d+[a-z]? [a-z]+ "
    rb"(?:street|avenue|road|lane)"
)


def person_names(text: str, words: bytes, found: Occurrences) -> Iterator[Candidate]:
    """Full names with a known surname or a title; a lone first name stays below threshold."""
    for hit in NAME_LEXICON.find(words, found):
        if hit.tag == "first":
            if not text[hit.start].isupper():
                continue
            yield from _from_first_name(text, hit.start, hit.end)
        elif hit.tag == "title_before":
            m = _NEXT_WORD.match(text, hit.end)
            if m is not None:
                end = m.end()
                m2 = _NEXT_WORD.match(text, end)
                if m2 is not None and _fold_word(m2.group(1)) not in NOT_SURNAMES:
                    end = m2.end()
                if _fold_word(m.group(1)) not in NOT_SURNAMES:
                    yield Candidate("AD_SOYAD", m.start(1), end, 0.9, "name_title")
        else:  # title_after: "Ayşe Hanım"
            m = _PREV_WORD.search(text, max(0, hit.start - 40), hit.start)
            if m is not None and _fold_word(m.group(1)) not in NOT_SURNAMES:
                yield Candidate("AD_SOYAD", m.start(1), m.end(1), 0.85, "name_title")


def _from_first_name(text: str, start: int, end: int) -> Iterator[Candidate]:
    first = _fold_word(text[start:end])
    last_end = end
    surname_known = False
    capital_next = False
    pos = end
    for _ in range(2):
        m = _NEXT_WORD.match(text, pos)
        if m is None:
            break
        w = _fold_word(m.group(1))
        if w in NOT_SURNAMES:
            break
        capital_next = True
        last_end = m.end()
        pos = m.end()
        if w in SURNAMES:
            surname_known = True
            break
        if w not in FIRST_NAMES:
            break
    if not capital_next:
        yield Candidate("AD", start, end, 0.3, "name_lexicon")
        return
    full = _fold_word(text[start:last_end])
    if full in PUBLIC_FIGURES or any(f in full for f in PUBLIC_FIGURES if first in f):
        return
    yield Candidate("AD_SOYAD", start, last_end, 0.8 if surname_known else 0.55, "name_lexicon")


def addresses(folded: bytes, words: bytes, found: Occurrences) -> Iterator[Candidate]:
    """A street word (mah., cad., sok., street) with a number, door, floor or postcode near."""
    last_end = -1
    for hit in ADDRESS_LEXICON.find(words, found):
        lo, hi = max(0, hit.start - 60), min(len(folded), hit.end + 60)
        if hit.start < last_end:
            continue
        if _ADDRESS_DETAIL.search(folded, lo, hi) is None:
            continue
        start = folded.rfind(b"\n", lo, hit.start) + 1 or lo
        start = max(start, lo)
        end = hi
        nl = folded.find(b"\n", hit.end, hi)
        if nl >= 0:
            end = nl
        last_end = end
        yield Candidate("ADRES", start, end, 0.8, "address")
