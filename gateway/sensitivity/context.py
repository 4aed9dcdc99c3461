"""Context words around a candidate, looked up in a small window of the folded text.

A word list is one alternation that must start a word (`(?<![a-z0-9])`). Written that way the
regex engine enters the lookbehind at every character and then tries every alternative at
every word start; `Words` finds the same places faster: its alternatives are merged by their
first characters (a trie, so one branch is tried per character), and the search starts at the
character before a word, a class the engine skips to in C. `Words.reference` keeps the plain
regex, which tests compare against."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

_NOT_WORD: Final = rb"(?<![a-z0-9])"
_REGEX_SPECIAL: Final = frozenset(b"\\()[]{}*+?|.^$")
_QUANTIFIERS: Final = frozenset(b"*+?{")


def split_alternatives(body: bytes) -> list[bytes]:
    """The top-level alternatives of a regex source (`|` outside groups and classes)."""
    out: list[bytes] = []
    depth, i, start, in_class = 0, 0, 0, False
    while i < len(body):
        c = body[i]
        if c == 0x5C:  # backslash: skip the escaped character
            i += 2
            continue
        if in_class:
            in_class = c != 0x5D  # ]
        elif c == 0x5B:  # [
            in_class = True
        elif c == 0x28:  # (
            depth += 1
        elif c == 0x29:  # )
            depth -= 1
        elif c == 0x7C and depth == 0:  # |
            out.append(body[start:i])
            start = i + 1
        i += 1
    out.append(body[start:])
    return out


def _plain_head(alt: bytes) -> int | None:
    """The first character of an alternative when it is a literal that is not quantified."""
    if not alt or alt[0] in _REGEX_SPECIAL or (len(alt) > 1 and alt[1] in _QUANTIFIERS):
        return None
    return alt[0]


def factor(alts: Sequence[bytes]) -> bytes:
    """An alternation that matches where `b"|".join(alts)` matches: alternatives starting with
    the same literal character become one branch `c(?:rest1|rest2)` (order kept inside it), so
    the engine tries one branch per first character instead of every alternative. Branches
    with different first characters exclude each other, so their order does not matter."""
    groups: dict[int | None, list[bytes]] = {}
    order: list[tuple[int | None, bytes]] = []
    for alt in alts:
        head = _plain_head(alt)
        if head is None:
            order.append((None, alt))
        elif head in groups:
            groups[head].append(alt[1:])
        else:
            groups[head] = [alt[1:]]
            order.append((head, b""))
    parts: list[bytes] = []
    for head, alt in order:
        if head is None:
            parts.append(alt)
            continue
        rests = groups[head]
        first = bytes([head])
        if len(rests) == 1:
            parts.append(first + rests[0])
        else:
            parts.append(first + b"(?:" + factor(rests) + b")")
    return b"|".join(parts)


class Words:
    """An alternation that must start a word, searched for in a window of a folded text."""

    __slots__ = ("_after_gap", "_at", "reference")

    def __init__(self, body: bytes, tail: bytes = b"") -> None:
        self.reference: re.Pattern[bytes] = re.compile(_NOT_WORD + b"(?:" + body + b")" + tail)
        fast = b"(?:" + factor(split_alternatives(body)) + b")" + tail
        self._at = re.compile(fast)
        # one character that is not a word character, then the words: the engine skips in C
        # to the characters of that class and tries the alternation only there
        self._after_gap = re.compile(rb"[^a-z0-9]" + fast)

    def search(self, folded: bytes, lo: int, hi: int) -> bool:
        """Whether `reference.search(folded, lo, hi)` finds a match."""
        if lo > 0:  # the character before lo counts, as it does for the lookbehind
            return self._after_gap.search(folded, lo - 1, hi) is not None
        return (
            self._at.match(folded, 0, hi) is not None
            or self._after_gap.search(folded, 0, hi) is not None
        )


# car makes and models that are no everyday word: one before a plate-shaped group says it is a
# plate ('beyaz Doblo 69 RNE 44', 'the white Fiat Egea 32 F 95872')
CAR_MAKES: Final = (
    b"fiat egea doblo linea tofas renault clio megane fluence ford fiesta kuga toyota corolla "
    b"yaris hilux honda hyundai i20 tucson volkswagen vw passat tiguan bmw mercedes audi opel "
    b"astra corsa peugeot citroen dacia sandero skoda octavia kia sportage nissan qashqai volvo "
    b"tesla togg"
)


def _words(*words: str) -> Words:
    return Words(b"|".join(re.escape(w.encode("ascii")) for w in words))


TCKN_CTX: Final = _words(
    "tc",
    "t.c",
    "tckn",
    "tcno",
    "kimlik",
    "nufus",
    "ykn",
    "yabanci kimlik",
    "identity",
    "national id",
    "citizen",
    "vatandas",
)
VKN_CTX: Final = _words("vergi", "vkn", "v.k.n", "tax id", "tax number", "mukellef", "vd")
PHONE_CTX: Final = _words(
    "tel",
    "telefon",
    "cep",
    "gsm",
    "whatsapp",
    "numarasi",
    "numaram",
    "phone",
    "mobile",
    "call",
    "ara",
    "arayin",
    "ulas",
    "sms",
    "contact",
    "iletisim",
    "reach",
    "ring",
    "text me",
    "dahili",
    "ext",
    "nummer",
    "handy",
    "mobil",
)
COMPANY_CTX: Final = _words(
    "a.s",
    "as.",
    "ltd",
    "sti",
    "sirket",
    "firma",
    "kurum",
    "company",
    "inc",
    "corp",
    "llc",
    "holding",
    "musteri hizmetleri",
    "santral",
    "call center",
    "cagri merkezi",
    "destek hatti",
    "support line",
    "genel mudurluk",
    "merkez ofis",
    "headquarters",
    "head office",
    "belediye",
    "bakanlik",
    "universite",
    "vakfi",
    "dernegi",
)
LOOKALIKE_CTX: Final = _words(
    "siparis",
    "order",
    "takip",
    "tracking",
    "kargo",
    "cargo",
    "shipment",
    "fatura",
    "invoice",
    "ref",
    "referans",
    "reference",
    "urun kodu",
    "product",
    "sku",
    "barkod",
    "barcode",
    "seri",
    "serial",
    "transaction",
    "islem",
    "dekont",
    "ticket",
    "bilet",
    "pnr",
    "police no",
    "id:",
    "uuid",
    "hash",
    "timestamp",
    "build",
    "version",
    "surum",
    "lot",
    "batch",
    "stok",
)
CARD_CTX: Final = _words(
    "kart",
    "card",
    "kredi",
    "credit",
    "visa",
    "mastercard",
    "amex",
    "troy",
    "cvv",
    "son kullanma",
    "expiry",
    "payment",
    "odeme",
)
# a tax number that belongs to a natural person
# a company's own account: its legal form or the account called the company's
COMPANY_ACCOUNT_CTX: Final = _words(
    "a.s",
    "ltd",
    "sti",
    "inc",
    "llc",
    "gmbh",
    "sirket hesab",
    "sirket iban",
    "sirketin iban",
    "firma hesab",
    "firmanin iban",
    "kurumsal hesap",
    "company account",
    "company's account",
    "corporate account",
    "business account",
    "tuzel kisi",
)
# a person's own account near a company's name: a salary, 'my IBAN', a sole trader
OWN_ACCOUNT_CTX: Final = _words(
    "iban'im",
    "ibanim",
    "hesabim",
    "hesap numaram",
    "maas",
    "salary",
    "my iban",
    "my account",
    "my bank",
    "kisisel",
    "personal account",
    "bireysel",
    "sahis",
    "serbest meslek",
    "esnaf",
    "sole trader",
    "self-employed",
    "freelance",
)
SOLE_TRADER_CTX: Final = _words(
    "sahis",
    "serbest meslek",
    "esnaf",
    "bireysel",
    "sole trader",
    "self-employed",
    "freelance",
)
PLATE_CTX: Final = _words(
    "kaza",
    "kasko",
    "hgs",
    "ogs",
    "motosiklet",
    "kamyon",
    "otobus",
    "registration",
    "plaka",
    "arac",
    "araba",
    "otomobil",
    "plate",
    "vehicle",
    "car",
    "ruhsat",
    "trafik",
    "otopark",
    "surucu",
    "driver",
    "kamyonet",
    "minibus",
    "taksi",
    "park",
    "parked",
    "parking",
    "blocking",
    "owns",
    *CAR_MAKES.decode("ascii").split(),
)
PASSPORT_CTX: Final = _words(
    "pasaport",
    "passport",
    # as it is often mistyped, and as the other languages of a booking write it
    "pasport",
    "passeport",
    "pasaporte",
    "reisepass",
    "pass no",
    "seyahat belgesi",
    "travel document",
    "pp no",
    "pp nr",
    "pp #",
    "pp#",
    "pp number",
)
PASSPORT_NUMBER_CTX: Final = _words(
    "passport number",
    "passport no",
    "passport #",
    "pasaport no",
    "pasaport numara",
    "pasaport numarasi",
    "pasaport numaram",
)
DOB_CTX: Final = _words(
    "dogum",
    "d.t",
    "dt:",
    "dogumlu",
    "born",
    "birth",
    "dob",
    "d.o.b",
    "birthday",
    "yasinda",
    "dogdu",
    "dogdum",
    # the abbreviation of forms and lists: 'Ege Kılınç, doğ. 07/09/2014'
    "dog.",
    "dog:",
    "dateofbirth",
)
IBAN_CTX: Final = _words("iban", "hesap", "banka", "account", "bank", "havale", "eft")


def near(
    folded: bytes,
    start: int,
    end: int,
    pattern: Words,
    before: int = 48,
    after: int = 24,
) -> bool:
    """Whether `pattern` occurs in the window around [start, end)."""
    return pattern.search(folded, max(0, start - before), min(len(folded), end + after))
