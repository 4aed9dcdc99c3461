"""Builders of checksum-valid identifiers (computed, so tests never depend on magic values), the
topics the first stage fires for a text, and the checks shared by every lexicon family."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from gateway.sensitivity.lexicon import Lexicon
from gateway.sensitivity.special import build_lexicon, topic_hits
from gateway.sensitivity.textnorm import encode_text, fold, fold_encoded, word_view


def make_tckn(first9: str) -> str:
    d = [int(c) for c in first9]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d11 = (sum(d) + d10) % 10
    return f"{first9}{d10}{d11}"


def make_luhn(body: str) -> str:
    for check in "0123456789":
        digits = body + check
        total = 0
        for i, c in enumerate(reversed(digits)):
            n = int(c) * (2 if i % 2 else 1)
            total += n - 9 if n > 9 else n
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


def make_iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    num = int("".join(str(int(c, 36)) for c in moved))
    return f"{country}{98 - num % 97:02d}{bban}"


def make_vkn(first9: str) -> str:
    total = 0
    for i in range(9):
        t = (int(first9[i]) + 9 - i) % 10
        v = (t * 2 ** (9 - i)) % 9
        if t != 0 and v == 0:
            v = 9
        total += v
    return first9 + str((10 - total % 10) % 10)


def group4(value: str, sep: str = " ") -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


@functools.lru_cache(maxsize=1)
def _topic_lexicon() -> Lexicon[str]:
    return build_lexicon()


def word_view_of(text: str) -> tuple[bytes, bytes, dict[bytes, list[int]]]:
    """(encoded, word view, occurrences) of `text`, every word of the view offered with its
    offsets as the scanner would."""
    encoded, _ = encode_text(text)
    words = word_view(fold_encoded(encoded))
    found: dict[bytes, list[int]] = {}
    pos = 0
    for tok in words.split(b" "):
        if tok:
            found.setdefault(tok, []).append(pos)
        pos += len(tok) + 1
    return encoded, words, found


def topics_of(text: str) -> set[str]:
    """The categories the first stage (the topic lexicons) fires for in `text`, before any
    judgement of whom it concerns."""
    encoded, words, found = word_view_of(text)
    return {h.tag for h in topic_hits(_topic_lexicon(), words, found, encoded)}


# The three checks every lexicon family's tests make: a sentence about someone fires its
# category; the same sentence typed without Turkish letters (as many users type) still fires
# it; and the everyday sense of the family's words fires nothing.
FIRES = "fires"
FIRES_FOLDED = "fires_folded"
QUIET = "quiet"


def family_cases(
    about_someone: Sequence[tuple[str, str]],
    everyday: Sequence[tuple[str, str | None]],
    *,
    folded: bool = True,
) -> list[tuple[str, str, str | None]]:
    """Parameters (check, text, category) for `check_family`: each sentence of `about_someone`
    once as typed and, with `folded`, once ASCII-folded; each of `everyday` once. An everyday
    category of None means no category at all may fire."""
    cases: list[tuple[str, str, str | None]] = [(FIRES, t, c) for t, c in about_someone]
    if folded:
        cases += [(FIRES_FOLDED, t, c) for t, c in about_someone]
    return cases + [(QUIET, t, c) for t, c in everyday]


def check_family(check: str, text: str, category: str | None) -> None:
    """One case of `family_cases`."""
    if check == QUIET:
        found = topics_of(text)
        assert (category not in found) if category else not found, (text, found)
        return
    assert category is not None
    typed = fold(text) if check == FIRES_FOLDED else text
    found = topics_of(typed)
    assert category in found, (typed, found)
