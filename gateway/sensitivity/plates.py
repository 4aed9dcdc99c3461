"""Turkish licence plates ('34 ABC 123', '69-rne-44'): a shape many codes share, so one counts
only where a car is meant (a plate or vehicle word, parking, a car's make or model near it)."""

from __future__ import annotations

import re
from typing import Final

from gateway.sensitivity import context as ctx
from gateway.sensitivity.candidate import Candidate

# the groups are written apart by a space, a hyphen or a full stop ('06.AL.982')
PLATE_HINT: Final = re.compile(rb"00[ .\-]?a")
PLATE_START: Final = re.compile(r"(?<![\w])(?:0[1-9]|[1-7]\d|8[01])[ .-]?[A-PR-VYZa-pr-vyz]")
# Detectors that only ever count with context run only when a context word is in the text
# (with a car's make or model: 'beyaz Doblo 69 RNE 44', 'the white Fiat Egea 32 F 95872')
PLATE_TOKENS: Final = frozenset(
    (
        b"plaka plakali plakasi plakayi plakanin plakalarini plakam plakamiz plakasini arac "
        b"araci aracin aracim aracimi aracimiz aracini aracinin aracla araba arabanin arabam "
        b"arabami arabamin arabamiz arabasi arabasini arabasinin arabayi arabaya arabamla "
        b"otomobil otomobilim plate vehicle car ruhsat otopark trafik surucu driver taksi kaza "
        b"kasko "
        b"hgs ogs otoyol motosiklet kamyon kamyonet minibus otobus registration numberplate "
        # where a car stands: '69 RNE 44 kapımın önüne park etmiş', 'parked across the gate'
        b"park parked parking "
        # whose car stands in the way: 'whoever owns 16 DT 518, you are blocking the gate'
        b"blocking owns " + ctx.CAR_MAKES
    ).split()
)
PLATE: Final = re.compile(
    r"(0[1-9]|[1-7]\d|8[01])([ .-]?)([A-PR-VYZ]{1,3}|[a-pr-vyz]{1,3})[ .-]?(\d{2,5})(?![\w])"
)


def plate_at(text: str, folded: bytes, start: int) -> Candidate | None:
    if start > 0 and text[start - 1].isalnum():
        return None
    m = PLATE.match(text, start)
    if m is None:
        return None
    if m.group(2) == "." and text[m.end(3) : m.end(3) + 1] != ".":
        return None  # '06.AL 982' is no way to write one; '06.AL.982' is
    letters, digits = len(m.group(3)), len(m.group(4))
    if not (
        (letters == 1 and digits in (4, 5))
        or (letters == 2 and digits in (3, 4))
        or (letters == 3 and digits in (2, 3))
    ):
        return None
    pos = ctx.near(folded, start, m.end(), ctx.PLATE_CTX, before=60, after=60)
    if not pos and m.group(3).islower():  # '34 abc 123' is a plate only where one is meant
        return None
    return Candidate("PLAKA", start, m.end(), 0.85 if pos else 0.4, "plate")
