"""E-mail addresses, found only around '@' so long texts cost one C-level find per '@'."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.identifiers import Candidate

_LOCAL: Final = re.compile(r"[A-Za-z0-9._%+\-]{1,64}$")
_DOMAIN: Final = re.compile(r"@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})*\.[A-Za-z]{2,24}")
ROLE_ACCOUNTS: Final = frozenset(
    "info destek support noreply no-reply iletisim contact sales satis admin hr ik muhasebe "
    "kvkk bilgi help hello team office webmaster postmaster billing fatura careers kariyer "
    "press basin privacy abuse security".split()
)
PLACEHOLDER_DOMAINS: Final = frozenset(
    {
        "example.com",
        "example.org",
        "example.net",
        "test.com",
        "domain.com",
        "email.com",
        "ornek.com",
        "sirket.com",
        "company.com",
        "localhost",
    }
)


def emails(text: str) -> Iterator[Candidate]:
    i = text.find("@")
    while i >= 0:
        left = _LOCAL.search(text, max(0, i - 64), i)
        right = _DOMAIN.match(text, i)
        if left is not None and right is not None:
            local = left.group(0).lower().strip(".")
            domain = right.group(0)[1:].lower()
            generic = local in ROLE_ACCOUNTS or domain in PLACEHOLDER_DOMAINS
            yield Candidate("EPOSTA", left.start(), right.end(), 0.35 if generic else 0.9, "email")
            i = text.find("@", right.end())
        else:
            i = text.find("@", i + 1)
