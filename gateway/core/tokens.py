"""The text token estimate (used when an upstream reports no usage, for budgets, and for the
policy's cost estimate). Roughly what BPE tokenizers do: words, numbers and single punctuation
marks are tokens; long words split about every 4 characters. So a text costs one token per
punctuation mark and ceil(n / 4) per word of n word characters (`\\w`), whitespace nothing.

Counted on the text's Windows-1254 bytes with C-level byte operations; the sensitivity
classifier encodes each text that way anyway and counts from the same bytes
(`count_encoded_tokens`), so a prompt is encoded once per request, not twice.
"""

from __future__ import annotations

import re

# The definition, used as is for text outside Windows-1254 (Turkish + Western European).
_TOKEN = re.compile(r"\w{1,4}|[^\w\s]", re.UNICODE)


def _class_table() -> bytes:
    """cp1254 byte -> b'w' (word char), b' ' (whitespace), b'p' (punctuation and the rest),
    classified by the same regex classes as `_TOKEN`, on the character the byte stands for."""
    out = bytearray(b" " * 256)
    for b in range(256):
        try:
            ch = bytes([b]).decode("cp1254")
        except UnicodeDecodeError:
            continue  # never produced by encoding
        out[b] = (
            ord("w")
            if re.match(r"\w", ch)
            else ord(" ")
            if ch.isspace() or re.match(r"\s", ch)
            else ord("p")
        )
    return bytes(out)


_CLASSES = _class_table()


def count_encoded_tokens(encoded: bytes) -> int:
    """The estimate of a text from its strict Windows-1254 (or, for ASCII text, ASCII)
    encoding: the same bytes, so the same count as `estimate_text_tokens(text)`."""
    c = encoded.translate(_CLASSES)
    # Every run of 4 word chars becomes one 'W' (runs never cross a word: words are separated
    # by non-'w'); what is left of a word, 1-3 'w' at its end, is one more token. A run of r
    # (1..3) counts r - r//2 - r//3 = 1 with non-overlapping counts.
    c = c.replace(b"wwww", b"W")
    return c.count(b"p") + c.count(b"W") + c.count(b"w") - c.count(b"ww") - c.count(b"www")


def estimate_text_tokens(text: str) -> int:
    try:
        encoded = text.encode("ascii") if text.isascii() else text.encode("cp1254")
    except UnicodeEncodeError:
        return len(_TOKEN.findall(text))
    return count_encoded_tokens(encoded)
