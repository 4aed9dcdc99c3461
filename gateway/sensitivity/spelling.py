"""What only the written form tells: topic words that only their Turkish letters tell apart
from an everyday word ('Kürt', Kurdish, folds to 'kurt': wolf, a common surname, a first name,
so the lexicon, which reads the folded text, cannot list it), and lexicon words that are not
words where they stand (a case ending after an apostrophe: 'Öztürkoğlu'nun' is no 'nun'; the
'Şti.' of a company name is no STI); and unions named the Turkish way, a word joined to
'-İş' or '-Sen' ('Gıda-İş', 'Eğitim-Sen'), whose suffix folds to an everyday word. Read in
the text's Windows-1254 bytes, where 'ü' is still 'ü', at the same offsets as the folded views
(one byte per character in all)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Final

from gateway.sensitivity.lexicon import Hit

# Windows-1254 upper -> lower for ASCII and the Turkish capitals that have a lower case here
_LOWER: Final = bytes((c + 32 if 65 <= c <= 90 else c) for c in range(256)).translate(
    bytes.maketrans(b"\xc7\xd0\xd6\xdc\xde", b"\xe7\xf0\xf6\xfc\xfe")
)
# (the word's start in Windows-1254 lower case, its category)
_TERMS: Final = ((b"k\xfcrt", "ethnicity"), (b"k\xfcrd", "ethnicity"))
# a Turkish union's name: a word, a hyphen, then '-İş' or '-Sen' ('Gıda-İş', 'Eğitim-Sen',
# 'Öz Gıda-İş'e', 'Genel-Is'); found from the hyphen, a literal the regex engine skips to
_UNION_SUFFIX: Final = re.compile(
    rb"-(?:[\xddIi][s\xfe\xde]|[Ss]en|SEN)(?![a-z\xe7\xf0\xfd\xf6\xfe\xfc])"
)
_LETTER: Final = frozenset(
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\xc7\xd0\xd6\xdc\xde\xdd\xe7\xf0\xf6\xfc\xfe\xfd"
)
_CAPITAL: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ\xc7\xd0\xd6\xdc\xde\xdd")
# apostrophes as Windows-1254 writes them: ' ‘ ’ ´
_APOSTROPHES: Final = frozenset(b"'\x91\x92\xb4")
# 'Ş' and 'ş': a word starting with one is Turkish, never an English abbreviation
_S_CEDILLA: Final = frozenset(b"\xde\xfe")
_ENGLISH_ONLY: Final = frozenset({b"sti", b"stis"})


def union_names(encoded: bytes, words: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(start, end, folded name) of every union named the Turkish way: a capitalised word of
    three letters or more joined by a hyphen to 'İş' or 'Sen'."""
    if b"-" not in encoded:
        return
    for m in _UNION_SUFFIX.finditer(encoded):
        at = start = m.start()
        while start > 0 and encoded[start - 1] in _LETTER:
            start -= 1
        if at - start >= 3 and encoded[start] in _CAPITAL:
            yield start, m.end(), words[start : m.end()]


def with_suffix(hit: Hit[str], words: bytes, encoded: bytes) -> Hit[str]:
    """A one-word hit whose case ending is written after an apostrophe ('chemo'm',
    'fingerprint'imi', 'Alzheimer'ı') with that ending joined to its token, as if typed without
    the apostrophe: the second stage reads who is meant from the ending ('-imi': mine)."""
    end = hit.end
    if (
        end + 1 >= len(encoded)
        or encoded[end] not in _APOSTROPHES
        or end - hit.start != len(hit.token)
    ):
        return hit
    stop = words.find(b" ", end + 1)
    stop = len(words) if stop < 0 else stop
    if stop == end + 1:
        return hit
    return replace(hit, token=hit.token + words[end + 1 : stop])


def not_a_term(encoded: bytes, start: int, token: bytes) -> bool:
    """Whether the lexicon token at `start` is, as written, no word of its own: a suffix
    joined to a word by an apostrophe (a quote opened after a space still counts), or an
    English abbreviation written with a Turkish letter."""
    if start >= 2 and encoded[start - 1] in _APOSTROPHES and chr(encoded[start - 2]).isalnum():
        return True
    return token in _ENGLISH_ONLY and encoded[start] in _S_CEDILLA


def diacritic_words(encoded: bytes, words: bytes) -> Iterator[tuple[int, int, bytes, str]]:
    """(start, end, folded token, category) of every token starting with such a word."""
    if b"\xfc" not in encoded and b"\xdc" not in encoded:
        return
    low = encoded.translate(_LOWER)
    for stem, category in _TERMS:
        i = low.find(stem)
        while i >= 0:
            if i == 0 or words[i - 1] == 32:
                end = words.find(b" ", i)
                end = len(words) if end < 0 else end
                yield i, end, words[i:end], category
            i = low.find(stem, i + len(stem))
