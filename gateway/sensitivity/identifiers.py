"""Number-shaped identifiers found from digit runs: TCKN/YKN, VKN, IBAN, phone numbers,
payment cards, dates of birth, plates and passports.

One compiled scan over the shape view (textnorm.shape_view) finds runs of digits that may
contain spaces, dots, dashes, slashes or brackets; only those runs are examined in Python, and
runs too short for what is being looked for are dropped after one C-level count. A run may hold
several numbers written next to each other, so contiguous groups of a run are tried, longest
first."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Collection, Iterator, Mapping
from typing import Final

from gateway.sensitivity import context as ctx
from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.checksums import (
    IBAN_LENGTHS,
    iban_valid,
    luhn_valid,
    tckn_valid,
    vkn_valid,
)
from gateway.sensitivity.config import Detectors
from gateway.sensitivity.digit_runs import Looks, numbers_in_run
from gateway.sensitivity.passports import mixed_passports, passport_at, passport_context
from gateway.sensitivity.plates import PLATE_HINT, PLATE_START, PLATE_TOKENS, plate_at

# On the shape view ('0' digit, 'a' letter, '.' for . / ( ), ' ' and '-' kept). A run is a
# maximal chain of digits joined by at most two separators, with six digits or more: nothing
# shorter can be an identifier (plates are scanned separately). The lookbehinds, placed after the
# literal first digit so the engine still skips ahead in C, start a match only at a chain's
# first digit (never retrying inside a short chain).
RUN: Final = re.compile(rb"0(?<!00)(?<!0[ .\-]0)(?<!0[ .\-]{2}0)(?:[ .\-]{0,2}0){5,}")
# the same runs with ten digits or more: all that is wanted when no IBAN head, birth-date or
# passport context is in the text (most prose: dates, amounts and order numbers never reach
# Python)
LONG_RUN: Final = re.compile(rb"0(?<!00)(?<!0[ .\-]0)(?<!0[ .\-]{2}0)(?:[ .\-]{0,2}0){9,}")
# an IBAN's country code and check digits: two letters, not inside a word, two digits
IBAN_HEAD: Final = re.compile(rb"aa00(?<![a0]aa00)(?=[ \-]?[a0])")
# Detectors that only ever count with context run only when a context word is in the text.
DOB_TOKENS: Final = frozenset(
    b"dogum dogumlu dogumluyum dogumlusun dogumludur dogumlusunuz dogumlular born birth dob "
    b"birthday birthdate dogdu dogdum dogmus dogumlusu dt yasinda dog dogumtarihi dateofbirth"
    b" dogumtarih".split()
)
# a date written with its month's name, Turkish or English: '17 mayıs 1970', '3 Nisan 1990',
# '12 March 1987', 'March 12, 1987' (folded text)
_MONTHS: Final = (
    rb"(?:ocak|subat|mart|nisan|mayis|haziran|temmuz|agustos|eylul|ekim|kasim|aralik"
    rb"|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
)
WORD_DATE: Final = re.compile(
    rb"(?<![0-9])(?:(?:0?[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)?\.?(?: of)? "
    + _MONTHS
    + rb",? (?:19|20)[0-9]{2}|"
    + _MONTHS
    + rb" (?:0?[1-9]|[12][0-9]|3[01])(?:st|nd|rd|th)?,? "
    rb"(?:19|20)[0-9]{2}"
    # the compact form of tickets and passenger lists: 'DOB 30MAR86'
    rb"|(?:0[1-9]|[12][0-9]|3[01])(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[0-9]{2})"
    rb"(?![0-9])"
)
IBAN_TAIL: Final = re.compile(rb"[a-z]{2}\d{2}(?:[ \-]?[a-z0-9]){8,32}")
# a day, a month and a year, the year also in two digits as tickets and bookings write it
# ('12/03/87'): only ever a birth date beside a birth-date word
DATE: Final = re.compile(
    rb"(?:(0?[1-9]|[12]\d|3[01])[./\-](0?[1-9]|1[0-2])[./\-]((?:19|20)?\d\d)"
    rb"|((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))$"
)
LANDLINE_AREAS: Final = frozenset(
    "212 216 222 224 226 228 232 236 242 246 248 252 256 258 262 264 266 272 274 276 282 284"
    " 286 288 312 318 322 324 326 328 332 338 342 344 346 348 352 354 356 358 362 364 366 368"
    " 370 372 374 376 378 380 382 384 386 388 412 414 416 422 424 426 428 432 434 436 438 442"
    " 446 452 454 456 458 462 464 466 472 474 476 478 482 484 486 488".split()
)
# the words that make a short digit group ('412 58 37') a phone number, looked for only when one
# of them is in the text
PHONE_TOKENS: Final = frozenset(
    b"tel telefon telefonu telefonum numaram numarasi numarami numaramiz cep gsm whatsapp phone "
    b"mobile call reach ring arayin ara arasin sms dahili ext sifir".split()
)
# a mobile's area code spelled out right before the local group: 'sıfır beş yüz otuz 466 26 93'
_SPELLED_AREA: Final = re.compile(rb"sifir bes yuz(?: [a-z]{2,7}){0,3} ?$")
# a local number in Turkish grouping ('412 58 37', '412-5837', '412 5837'), its area code
# written apart or in words ('sıfır beş yüz otuz iki 412 58 37')
LOCAL_PHONE: Final = re.compile(rb"[2-9][0-9]{2}(?:[ .\-][0-9]{2}[ .\-][0-9]{2}|[ .\-]?[0-9]{4})$")
_DE_MOBILE: Final = frozenset({"15", "16", "17"})
# a number nobody is reachable at, written in code samples, forms and docs: the subscriber part
# one digit over and over ('0527 000 00 00', '0532 555 55 55') or a run of six zeros
_PLACEHOLDER_PHONE: Final = re.compile(r"(\d)\1{5}\d?$|0{6}")
# Visa, Mastercard (51-55 and the 2-series), Maestro (50, 56-58, 6), Amex, Troy, JCB, Diners
CARD_PREFIX: Final = re.compile(r"^(?:4|5[0-8]|2[2-7]|3[47]|6|9792|35|36|30)")
# a North American number as it is written there, '(415) 555-0148' or '415-555-0148': area code
# and exchange start 2-9, and the brackets or the 3-3-4 dashes are a phone's shape, no other's
_NANP: Final = re.compile(rb"(?:\([2-9][0-9]{2}\) ?|[2-9][0-9]{2}[\-.])[2-9][0-9]{2}[\-.][0-9]{4}")


class _Around:
    """Context look-ups around one candidate, each made only when the answer matters (a
    context search costs a few microseconds, and a long prompt can hold thousands of
    numbers)."""

    __slots__ = ("_lookalike", "end", "folded", "start")

    def __init__(self, folded: bytes, start: int, end: int) -> None:
        self.folded, self.start, self.end = folded, start, end
        self._lookalike: bool | None = None

    def near(self, pattern: ctx.Words, before: int = 48, after: int = 24) -> bool:
        return ctx.near(self.folded, self.start, self.end, pattern, before, after)

    @property
    def lookalike(self) -> bool:
        """An order/invoice/tracking number context: lowers confidence."""
        if self._lookalike is None:
            self._lookalike = self.near(ctx.LOOKALIKE_CTX)
        return self._lookalike

    def conf(self, base: float, positive: ctx.Words, hi: float, lo: float) -> float:
        """hi with a positive context word, else lo in a look-alike context, else base."""
        if self.near(positive):
            return hi
        return lo if self.lookalike else base


def _classify_digits(
    d: str, folded: bytes, start: int, end: int, plus_before: bool, on: Detectors
) -> Candidate | None:
    n = len(d)
    around = _Around(folded, start, end)
    if n == 11 and on.tckn and tckn_valid(d):
        # a checksum-valid TCKN still counts next to look-alike words (lot, ticket, order no):
        # lower confidence, but above the personal threshold — fail towards protection
        return Candidate("TCKN", start, end, around.conf(0.85, ctx.TCKN_CTX, 1.0, 0.6), "tckn")
    if 13 <= n <= 19 and on.card and luhn_valid(d) and CARD_PREFIX.match(d):
        return Candidate("KART", start, end, around.conf(0.85, ctx.CARD_CTX, 1.0, 0.6), "card")
    if on.phone:
        phone = _phone(d, start, end, plus_before, around)
        # ten digits after an area code may be a tax number as well: a weak phone that is a
        # valid VKN labelled as one ('vergi no 4561237896') is the tax number
        taxed = n == 10 and on.vkn and around.near(ctx.VKN_CTX) and vkn_valid(d)
        if phone is not None and not (phone.confidence < 0.5 and taxed):
            return phone
    if n == 10 and on.vkn and vkn_valid(d):
        if around.near(ctx.SOLE_TRADER_CTX, before=80, after=80):
            conf = 0.75  # a sole trader's tax number is a person's, whatever 'şirket' is near
        elif around.near(ctx.COMPANY_CTX, before=80, after=80):
            conf = 0.3
        else:
            conf = 0.7 if around.near(ctx.VKN_CTX) else 0.15
        return Candidate("VKN", start, end, conf, "vkn")
    return None


def _phone(d: str, start: int, end: int, plus_before: bool, around: _Around) -> Candidate | None:
    phone = _phone_shape(d, start, end, plus_before, around)
    if phone is not None and _PLACEHOLDER_PHONE.search(d) is not None:
        return Candidate("TELEFON", start, end, 0.2, "phone_placeholder")
    return phone


def _phone_shape(
    d: str, start: int, end: int, plus_before: bool, around: _Around
) -> Candidate | None:
    national: str | None = None
    prefixed = False
    if len(d) == 10 and not plus_before and _north_american(around):
        return Candidate("TELEFON", start, end, 0.3 if around.lookalike else 0.8, "phone_intl")
    if d.startswith("00") and 10 <= len(d) <= 17 and d[2] != "0":
        # '0090 532 ...', '0049 30 ...': the international prefix dialled instead of '+'
        d, plus_before = d[2:], True
    if len(d) == 12 and d.startswith("90"):
        national, prefixed = d[2:], True
    elif len(d) == 11 and d.startswith("0"):
        national, prefixed = d[1:], True
    elif len(d) == 10:
        national = d
    if national is not None and (plus_before or prefixed or national[0] in "5234"):
        if national[0] == "5" and national[1] in "0123456":
            base = 0.85 if prefixed or plus_before else 0.6
            conf = around.conf(base, ctx.PHONE_CTX, 0.95, 0.3)
            return Candidate("TELEFON", start, end, conf, "phone")
        if national[:3] in LANDLINE_AREAS:
            if around.near(ctx.COMPANY_CTX, before=80, after=40) or around.lookalike:
                conf = 0.3
            else:
                conf = 0.75 if around.near(ctx.PHONE_CTX) else 0.45
            return Candidate("TELEFON", start, end, conf, "phone")
        if national[:3] in {"850", "800", "900", "444"}:
            return None
    if plus_before and 8 <= len(d) <= 15 and not d.startswith("90"):
        return Candidate("TELEFON", start, end, 0.3 if around.lookalike else 0.75, "phone_intl")
    return _foreign_phone(d, start, end, around)


def _north_american(around: _Around) -> bool:
    folded, start, end = around.folded, around.start, around.end
    if start and folded[start - 1 : start] == b"(":
        start -= 1
    return _NANP.fullmatch(folded, start, end) is not None


def _foreign_phone(d: str, start: int, end: int, around: _Around) -> Candidate | None:
    """A number in another country's national format: '07700 900123' and '0151 23456789' (a
    UK or German mobile, shaped so that few other numbers are), or any 10 to 13 digits that
    start with a trunk '0' ('020 7946 0958') or are called a phone right before them."""
    n = len(d)
    if d[0] == "0" and d[1] != "0":
        if (n == 11 and d[1] == "7" and d[2] != "0") or (11 <= n <= 12 and d[1:3] in _DE_MOBILE):
            return Candidate(
                "TELEFON", start, end, around.conf(0.6, ctx.PHONE_CTX, 0.9, 0.3), "phone_intl"
            )
        if n <= 12 and around.near(ctx.PHONE_CTX, before=40, after=16) and not around.lookalike:
            return Candidate("TELEFON", start, end, 0.7, "phone_intl")
    elif n <= 13 and end - start > n and _called_phone(around):
        # grouped digits ('45 12 34 56 78') right after a phone word, not a tax or id number
        return Candidate("TELEFON", start, end, 0.6, "phone_intl")
    return None


def _called_phone(around: _Around) -> bool:
    return (
        around.near(ctx.PHONE_CTX, before=12, after=0)
        and not around.lookalike
        and not around.near(ctx.VKN_CTX)
        and not around.near(ctx.TCKN_CTX)
    )


# '+49 (0)160 9645 8686', '+44 (0)20 7946 0958': the trunk zero in brackets, dialled only at home
_TRUNK_ZERO: Final = re.compile(
    rb"\+[1-9][0-9]{0,2} ?\(0\) ?[1-9][0-9]{1,4}(?:[ .\-]?[0-9]{2,5}){1,4}"
)


def _trunk_zero_phones(folded: bytes, looks: Looks) -> Iterator[Candidate]:
    """Numbers written with the trunk zero in brackets: a phone's format and no other's, so
    no order or tracking word near makes them one."""
    for m in _TRUNK_ZERO.finditer(folded):
        if not looks.take():
            return
        n = sum(48 <= c <= 57 for c in m.group(0)) - 1  # the bracketed zero is not dialled
        if 8 <= n <= 15:
            yield Candidate("TELEFON", m.start(), m.end(), 0.8, "phone_intl")


def _inside_a_code(folded: bytes, start: int, end: int) -> bool:
    """Digits with a letter or digit right before and right after: part of a code such as a
    hex id ('call_925636e5095142851f0c64e8'), not a number someone dials."""
    return start > 0 and folded[start - 1 : start].isalnum() and folded[end : end + 1].isalnum()


def _local_phone(raw: bytes, start: int, end: int, folded: bytes) -> Candidate | None:
    """Seven digits grouped the Turkish way ('412 58 37') right after a phone word or after
    a mobile area code spelled in words ('sıfır beş yüz otuz 466 26 93'), the rest of the
    number left out or spelled."""
    if LOCAL_PHONE.match(raw) is None:
        return None
    # a short group glued to a letter or digit on either side is part of a code
    if folded[start - 1 : start].isalnum() if start else False:
        return None
    if folded[end : end + 1].isalnum():
        return None
    spelled = _SPELLED_AREA.search(folded, max(0, start - 48), start) is not None
    if not spelled and not ctx.near(folded, start, end, ctx.PHONE_CTX, 60, 8):
        return None
    if _PLACEHOLDER_PHONE.search(raw.translate(None, b" .-").decode("ascii")) is not None:
        return Candidate("TELEFON", start, end, 0.2, "phone_placeholder")
    if ctx.near(folded, start, end, ctx.LOOKALIKE_CTX):
        return None
    return Candidate("TELEFON", start, end, 0.6, "phone_local")


def _iban_heads(shape: bytes) -> list[int]:
    """Offsets of every IBAN_HEAD. Found from 'a00' with bytes.find, which skips through prose
    far faster than the regex engine can (its literal search stalls on every 'a')."""
    out = []
    i = shape.find(b"a00", 1)
    while i >= 0:
        if IBAN_HEAD.match(shape, i - 1):
            out.append(i - 1)
        i = shape.find(b"a00", i + 3)
    return out


def _iban_before(folded: bytes, heads: list[int], run_start: int) -> Candidate | None:
    """An IBAN whose country code starts at most 36 characters before this digit run (the
    run may be its account part, after letters such as 'GB82 WEST '). `heads` are the sorted
    offsets of every IBAN_HEAD in the text."""
    i = bisect_left(heads, run_start - 36)
    while i < len(heads) and heads[i] < run_start:
        found = _iban(folded, heads[i])
        if found is not None:
            return found
        i += 1
    return None


def _owned(c: Candidate, folded: bytes) -> Candidate:
    """An IBAN next to a company's legal form or called the company's account is the
    company's, not a person's, unless a salary, 'my account' or a sole trader is near."""
    if ctx.near(folded, c.start, c.end, ctx.COMPANY_ACCOUNT_CTX, 80, 40) and not ctx.near(
        folded, c.start, c.end, ctx.OWN_ACCOUNT_CTX, 80, 40
    ):
        return Candidate(c.kind, c.start, c.end, 0.3, c.detector)
    return c


def _iban(text_folded: bytes, begin: int) -> Candidate | None:
    m = IBAN_TAIL.match(text_folded, begin)
    if m is None:
        return None
    raw = m.group(0)
    country = raw[:2].decode("ascii").upper()
    want = IBAN_LENGTHS.get(country)
    compact = ""
    best: Candidate | None = None
    for i, ch in enumerate(raw):
        if not chr(ch).isalnum():
            continue
        compact += chr(ch)
        at_boundary = i + 1 == len(raw) or not chr(raw[i + 1]).isalnum()
        if (want is not None and len(compact) == want) or (want is None and at_boundary):
            if iban_valid(compact):
                best = Candidate("IBAN", begin, begin + i + 1, 1.0, "iban")
        if want is not None and len(compact) >= want:
            break
    return best


def digit_identifiers(
    text: str, folded: bytes, shape: bytes, on: Detectors, tokens: Collection[bytes]
) -> Iterator[Candidate]:
    """All number-shaped identifiers in one text (folded is its `fold_bytes`, shape its
    `shape_view`; tokens holds at least the lexicon tokens of the text that are context words
    for plates, passports and birth dates)."""
    if on.plate and not PLATE_TOKENS.isdisjoint(tokens):
        for m in PLATE_HINT.finditer(shape):
            if PLATE_START.match(text, m.start()):
                found = plate_at(text, folded, m.start())
                if found is not None:
                    yield found
    want_passport = on.passport and passport_context(folded, tokens)
    want_local = on.phone and not PHONE_TOKENS.isdisjoint(tokens)
    locals_left = (
        64 if want_local else 0
    )  # seven-digit groups looked at: a handful in real text, bounded in hostile
    if want_passport:
        yield from mixed_passports(folded)
    want_dob = on.birth_date and not DOB_TOKENS.isdisjoint(tokens)
    if want_dob:
        yield from _word_dates(folded, tokens)
    heads = _iban_heads(shape) if on.iban else []
    looks = Looks()
    if on.phone and b"(0)" in folded:
        yield from _trunk_zero_phones(folded, looks)

    def classify(d: str, s: int, e: int) -> Candidate | None:
        cand = _classify_digits(d, folded, s, e, _plus_before(folded, s), on)
        if cand is None or (cand.kind == "TELEFON" and _inside_a_code(folded, s, e)):
            return None
        return _plus_span(folded, cand)

    covered = 0
    runs = RUN if heads or want_dob or want_passport or want_local else LONG_RUN
    for run in runs.finditer(shape):
        start, end = run.span()
        if start < covered:
            continue
        if heads:
            iban = _iban_before(folded, heads, start)
            if iban is not None and iban.end > start:
                covered = iban.end
                yield _owned(iban, folded)
                continue
        ndigits = shape.count(b"0", start, end)
        if ndigits < 10 and not want_dob and not want_passport and not locals_left:
            continue  # the common case in prose: dates, amounts, order numbers
        raw = folded[start:end]
        if want_local and ndigits == 7 and locals_left > 0:
            locals_left -= 1
            local = _local_phone(raw, start, end, folded)
            if local is not None:
                yield local
                continue
        if (
            want_dob
            and DATE.match(raw)
            and looks.take()
            and ctx.near(folded, start, end, ctx.DOB_CTX)
        ):
            yield Candidate("DOGUM_TARIHI", start, end, 0.8, "birth_date")
            continue
        if want_passport and 6 <= ndigits <= 9 and start >= 1 and looks.take():
            pp = passport_at(text, folded, start, end)
            if pp is not None:
                yield pp
                continue
        if ndigits == 24 and on.iban:
            iban = _iban_without_country(raw, start, end, folded)
            if iban is not None:
                yield _owned(iban, folded)
                continue
        if ndigits >= 10:
            unread = yield from numbers_in_run(raw, start, classify, looks)
            if looks.left <= 0:
                # a window of nothing but numbers: the first MAX_NUMBER_LOOKS were checked
                yield from _dense_rest(looks, shape, unread)
                return


def _dense_rest(looks: Looks, shape: bytes, unread: int) -> Iterator[Candidate]:
    """The numbers of a window dense with identifiers left unchecked, taken for the kind most
    found, so that redaction still hides them: one stretch from the first unchecked digit to
    the window's last (one finding per number would cost the later stages what the looks
    saved); as sure as any finding, so that none inside it (a name, an id) drops it when
    overlaps are resolved. Nothing when few of the looks found an identifier."""
    kind = looks.dense_kind()
    last = shape.rfind(b"0") + 1
    if kind is not None and unread < last:
        yield Candidate(kind, unread, last, 1.0, "dense_numbers")


def _word_dates(folded: bytes, tokens: Collection[bytes]) -> Iterator[Candidate]:
    """Birth dates written with the month's name, looked for only around the birth-date
    words of the text (`tokens` maps each to its offsets when it is a mapping)."""
    offsets = (
        sorted(o for t in DOB_TOKENS.intersection(tokens) for o in tokens[t])
        if isinstance(tokens, Mapping)
        else [0]
    )
    end = -1
    for at in offsets:
        lo = max(0, at - 60, end)
        hi = min(len(folded), at + 60) if isinstance(tokens, Mapping) else len(folded)
        for m in WORD_DATE.finditer(folded, lo, hi):
            if ctx.near(folded, m.start(), m.end(), ctx.DOB_CTX):
                yield Candidate("DOGUM_TARIHI", m.start(), m.end(), 0.8, "birth_date")
            end = m.end()


def _iban_without_country(raw: bytes, start: int, end: int, folded: bytes) -> Candidate | None:
    """A Turkish IBAN typed without its 'TR' (24 digits: 'IBAN: 33 0006 1005 ...'): valid
    once 'TR' is put back, and called an IBAN or an account nearby."""
    digits = bytes(c for c in raw if 48 <= c <= 57).decode("ascii")
    if not iban_valid("TR" + digits) or not ctx.near(folded, start, end, ctx.IBAN_CTX):
        return None
    return Candidate("IBAN", start, end, 0.9, "iban")


def _plus_before(folded: bytes, s: int) -> bool:
    return b"+" in folded[max(0, s - 2) : s]


def _plus_span(folded: bytes, cand: Candidate) -> Candidate:
    """A phone number's span starts at the '+' written just before its digits."""
    if cand.kind != "TELEFON":
        return cand
    s = cand.start
    plus_at = folded.rfind(b"+", max(0, s - 2), s)
    if plus_at < 0:
        return cand
    return Candidate(cand.kind, plus_at, cand.end, cand.confidence, cand.detector)
