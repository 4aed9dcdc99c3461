"""Length-preserving Turkish-aware folding: casefold with Turkish rules (İ -> i, I -> ı), then
drop diacritics, so 'DİYABET', 'Teşhis' and 'teshis' all meet the lexicon as 'diyabet' and
'teshis'. Position i in the folded form is position i in the original, so spans carry over."""

from __future__ import annotations

import codecs
import unicodedata
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


def _shape(c: int) -> int:
    if 97 <= c <= 122:
        return ord("a")
    if 48 <= c <= 57:
        return ord("0")
    if c in b" -":
        return c
    return ord(".") if c in b"./()" else ord("_")


# bytes.translate table for the shape view: letter -> 'a', digit -> '0', ' ' and '-' kept,
# '.', '/', '(', ')' -> '.', anything else '_'.
_SHAPE_TABLE: Final[bytes] = bytes(_shape(c) for c in range(256))


def _latin_extended() -> dict[str, str]:
    """The lower-case Latin letters outside cp1254 whose base letter is ASCII ('ā' of 'Māori',
    'ł' of 'Łódź', 'ř', 'ő', 'ễ'): a name or a people written with them meets the lexicon as
    'maori', not as 'm ori'. One letter for one, so spans carry over."""
    out: dict[str, str] = {"ł": "l", "đ": "d", "ħ": "h", "ŀ": "l", "ı": "i"}
    for cp in (*range(0x100, 0x250), *range(0x1E00, 0x1F00)):
        c = chr(cp)
        if c in out or c.lower() != c or len(c.upper()) != 1:
            continue
        base = unicodedata.normalize("NFD", c)[0]
        if base.isascii() and base.isalpha():
            out[c] = base.lower()
    return out


_DIACRITIC_TABLE: Final = str.maketrans({**_latin_extended(), **dict(_DIACRITICS)})


def fold(text: str) -> str:
    """Casefold (Turkish rules) and strip diacritics without changing the length. Meant for
    short strings (terms, words, values); a whole text goes through `fold_bytes`."""
    s = text.replace("İ", "i") if "İ" in text else text
    low = s.lower()
    if len(low) != len(s):  # a rare character whose lower case is longer: keep it as is
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in s)
    return low if low.isascii() else low.translate(_DIACRITIC_TABLE)


def _byte_fold_table() -> bytes:
    """cp1254 byte -> its `fold` as one ASCII byte, or '?' when it has none."""
    out = bytearray(b"?" * 256)
    for b in range(256):
        try:
            folded = fold(bytes([b]).decode("cp1254"))
        except UnicodeDecodeError:  # the few bytes cp1254 leaves undefined
            continue
        if len(folded) == 1 and folded.isascii():
            out[b] = ord(folded)
    return bytes(out)


# cp1254 (Windows Turkish) holds ASCII, Latin-1 and every Turkish letter in one byte each, so a C
# encode plus one bytes.translate folds a long text; the characters outside it whose `fold` is
# still ASCII (found by checking every code point) are mapped by the error handler below.
_BYTE_FOLD: Final[bytes] = _byte_fold_table()


def _outside_table() -> dict[str, str]:
    """Every Latin letter outside cp1254 (either case) whose `fold` is one ASCII letter."""
    out = {"\u1e9e": "s", "\u212a": "k", "\u212b": "a"}
    for c in _latin_extended():
        for form in (c, c.upper()):
            try:
                form.encode("cp1254")
            except UnicodeEncodeError:
                folded = fold(form)
                if len(folded) == 1 and folded.isascii():
                    out[form] = folded
    return out


_OUTSIDE_CP1254: Final[dict[str, str]] = _outside_table()
_ERRORS: Final = "gecit-fold"


def _outside_cp1254(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    chunk = exc.object[exc.start : exc.end]
    return "".join(_OUTSIDE_CP1254.get(c, "?") for c in chunk), exc.end


codecs.register_error(_ERRORS, _outside_cp1254)


def encode_text(text: str) -> tuple[bytes, bool]:
    """One byte per character: (the text's Windows-1254 bytes, True), or, when some character
    is outside Windows-1254, (bytes with those characters replaced, False). An ASCII text
    (a flag on the str) is encoded as ASCII: the same bytes, a plain copy."""
    if text.isascii():
        return text.encode("ascii"), True
    try:
        return text.encode("cp1254"), True
    except UnicodeEncodeError:
        return text.encode("cp1254", _ERRORS), False


def fold_encoded(encoded: bytes) -> bytes:
    """`fold_bytes` of a text from its `encode_text` bytes."""
    return encoded.translate(_BYTE_FOLD)


def fold_bytes(text: str) -> bytes:
    """`fold` as ASCII bytes, one byte per character (any other non-ASCII character becomes
    '?'); equal to fold(text).encode("ascii", "replace") but one C pass over long texts."""
    return encode_text(text)[0].translate(_BYTE_FOLD)


def word_view(folded: bytes) -> bytes:
    """Only [a-z0-9] kept, everything else a space: tokens are `.split()` of this."""
    return folded.translate(_WORD_TABLE)


def shape_view(folded: bytes) -> bytes:
    """Character classes only, so number-shaped patterns start with a literal ('0', 'aa00') and
    the regex engine can skip the prose between them in C."""
    return folded.translate(_SHAPE_TABLE)


def fold_term(term: str) -> str:
    """How a lexicon or admin term is stored: folded, single spaces."""
    return " ".join(fold(term).split())
