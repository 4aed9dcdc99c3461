"""Context words around a candidate, looked up in a small window of the folded text."""

from __future__ import annotations

import re
from typing import Final


def _words(*words: str) -> re.Pattern[bytes]:
    alts = b"|".join(re.escape(w.encode("ascii")) for w in words)
    return re.compile(rb"(?<![a-z0-9])(?:" + alts + rb")")


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
PLATE_CTX: Final = _words(
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
)
PASSPORT_CTX: Final = _words(
    "pasaport", "passport", "pass no", "seyahat belgesi", "travel document"
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
)
IBAN_CTX: Final = _words("iban", "hesap", "banka", "account", "bank", "havale", "eft")


def near(
    folded: bytes,
    start: int,
    end: int,
    pattern: re.Pattern[bytes],
    before: int = 48,
    after: int = 24,
) -> bool:
    """Whether `pattern` occurs in the window around [start, end)."""
    return pattern.search(folded, max(0, start - before), min(len(folded), end + after)) is not None
