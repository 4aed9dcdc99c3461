"""Checksum algorithms for identifiers (DESIGN.md section 6). Inputs are digit/alnum strings
with separators already removed; every function returns False rather than raising."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal

ChecksumName = Literal["tckn", "vkn", "iban", "luhn"]

# ISO 13616 lengths for the IBAN countries people in Turkey meet most often.
IBAN_LENGTHS: Final[dict[str, int]] = {
    "TR": 26,
    "DE": 22,
    "GB": 22,
    "FR": 27,
    "NL": 18,
    "BE": 16,
    "AT": 20,
    "CH": 21,
    "IT": 27,
    "ES": 24,
    "PT": 25,
    "IE": 22,
    "LU": 20,
    "PL": 28,
    "SE": 24,
    "DK": 18,
    "NO": 15,
    "FI": 18,
    "GR": 27,
    "CY": 28,
    "BG": 22,
    "RO": 24,
    "HU": 28,
    "CZ": 24,
    "SK": 24,
    "SI": 19,
    "HR": 21,
    "AZ": 28,
    "GE": 22,
    "AE": 23,
    "SA": 24,
    "QA": 29,
    "KW": 30,
    "BH": 22,
    "IL": 23,
    "LT": 20,
    "LV": 21,
    "EE": 20,
    "MT": 31,
    "MC": 27,
    "LI": 21,
    "IS": 26,
    "UA": 29,
    "KZ": 20,
    "JO": 30,
}


def tckn_valid(digits: str) -> bool:
    """T.C. Kimlik No / YKN: 11 digits, first not 0, two mod-10 check digits."""
    if len(digits) != 11 or not digits.isdigit() or digits[0] == "0":
        return False
    d = [ord(c) - 48 for c in digits]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    return d10 == d[9] and sum(d[:10]) % 10 == d[10]


def vkn_valid(digits: str) -> bool:
    """Vergi Kimlik No: 10 digits, GİB check digit."""
    if len(digits) != 10 or not digits.isdigit():
        return False
    total = 0
    for i in range(9):
        t = (ord(digits[i]) - 48 + 9 - i) % 10
        v = (t * (1 << (9 - i))) % 9
        if t != 0 and v == 0:
            v = 9
        total += v
    return (10 - total % 10) % 10 == ord(digits[9]) - 48


def iban_valid(iban: str) -> bool:
    """ISO 13616 mod-97 with the country's registered length (when we know it)."""
    s = iban.upper()
    if len(s) < 15 or len(s) > 34 or not s.isalnum() or not s[:2].isalpha():
        return False
    if not s[2:4].isdigit():
        return False
    expected = IBAN_LENGTHS.get(s[:2])
    if expected is not None and len(s) != expected:
        return False
    if s[:2] == "TR" and not s[4:].isdigit():
        return False
    moved = s[4:] + s[:4]
    num = "".join(str(int(c, 36)) for c in moved)
    return int(num) % 97 == 1


def luhn_valid(digits: str) -> bool:
    """Luhn (mod 10) check used by payment cards; 13-19 digits."""
    if not 13 <= len(digits) <= 19 or not digits.isdigit():
        return False
    total = 0
    for i, c in enumerate(reversed(digits)):
        n = ord(c) - 48
        if i % 2 == 1:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return total % 10 == 0


CHECKSUMS: Final[dict[str, Callable[[str], bool]]] = {
    "tckn": tckn_valid,
    "vkn": vkn_valid,
    "iban": iban_valid,
    "luhn": luhn_valid,
}


def strip_separators(value: str) -> str:
    """Drop everything but letters and digits (spaces, dots, dashes, slashes, brackets)."""
    return "".join(c for c in value if c.isalnum())
