"""A person's pay with its amount: 'maaşım 55 bin brüt', 'net maasim 41.250 tl', "Mustafa'nın
net salary'si 39k", 'my salary is £38,000', 'she earns 3,200 a month'. What someone earns is
personal data; an average, a scale or the minimum wage ('asgari ücret 22.104 TL', 'ortalama
maaş 45 bin', 'developer salaries start at 60k') names no one. So the pay word must be the
writer's own (a first-person ending, 'my', 'I earn') or follow someone (a first name, 'his',
'her', a kin or staff word) within three words, and an amount must be near it.

Found from the token scanner's occurrences of the pay words (SALARY_TOKENS), so text without
them costs nothing here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon import Occurrences
from gateway.sensitivity.lexicon_names import FIRST_NAMES

# the writer's own pay: a first-person ending
_MINE: Final = frozenset(
    b"maasim maasimi maasimiz maasimin maasima maasimdan ucretim ucretimi ucretimin".split()
)
# a pay word that needs someone before it
_PAY: Final = frozenset(b"maas maasi maasini maasinin salary base wage earn earns earning".split())
SALARY_TOKENS: Final = _MINE | _PAY
# whose pay it is, when one of the three words before says it ('his salary', 'eşimin maaşı',
# 'Ahmet Bey'in maaşı'); 'her' is also Turkish 'every' ('her ay maaşı'), still someone's
_OWNERS: Final = frozenset(
    b"my his her i he she esimin esim annemin babamin oglumun kizimin bey hanim wife husband "
    b"son daughter".split()
)
_FIRST: Final = frozenset(n.encode("ascii") for n in FIRST_NAMES if n.isascii())
# an amount: a number with a unit or a currency, one with thousands separators, or a bare
# number of four digits and more that is no year ('55 bin', '41.250 tl', '39k', '£38,000'
# folded to '?38,000', '78.000', '55000')
_AMOUNT: Final = re.compile(
    rb"(?<![0-9a-z])(?:\?|\$)? ?\d{1,3}(?:[.,]\d{3})*(?:[.,]\d{1,2})?"
    rb" ?(?:k|bin|tl|lira|try|usd|eur|euros?|gbp|dolar|dollars?|pounds?)(?![a-z])"
    rb"|(?<![0-9a-z])(?:\?|\$) ?\d[\d.,]*\d"
    rb"|(?<![0-9.,])(?:\d{1,3}(?:[.,]\d{3})+|\d{5,}|(?!19|20)\d{4})(?![0-9])"
)
_BEFORE: Final = 40  # bytes before the pay word an amount may stand ('55 bin maaşım var')
_AFTER: Final = 48


def _owned(words: bytes, start: int) -> bool:
    before = words[max(0, start - 40) : start].split()[-3:]
    return any(w in _OWNERS or w in _FIRST for w in before)


def salaries(folded: bytes, words: bytes, tokens: Occurrences) -> Iterator[Candidate]:
    """The amounts of pay that someone earns; `folded` and `words` are the text's folded bytes
    and word view (same offsets), `tokens` the scanner's occurrences."""
    for token in SALARY_TOKENS.intersection(tokens):
        mine = token in _MINE
        for start in tokens[token]:
            if not mine and not _owned(words, start):
                continue
            end = start + len(token)
            m = _AMOUNT.search(folded, end, end + _AFTER)
            if m is None:
                m = _AMOUNT.search(folded, max(0, start - _BEFORE), start)
            if m is not None:
                yield Candidate("MAAS", m.start(), m.end(), 0.7, "salary")
