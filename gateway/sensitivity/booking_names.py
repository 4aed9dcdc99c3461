"""Passenger names as airline and travel systems write them (the IATA name element): the
surname, a slash, the given names and a title glued to them, all in capitals ('OZTURK/ALPERMR',
'SMITH/JANE MRS'). Check-in logs, tickets and booking exports carry them without any other
sign of a name. A capitalised pair with a slash is often something else ('TCP/IP', 'AND/OR'),
so it counts only with a title and a listed surname or given name, or with both listed.

The pairs are found from the slash, a literal the regex engine skips to in C, at most
MAX_LOOKS of them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon_names import FIRST_NAMES, SURNAMES
from gateway.sensitivity.name_cues import MAX_LOOKS

# the longer titles first, so that 'MRS' is not read as 'MR' and a given name ending in S
_TITLES: Final = ("MRS", "MSTR", "MISS", "MR", "MS", "DR")
# the slash and the given names after it, with the title glued on or a space apart
_AFTER_SLASH: Final = re.compile(r"/([A-Z]{2,34})(?: ?(" + "|".join(_TITLES) + r"))?(?![A-Za-z/])")
_MAX_SURNAME: Final = 34


def booking_names(text: str) -> Iterator[Candidate]:
    """The passenger names in `text`, each from its surname to its title."""
    if "/" not in text:
        return
    looks = 0
    for m in _AFTER_SLASH.finditer(text):
        looks += 1
        if looks > MAX_LOOKS:
            return
        start = m.start()
        while start > 0 and m.start() - start < _MAX_SURNAME and "A" <= text[start - 1] <= "Z":
            start -= 1
        surname = text[start : m.start()]
        if len(surname) < 2 or (start > 0 and text[start - 1].isalnum()):
            continue
        given, title = m.group(1), m.group(2)
        if title is None:
            given, title = _without_title(given)
        s_listed = surname.lower() in SURNAMES
        g_listed = given.lower() in FIRST_NAMES
        if (title and (s_listed or g_listed)) or (s_listed and g_listed):
            yield Candidate("AD_SOYAD", start, m.end(), 0.8, "booking_name")


def _without_title(given: str) -> tuple[str, str | None]:
    """'ALPERMR' -> ('ALPER', 'MR'); a given name without a glued title stays whole."""
    for title in _TITLES:
        if given.endswith(title) and len(given) - len(title) >= 2:
            return given[: -len(title)], title
    return given, None
