"""Passport numbers: a letter and eight digits ('U12345678', 'U 12345678'), nine digits where a
passport number is asked for or labelled, and the letters-and-digits forms other countries
issue, each only next to the passport word (no checksum exists without the MRZ line)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Final

from gateway.sensitivity import context as ctx
from gateway.sensitivity.candidate import Candidate

# Detectors that only ever count with context run only when a context word is in the text.
PASSPORT_TOKENS: Final = frozenset(
    b"pasaport pasaportu pasaportun pasaportum pasaportunu passport passports pasaportumu "
    b"pasaportumun pasaportunuz pasaportunuzu pasaportunuzun pasaporta pasaportta pasaporttan "
    b"pasaportla pasaportlar pasaportlari pasaportumla pasaportunda pasaportuna pp reisepass "
    b"travel seyahat".split()
)
# a number word just before nine digits, a passport word further back: 'my passport got
# renewed since i booked, the new number is 126447109'
_NUMBER_WORD: Final = ctx.Words(rb"number|numara|numarasi|numaram|no|nr")
# ... unless the number is another document's, named right before it: 'randevu no', 'başvuru
# numarası', 'booking reference'
_OTHER_NUMBER: Final = ctx.Words(
    rb"randevu|basvuru|appointment|application|reference|ref|rezervasyon|booking|dosya|file"
    rb"|case|kayit|ticket|bilet|takip|form|protokol"
)
# a passport number of letters and digits mixed ('Dutch passport NXC7R4P13'), right after the
# word; the forms with its letters in front ('U12345678') are found from their digit run
MIXED_PASSPORT: Final = re.compile(
    rb"(?:passport|pasaport|pasport|passeport|reisepass)[a-z]{0,3}"
    rb"(?: (?:no|number|numarasi|numara|nr))?[ .:#]{1,3}"
    rb"([a-z0-9]{8,9})(?![a-z0-9])"
)
_DIGIT_THEN_LETTER: Final = re.compile(rb"[0-9][a-z]")
# the passport word inside a longer token, which the token scan does not list: a field name
# ('passportNumber', 'passenger_passport_no' is split, 'passportno' is not) or a rarer case
# ending ('pasaportundaki', 'pasaportumdaki'); mistyped ('pasport') or in another language
# ('passeport', 'pasaporte' holds 'pasaport'); a travel document named in full has its tokens


def passport_context(folded: bytes, tokens: Collection[bytes]) -> bool:
    """Whether the text names a passport at all, so that its number detectors need to run:
    a listed token, else the word anywhere in the folded text (substring searches in C)."""
    if not PASSPORT_TOKENS.isdisjoint(tokens):
        return True
    # every form of the word holds 'port': one search on the text that has none
    return b"port" in folded and (
        b"pasaport" in folded
        or b"passport" in folded
        or b"pasport" in folded
        or b"passeport" in folded
    )


def passport_at(text: str, folded: bytes, start: int, end: int) -> Candidate | None:
    i = start
    # the letter is typed in lower case as often as not ('pasaport no a13197114'); the
    # passport context below is required either way
    while i > 0 and text[i - 1].isascii() and text[i - 1].isalpha() and start - i < 2:
        i -= 1
    digits = sum(c.isdigit() for c in text[start:end])
    if i == start and digits == 8 and _letter_apart(text, start):
        i = start - 2  # 'U 12345678', 'U-12345678': the letter typed apart from its digits
    if (i > 0 and text[i - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
        return None
    if i == start:
        # nine digits alone are a passport number in many countries (the US, the UK, India),
        # but only where its number is asked for: 'passport number ... is it 285755453?'; seven
        # or eight only right under that label ('Pasaport No: 12345678')
        if digits != 9:
            if digits >= 7 and ctx.near(folded, i, end, ctx.PASSPORT_NUMBER_CTX, 24, 0):
                return Candidate("PASAPORT", i, end, 0.8, "passport")
            return None
        if ctx.near(folded, i, end, ctx.PASSPORT_NUMBER_CTX, before=80) or ctx.near(
            folded, i, end, ctx.PASSPORT_CTX, before=16, after=0
        ):
            return Candidate("PASAPORT", i, end, 0.8, "passport")
        if (
            ctx.near(folded, i, end, ctx.PASSPORT_CTX, before=100, after=0)
            and ctx.near(folded, i, end, _NUMBER_WORD, before=24, after=0)
            and not ctx.near(folded, i, end, _OTHER_NUMBER, before=24, after=0)
            and not ctx.near(folded, i, end, ctx.LOOKALIKE_CTX)
        ):
            return Candidate("PASAPORT", i, end, 0.7, "passport")
        return None
    if ctx.near(folded, i, end, ctx.PASSPORT_CTX, before=60, after=20):
        return Candidate("PASAPORT", i, end, 0.9, "passport")
    # a block about the passport whose number comes a few lines on: 'Passport details: Full
    # name: ... / Nationality: TUR / Number: U12345678'
    if (
        ctx.near(folded, i, end, ctx.PASSPORT_CTX, before=200, after=0)
        and ctx.near(folded, i, end, _NUMBER_WORD, before=16, after=0)
        and not ctx.near(folded, i, end, _OTHER_NUMBER, before=24, after=0)
    ):
        return Candidate("PASAPORT", i, end, 0.8, "passport")
    return None


def _letter_apart(text: str, start: int) -> bool:
    """One ASCII letter, a space or a hyphen, then the digits at `start`, the letter standing
    alone."""
    return (
        start >= 2
        and text[start - 1] in " -"
        and text[start - 2].isascii()
        and text[start - 2].isalpha()
        and (start == 2 or not text[start - 3].isalnum())
    )


def mixed_passports(folded: bytes) -> Iterator[Candidate]:
    """Passport numbers whose letters and digits alternate, as many countries issue them
    (the Netherlands, Germany, France): only right after the passport word, with a letter
    after a digit and at least two of each, so a word or a year after 'passport' is none."""
    for m in MIXED_PASSPORT.finditer(folded):
        token = m.group(1)
        digits = sum(c in b"0123456789" for c in token)
        if 2 <= digits <= len(token) - 2 and _DIGIT_THEN_LETTER.search(token):
            yield Candidate("PASAPORT", m.start(1), m.end(1), 0.85, "passport")


# the second line of a passport's machine-readable zone (ICAO 9303, TD3): the document number,
# its check digit, the nationality, the birth date and its check digit, the sex, the expiry
# date and its check digit; copied from a scan it carries the number with a checksum, which
# no other passport form has
_MRZ_LINE: Final = re.compile(
    r"(?<![A-Z0-9<])([A-Z0-9<]{9})([0-9])[A-Z<]{3}([0-9]{6})([0-9])[MFX<]([0-9]{6})([0-9])"
)
# the first line: 'P<', the issuing state, then SURNAME<<GIVEN<NAMES
_MRZ_NAME: Final = re.compile(r"(?<![A-Z0-9<])P[A-Z<][A-Z<]{3}([A-Z]{2,39}<<[A-Z][A-Z<]{1,38})")
# a text holds a handful of machine-readable zones at most; a hostile one full of '<<' must not
# cost a regex search per fragment
_MRZ_LOOKS: Final = 16


def _check_digit(field: str) -> int:
    total = 0
    for i, ch in enumerate(field):
        value = ord(ch) - 48 if ch.isdigit() else 0 if ch == "<" else ord(ch) - 55
        total += value * (7, 3, 1)[i % 3]
    return total % 10


def mrz_passports(text: str) -> Iterator[Candidate]:
    """A passport's machine-readable zone pasted into a text: the number line when the check
    digits of its number and of its birth date both hold, and the name line above it."""
    numbers = 0
    for m in _MRZ_LINE.finditer(text):
        number, check, born, born_check = m.group(1), m.group(2), m.group(3), m.group(4)
        if _check_digit(number) == int(check) and _check_digit(born) == int(born_check):
            numbers += 1
            yield Candidate("PASAPORT", m.start(), m.end(), 0.95, "passport_mrz")
        if numbers >= _MRZ_LOOKS:
            return
    if numbers:
        for k, m in enumerate(_MRZ_NAME.finditer(text)):
            if k >= _MRZ_LOOKS:
                return
            yield Candidate("AD_SOYAD", m.start(1), m.end(1), 0.9, "passport_mrz")
