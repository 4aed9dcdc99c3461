"""Length-preserving Turkish-aware folding: casefold with Turkish rules (İ -> i, I -> ı), then
drop diacritics, so 'DİYABET', 'Teşhis' and 'teshis' all meet the lexicon as 'diyabet' and
'teshis'. Position i in the folded form is position i in the original, so spans carry over."""

from __future__ import annotations

from typing import Final

_DIACRITICS: Final[tuple[tuple[str, str], ...]] = (
    ("ı", "i"),
    ("ç", "c"),
    ("ğ", "g"),
    ("ö", "o"),
    ("ş", "s"),
    ("ü", "u"),
    ("â", "a"),
    ("î", "i"),
    ("û", "u"),
    ("é", "e"),
    ("è", "e"),
    ("ê", "e"),
    ("ë", "e"),
    ("á", "a"),
    ("à", "a"),
    ("ä", "a"),
    ("ã", "a"),
    ("å", "a"),
    ("í", "i"),
    ("ï", "i"),
    ("ó", "o"),
    ("ò", "o"),
    ("ô", "o"),
    ("õ", "o"),
    ("ú", "u"),
    ("ù", "u"),
    ("ñ", "n"),
    ("ß", "s"),
    ("’", "'"),
    ("‘", "'"),
    ("´", "'"),
    ("\u00a0", " "),
)

# bytes.translate table: keep [a-z0-9], everything else becomes a space (word view).
_WORD_TABLE: Final[bytes] = bytes(
    c if (97 <= c <= 122 or 48 <= c <= 57) else 32 for c in range(256)
)
_DIGIT_DELETE: Final[bytes] = bytes(c for c in range(256) if not 48 <= c <= 57)


def fold(text: str) -> str:
    """Casefold (Turkish rules) and strip diacritics without changing the length."""
    s = text.replace("İ", "i") if "İ" in text else text
    low = s.lower()
    if len(low) != len(s):  # a rare character whose lower case is longer: keep it as is
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in s)
    if not low.isascii():
        for src, dst in _DIACRITICS:
            if src in low:
                low = low.replace(src, dst)
    return low


def fold_bytes(text: str) -> bytes:
    """`fold` as ASCII bytes; any other non-ASCII character becomes '?', one byte each."""
    return fold(text).encode("ascii", "replace")


def word_view(folded: bytes) -> bytes:
    """Only [a-z0-9] kept, everything else a space: tokens are `.split()` of this."""
    return folded.translate(_WORD_TABLE)


def digit_count(folded: bytes) -> int:
    return len(folded.translate(None, _DIGIT_DELETE))


def fold_term(term: str) -> str:
    """How a lexicon or admin term is stored: folded, single spaces."""
    return " ".join(fold(term).split())
