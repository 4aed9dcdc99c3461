"""Names written with initials: an initial before a listed surname ('G. Mensah', 'R. Okafor'),
and initials alone where the text gives the person an age or a sex ('Hasta C.T. (erkek, 29)',
'Danışan (B.K., 23)'), as clinical and case notes write them to hide the name, which still
points at one person. A surname that is an everyday word ('J. White') or initials without an
age ('A.Ş.', 'U.S.', 'T.C.') are not enough.

One regex pass over the text, which costs little since a capital letter followed by a full stop
is rare; at most MAX_LOOKS matches are examined."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.identifiers import Candidate
from gateway.sensitivity.lexicon_names import SURNAMES
from gateway.sensitivity.name_cues import MAX_LOOKS
from gateway.sensitivity.textnorm import fold

_CAP: Final = "A-ZÇĞİÖŞÜ"
# one initial and a capitalised word, or two or three initials; never inside a longer word or
# an abbreviation ('e.g. Smith', 'Ph.D. Jones')
_INITIALS: Final = re.compile(
    rf"(?<![\w.])[{_CAP}]\.[ \t]?(?:([{_CAP}][a-zçğıöşüâîû'’]{{2,29}})(?![\w])"
    rf"|[{_CAP}]\.(?:[ \t]?[{_CAP}]\.)?(?![\w]))"
)
# an age or a sex right after the initials: ' (erkek, 29)', ' (F/34)', ', 52 yaşında',
# ' (34 y)', ' (kadın)'; or, when the initials open a bracket, a number closing it: '(B.K., 23)'
_SEXED: Final = (
    r"[ \t]{0,2}[,(][ \t]{0,2}(?:erkek|kad[ıi]n|k[ıi]z|male|female|[MFEK])"
    r"(?:[ \t]{0,2}[,/;][ \t]{0,2}\d{1,3}|[ \t]{0,2}\))"
)
_AGE: Final = re.compile(
    _SEXED + r"|[ \t]{0,2}[,(][ \t]{0,2}\d{1,3}[ \t]{0,2}"
    r"(?:ya[şs]|y(?![\w])|yo(?![\w])|years?(?![\w])|yrs?(?![\w]))",
    re.IGNORECASE,
)
_BRACKET_AGE: Final = re.compile(r"[ \t]{0,2},[ \t]{0,2}\d{1,3}[ \t]{0,2}\)")


def aged(text: str, end: int, opened: bool = False) -> bool:
    """Initials ending at `end` are followed by an age or a sex; `opened`: the initials opened a
    bracket, which a number may close ('(B.K., 23)')."""
    if _AGE.match(text, end) is not None:
        return True
    return opened and _BRACKET_AGE.match(text, end) is not None


# surnames that are also everyday words: 'J. White', 'A. Long'
_EVERYDAY_SURNAMES: Final = frozenset(
    """
    white brown green black gray grey long young king hall wood price cook reed ward hill
    bell baker kara demir kurt can sen tan ay gul tas ince uzun bulut gunes aslan yavuz
    """.split()
)


def initial_names(text: str) -> Iterator[Candidate]:
    """'G. Mensah' with a listed surname; 'C.T.' with an age or a sex after it."""
    if "." not in text:
        return
    for n, m in enumerate(_INITIALS.finditer(text)):
        if n >= MAX_LOOKS:
            break
        word = m.group(1)
        if word is not None:
            f = fold(word)
            if f in SURNAMES and f not in _EVERYDAY_SURNAMES:
                yield Candidate("AD_SOYAD", m.start(), m.end(), 0.7, "name_initials")
        elif aged(text, m.end(), m.start() > 0 and text[m.start() - 1] == "("):
            yield Candidate("AD_SOYAD", m.start(), m.end(), 0.7, "name_initials")
