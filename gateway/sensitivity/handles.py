"""A person's account name in a log line or a record ('user=m.ferreira', 'login: ayse.tan',
"owner": "j_okafor"): a handle made of a first name or an initial and a surname, joined by a
dot or an underscore, names the person as surely as the full name. Service accounts and
handles nobody's name is in ('svc.backup', 'admin', 'build_bot') stay text.

Only texts in which the token scanner found one of the key words (HANDLE_TOKENS) are searched,
and at most MAX_LOOKS matches are examined."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon import Occurrences
from gateway.sensitivity.lexicon_names import FIRST_NAMES, SURNAMES
from gateway.sensitivity.name_cues import MAX_LOOKS

# the tokens the scanner must report for this module ('user_id' is 'user id' in the word view)
HANDLE_TOKENS: Final = frozenset(
    b"user username userid login owner assignee operator kullanici".split()
)
_HANDLE: Final = re.compile(
    r"(?<![\w.])(?:user(?:name|_?id)?|login|owner|assignee|operator|kullanici(?:_?adi)?)"
    r"[\"']?[ \t]{0,2}[=:][ \t]{0,2}[\"']?([a-z]{1,20})[._]([a-z]{2,25})(?![\w@.\-])",
    re.IGNORECASE,
)
# surnames that are everyday words and so say nothing after an initial ('j.white', 'a.long')
_EVERYDAY: Final = frozenset(
    "white brown green black gray grey long young king hall wood price cook reed ward hill bell "
    "baker test user admin backup service".split()
)


def _named(first: str, last: str) -> bool:
    if last in _EVERYDAY:
        return False
    if len(first) == 1:
        return last in SURNAMES
    return first in FIRST_NAMES and (last in SURNAMES or last in FIRST_NAMES)


def name_handles(text: str, found: Occurrences) -> Iterator[Candidate]:
    """Handles after a user/login/owner key that are a first name or initial and a surname.
    `found`: the tokens the scanner found in the text."""
    if HANDLE_TOKENS.isdisjoint(found):
        return
    for n, m in enumerate(_HANDLE.finditer(text)):
        if n >= MAX_LOOKS:
            break
        if _named(m.group(1).lower(), m.group(2).lower()):
            yield Candidate("AD_SOYAD", m.start(1), m.end(2), 0.7, "name_handle")
