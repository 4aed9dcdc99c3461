"""A first name told with the year its bearer was born ('Zeynep, 1990 doğumlu', 'Jamal, born
1984', 'doğum yılı 1991, adı Nesrin') names someone: alone a first name stays below the personal
threshold, but a name with a birth date is personal data, and the year is what people give."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon import Occurrences

# a year someone living may be born in, as its own word of the word view
_YEAR: Final = re.compile(rb"(?<![0-9])(?:19[2-9][0-9]|20[0-2][0-9])(?![0-9])")
# how far the year may stand from the birth word, and the name from the birth word
_YEAR_SPAN: Final = 40
_NAME_SPAN: Final = 80
# a text has a few birth words; a hostile one made of them must not cost a search each
_LOOKS: Final = 16
_CONFIDENCE: Final = 0.6


def with_birth_years(
    words: bytes, tokens: Occurrences, birth_words: frozenset[bytes], found: list[Candidate]
) -> list[Candidate]:
    """`found` with every lone first name near a birth word and a year raised to a name."""
    lone = [c for c in found if c.kind == "AD" and c.confidence < _CONFIDENCE]
    if not lone or not isinstance(tokens, Mapping):
        return found
    spots = sorted(o for t in birth_words & tokens.keys() for o in tokens[t])[:_LOOKS]
    years = [
        o for o in spots if _YEAR.search(words, max(0, o - _YEAR_SPAN), o + _YEAR_SPAN) is not None
    ]
    if not years:
        return found
    return [
        Candidate(c.kind, c.start, c.end, _CONFIDENCE, "name_birth_year")
        if c.kind == "AD"
        and c.confidence < _CONFIDENCE
        and any(abs(c.start - o) <= _NAME_SPAN for o in years)
        else c
        for c in found
    ]
