"""Capitalised phrases that look like a person's name but name an institution, a body, a
document or a place: 'TBMM Genel Kurulu', 'Hakem Kurulu' ('Kurulu' ends like a surname in
-lu), 'Sayın Belediye Başkanlığına', '112 Acil Çağrı Merkezi', 'EMPLOYEE HANDBOOK',
'Employee Assistance Programme', and airports, bridges, stadiums and universities named after
historic people ('Sabiha Gökçen', 'Fatih Sultan Mehmet Köprüsü'). A legal person's or a
place's name is not personal data (KVKK Art. 3(1)(d)).

Only a name candidate's own words and the word right after it are looked at, so a person named
next to an institution stays a name: in 'Kurul üyesi Selin Arslan' the candidate is 'Selin
Arslan' and neither of its words is an institution word."""

from __future__ import annotations

import re
from typing import Final

from gateway.sensitivity.textnorm import fold

# the beginnings of Turkish words that name a body, an office, a document or a building
# (folded, any case ending after them: 'Kurulu'na', 'Başkanlığına'), and English ones whole
# (a prefix would take surnames: 'Boardman'); such a word is no part of a person's name
_STEMS: Final = tuple(
    """
    kurul meclis baskanli mudurlu bakanli belediye merkez komisyon komite savcili valili
    kaymakamli makam universite fakulte enstitu vakf dernek sendika federasyon konfederasyon
    havalima havaalan koprusu stadyum hastanesi camii meydani istasyon terminal kurumu
    mahkemesi genel birligi odasi kanunu yonetmelig
    """.split()
)
_WORDS: Final = frozenset(
    """
    council committee board authority agency ministry department commission tribunal
    parliament assembly handbook policy policies programme programmes program programs
    relations assistance airport bridge stadium university hospital institute foundation
    association federation centre center services manual guideline guidelines procedure
    procedures appendix chapter section scheme
    """.split()
)
# historic people whose names, alone, now mostly name a place: an airport, a bridge, a
# stadium, a university (folded, as written in running text)
PLACE_NAMES: Final = frozenset(
    """
    sabiha gokcen
    fatih sultan mehmet
    yavuz sultan selim
    osman gazi
    mimar sinan
    kadir has
    ali sami yen
    sukru saracoglu
    ismet inonu
    hasan polatkan
    cengiz topel
    ferit melen
    selahaddin eyyubi
    suleyman demirel
    adnan menderes
    """.strip().split("\n")
)
_PLACE_FIRST: Final = frozenset(p.split()[0] for p in (n.strip() for n in PLACE_NAMES))
_NEXT_WORD: Final = re.compile(r"[ \t]{1,2}([^\W\d_]+)")


def _institution_word(folded_word: str) -> bool:
    return folded_word in _WORDS or folded_word.startswith(_STEMS)


def institution_name(text: str, start: int, end: int) -> bool:
    """Whether the name candidate text[start:end] names an institution, a document or a
    place rather than a person. Folded once per candidate: it runs for every name found."""
    words = re.findall(r"[^\W\d_]+", fold(text[start:end]))
    if any(_institution_word(w) for w in words):
        return True
    folded = " ".join(words)
    if folded in PLACE_NAMES or (words and words[0] in _PLACE_FIRST and _place(folded)):
        return True
    nxt = _NEXT_WORD.match(text, end, min(len(text), end + 40))
    return nxt is not None and nxt.group(1)[:1].isupper() and _institution_word(fold(nxt.group(1)))


def _place(folded: str) -> bool:
    """A candidate that is a place name's start ('Fatih Sultan' of 'Fatih Sultan Mehmet')."""
    return any(p.startswith(folded + " ") or folded.startswith(p) for p in PLACE_NAMES)
