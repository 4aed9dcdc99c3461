"""The stock names of examples, forms and test data ('Ali Veli', 'John Doe', 'Test Kullanıcı',
'Ayşe Yılmaz (örnek)'): no one's name, so not personal data. Only names: an identifier in the
same example (a checksum-valid TCKN, a card number) is still reported by its own detector."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.institution_names import institution_name
from gateway.sensitivity.textnorm import fold

# names used in Turkish and English documents to stand for "anyone"
STOCK_NAMES: Final = frozenset(
    {
        "ali veli",
        "veli ali",
        "ali veli kirk",
        "ahmet mehmet",
        "john doe",
        "jane doe",
        "john q public",
        "richard roe",
        "jane roe",
        "baby doe",
        "max mustermann",
        "erika mustermann",
        "test kullanici",
        "test user",
        "test test",
        "ornek kisi",
        "ornek kullanici",
        "ornek musteri",
        "sample user",
        "ad soyad",
        "adi soyadi",
        "isim soyisim",
        "isim soyad",
        "foo bar",
    }
)
# a name the text itself marks as made up: 'Ayşe Yılmaz (örnek)', 'Mehmet Kaya [sample]'
_MARKED: Final = re.compile(
    r"\s*[(\[]\s*(?:örnek|ornek|sahte|hayali|temsili|test|example|sample|fictional|dummy|fake"
    r"|placeholder)\s*[)\]]",
    re.IGNORECASE,
)
_NAME_KINDS: Final = frozenset({"AD", "AD_SOYAD"})


def stock_name(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a stock name or a name marked as an example right after it."""
    if " ".join(fold(text[start:end]).split()) in STOCK_NAMES:
        return True
    return _MARKED.match(text, end, min(len(text), end + 24)) is not None


def without_stock_names(text: str, found: Iterable[Candidate]) -> Iterator[Candidate]:
    """The candidates, a name that is a stock or marked example name, or an institution's or
    a place's name (institution_names), dropped below threshold."""
    for c in found:
        if c.kind in _NAME_KINDS and stock_name(text, c.start, c.end):
            yield Candidate(c.kind, c.start, c.end, 0.2, "name_placeholder")
        elif c.kind in _NAME_KINDS and institution_name(text, c.start, c.end):
            yield Candidate(c.kind, c.start, c.end, 0.2, "name_institution")
        else:
            yield c
