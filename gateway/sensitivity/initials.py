"""Names written with initials: an initial before a listed surname ('G. Mensah', 'R. Okafor'),
and initials alone where the text gives the person an age or a sex ('Hasta C.T. (erkek, 29)',
'Danışan (B.K., 23)'), as clinical and case notes write them to hide the name, which still
points at one person. A surname that is an everyday word ('J. White') or initials without an
age ('A.Ş.', 'U.S.', 'T.C.') are not enough.

A regex scan of the whole text would cost more than every other name detector together, so the
places are found in the shape view (letter 'a', '.', '/', '(' and ')' as '.', space kept, other
characters '_'), where a one-letter word with its full stop is 'a.' after ' ', '_' or '.': one
regex search led by the literal 'a.' (which the engine finds fast, unlike a pattern that starts
with a class or a lookbehind), then a match at each hit, at most MAX_LOOKS of them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon_names import SURNAMES
from gateway.sensitivity.name_cues import MAX_LOOKS
from gateway.sensitivity.textnorm import fold

_CAP: Final = "A-ZÇĞİÖŞÜ"
_ONE_LETTER: Final = re.compile(rb"a\.(?<=[ _.]a\.)")
# one initial and a capitalised word, or two or three initials, matched where the shape view
# shows a one-letter word (the character before it is checked there)
_INITIALS: Final = re.compile(
    rf"[{_CAP}]\.[ \t]?(?:([{_CAP}][a-zçğıöşüâîû'’]{{2,29}})(?![\w])"
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


def _one_letter_words(text: str, shape: bytes) -> list[int]:
    """Offsets of one-letter words followed by a full stop, after a space, a line break or an
    opening bracket ('(B.K.'), not inside an abbreviation ('e.g.', 'Ph.D.')."""
    found = [0] if shape.startswith(b"a.") else []
    for m in _ONE_LETTER.finditer(shape, 1):
        i = m.start()
        if shape[i - 1] != 46 or text[i - 1] == "(":  # after '.', only an opening bracket
            found.append(i)
            if len(found) >= MAX_LOOKS:
                break
    return found


def initial_names(text: str, shape: bytes) -> Iterator[Candidate]:
    """'G. Mensah' with a listed surname; 'C.T.' with an age or a sex after it. `shape`: the
    text's shape view (textnorm.shape_view)."""
    for start in _one_letter_words(text, shape):
        m = _INITIALS.match(text, start)
        if m is None:
            continue
        word = m.group(1)
        if word is not None:
            f = fold(word)
            if f in SURNAMES and f not in _EVERYDAY_SURNAMES:
                yield Candidate("AD_SOYAD", m.start(), m.end(), 0.7, "name_initials")
        elif aged(text, m.end(), m.start() > 0 and text[m.start() - 1] == "("):
            yield Candidate("AD_SOYAD", m.start(), m.end(), 0.7, "name_initials")
