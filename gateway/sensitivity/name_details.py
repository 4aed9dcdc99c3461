"""A first name told with a detail that singles its bearer out names someone: the year they
were born ('Zeynep, 1990 doğumlu', 'Jamal, born 1984') or their job ('kasiyer Derya', 'Jenny,
our receptionist'). Alone a first name stays below the personal threshold; with a birth date
or a job detail it is personal data."""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon import Occurrences
from gateway.sensitivity.lexicon_names import EVERYDAY_FIRST_NAMES, LISTED_FIRST_NAMES

# jobs and workplace roles said of a person (the word view: folded, lower case); a generic
# 'employee' or 'staff' singles no one out
JOB_TOKENS: Final = frozenset(
    b"""
    muhasebeci muhasebecimiz kasiyer kasiyerimiz stajyer stajyerimiz sofor soforumuz garson
    garsonumuz teknisyen teknisyenimiz sekreter sekreterimiz asistan asistanimiz mudur muduru
    mudurumuz mudurum sefi sefimiz ustasi ustamiz hemsire hemsiremiz avukat avukatimiz
    avukatim ogretmen ogretmeni ogretmenimiz ogretmenim muhendis muhendisi muhendisimiz mimar
    kurye kuryemiz depocu operator operatoru temsilcisi temsilcimiz danismanimiz uzmani
    elektrikci tesisatci kuafor berber emlakci eczaci resepsiyonist
    accountant cashier intern driver waiter waitress technician secretary assistant manager
    supervisor nurse lawyer attorney teacher engineer architect courier mechanic plumber
    electrician receptionist clerk developer designer analyst consultant recruiter barista
    chef cleaner janitor pharmacist paralegal bookkeeper foreman
    """.split()
)
# a year someone living may be born in, as its own word of the word view
_YEAR: Final = re.compile(rb"(?<![0-9])(?:19[2-9][0-9]|20[0-2][0-9])(?![0-9])")
# how far the year may stand from the birth word, and the name from the birth word or the job
_YEAR_SPAN: Final = 40
_NAME_SPAN: Final = 80
_JOB_SPAN: Final = 40
# a text has a few birth words and jobs; a hostile one made of them must not cost a search each
_LOOKS: Final = 16
_CONFIDENCE: Final = 0.6
# first names that stand for someone even typed in lower case, where the name detectors find
# no lone first name ('kübra taşdelen, depo şefi', 'adı nesrin, doğum 1991'): the hand-kept
# list, without those that are everyday words ('umut', 'sevgi', 'can')
_LOWER_NAMES: Final = frozenset(
    n.encode("ascii") for n in LISTED_FIRST_NAMES - EVERYDAY_FIRST_NAMES
)


def with_details(
    words: bytes, tokens: Occurrences, birth_words: frozenset[bytes], found: list[Candidate]
) -> list[Candidate]:
    """`found` with every lone first name near a birth word and a year, or near a job, raised
    to a name."""
    if not isinstance(tokens, Mapping):
        return found
    lower = _LOWER_NAMES.intersection(tokens)
    if not lower and not any(c.kind == "AD" and c.confidence < _CONFIDENCE for c in found):
        return found
    births = sorted(o for t in birth_words.intersection(tokens) for o in tokens[t])[:_LOOKS]
    spots = [
        (o, _NAME_SPAN)
        for o in births
        if _YEAR.search(words, max(0, o - _YEAR_SPAN), o + _YEAR_SPAN) is not None
    ]
    jobs = sorted(o for t in JOB_TOKENS.intersection(tokens) for o in tokens[t])[:_LOOKS]
    spots += [(o, _JOB_SPAN) for o in jobs]
    if not spots:
        return found
    raised = [
        Candidate(c.kind, c.start, c.end, _CONFIDENCE, "name_detail")
        if c.kind == "AD"
        and c.confidence < _CONFIDENCE
        and any(abs(c.start - o) <= span for o, span in spots)
        else c
        for c in found
    ]
    return raised + _lower_names(lower, tokens, spots, found)


def _lower_names(
    lower: AbstractSet[bytes],
    tokens: Mapping[bytes, list[int]],
    spots: list[tuple[int, int]],
    found: list[Candidate],
) -> list[Candidate]:
    """The listed first names near a spot that no candidate covers yet (a name the detectors
    passed over in lower case)."""
    out: list[Candidate] = []
    for name in sorted(lower):
        for o in tokens[name][:_LOOKS]:
            if any(abs(o - s) <= span for s, span in spots) and not any(
                c.start <= o < c.end for c in found
            ):
                out.append(Candidate("AD", o, o + len(name), _CONFIDENCE, "name_detail"))
    return out
