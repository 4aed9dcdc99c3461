"""A first name told with a detail that singles its bearer out names someone: the year they
were born ('Zeynep, 1990 doğumlu', 'Jamal, born 1984') or their job ('kasiyer Derya', 'Jenny,
our receptionist'). Alone a first name stays below the personal threshold; with a birth date
or a job detail it is personal data."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon import Occurrences

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


def with_details(
    words: bytes, tokens: Occurrences, birth_words: frozenset[bytes], found: list[Candidate]
) -> list[Candidate]:
    """`found` with every lone first name near a birth word and a year, or near a job, raised
    to a name."""
    if not isinstance(tokens, Mapping) or not any(
        c.kind == "AD" and c.confidence < _CONFIDENCE for c in found
    ):
        return found
    births = sorted(o for t in birth_words & tokens.keys() for o in tokens[t])[:_LOOKS]
    spots = [
        (o, _NAME_SPAN)
        for o in births
        if _YEAR.search(words, max(0, o - _YEAR_SPAN), o + _YEAR_SPAN) is not None
    ]
    jobs = sorted(o for t in JOB_TOKENS & tokens.keys() for o in tokens[t])[:_LOOKS]
    spots += [(o, _JOB_SPAN) for o in jobs]
    if not spots:
        return found
    return [
        Candidate(c.kind, c.start, c.end, _CONFIDENCE, "name_detail")
        if c.kind == "AD"
        and c.confidence < _CONFIDENCE
        and any(abs(c.start - o) <= span for o, span in spots)
        else c
        for c in found
    ]
