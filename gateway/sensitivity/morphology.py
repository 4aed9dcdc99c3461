"""Medical terms recognised by their form rather than listed one by one: an operation ending in
-ectomy/-ektomi, an inflammation in -itis, a tumour in -oma, a disease in -osis or -opathy. A
condition or procedure no lexicon names ('lumpectomy', 'tendinopathy', 'kolesistektomi') still
makes the second stage ask whom its sentence concerns; on its own it decides nothing.

The distinct tokens of a text are checked with bytes.endswith (C), so a long text costs one
split and one set, not a regex attempt at every letter; only the rare tokens that have such a
form are then located.

Also the softened stems of the lexicon: a Turkish word ending in a vowel and 'k' ends in 'ğ'
before a vowel ('çölyak' -> 'çölyağı', 'böbrek' -> 'böbreği', 'sanık' -> 'sanığı'), which folds
to 'g', so a stem listed as 'colyak*' never meets 'colyagi'."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

_ENDINGS: Final = (
    b"ectomy",
    b"ostomy",
    b"otomy",
    b"itis",
    b"inoma",
    b"noma",
    b"rcoma",
    b"eloma",
    b"ioma",
    b"ipoma",
    b"enoma",
    b"atoma",
    b"ucoma",
    b"osis",
    b"aemia",
    b"cemia",
    b"kemia",
    b"nemia",
    b"opathy",
)
# Turkish forms, which a case ending may follow (lumpektomisi, nöropatiden)
_TURKISH: Final = re.compile(rb"(?:ektomi|opati)[a-z]{0,8}$")
# words of ordinary prose that happen to carry such an ending
_NOT_MEDICAL: Final = frozenset(
    {
        b"hypnosis",
        b"symbiosis",
        b"osmosis",
        b"apotheosis",
        b"metamorphosis",
        b"homeopati",
        b"homeopatik",
        b"mikroskopi",
        b"microscopy",
        b"spectroscopy",
        b"oklahoma",
        b"stroma",
    }
)
# a cheap test first: a text that holds none of these (each form above contains one; a
# word-final 'oma' is padded with the space that ends a token) never pays for the split
_CORES: Final = (b"tomy", b"itis", b"oma ", b"osis", b"emia", b"pathy", b"ektomi", b"opati")
_MIN_LEN = 6  # 'itis' or 'osis' with a letter or two before it is no medical word


def medical_words(words: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(start, end, token) of every token of a word view that has the form of a medical term,
    in text order."""
    padded = words + b" "
    for core in _CORES:
        if core in padded:
            break
    else:
        return
    forms = [
        t
        for t in set(words.split())
        if len(t) >= _MIN_LEN
        and (t.endswith(_ENDINGS) or _TURKISH.search(t) is not None)
        and t not in _NOT_MEDICAL
        and not t[:1].isdigit()
    ]
    if not forms:
        return
    found: list[tuple[int, int, bytes]] = []
    n = len(words)
    for tok in forms:
        i = words.find(tok)
        while i >= 0:
            end = i + len(tok)
            if (i == 0 or words[i - 1] == 32) and (end == n or words[end] == 32):
                found.append((i, end, tok))
            i = words.find(tok, end)
    found.sort()
    yield from found


_VOWELS: Final = frozenset("aeiou")


def softened_terms(terms: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """(term, tag) for the 'ğ' form of every stem ('word*', or a phrase's last word:
    'denetimli serbestlik*' -> 'denetimli serbestliğe') that ends in a vowel (or 'n') and 'k'
    and has four letters or more before the 'k'."""
    for term, tag in terms:
        last = term.rsplit(" ", 1)[-1]
        if not last.endswith("k*") or len(last) < 6:
            continue
        stem = term[:-1]
        if stem[-2] in _VOWELS or stem[-2] == "n":
            yield stem[:-1] + "g*", tag
