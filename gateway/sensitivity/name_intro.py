"""Words that introduce a person's name, in one table: each entry is a word of the word view
(ASCII-folded, lower case) and how it introduces the name next to it. names.py looks words up
in the sets derived below, so a word is added, or given a second way, in one place."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import Final, NamedTuple


class How(Enum):
    """How a word introduces the name after it."""

    # labels the name after it in forms, tickets and introductions ('alıcı: doğan yavuz',
    # 'kiralayan can yücel', 'ben sevgi durmaz', 'my name is ...'): there even a first name that
    # is an everyday word counts, when a listed surname follows it
    LABEL = "label"
    # introduces the writer's own name ('adım Kaan', 'ismim Ece'): a listed first name after it
    # is the writer's, even alone and even when it is an everyday word
    OWN_NAME = "own_name"
    # the writer gives their own name after it, with a comma, a dash, a stop or the end after
    # the name ('ben okan, ...', "i'm nadia, 28", 'this is Lauren - flat 3'); some need a
    # given word before them ('m' and 'am' need 'i', 'is' needs 'this')
    SELF = "self"
    # whose name a 'name is' / "name's" tells ('my name is ruth', "her name's amirah")
    WHOSE = "whose"
    # a relative or a neighbour, before a first name in a chat typed in lower case ('eşim
    # selim', 'komşunuz berna'): the word says it is someone's name though nothing is
    # capitalised
    KIN = "kin"


class Intro(NamedTuple):
    word: str
    how: How
    # SELF only: the word that must stand right before `word` ('i' before 'am')
    after: str | None = None


def _each(how: How, words: str) -> list[Intro]:
    return [Intro(w, how) for w in words.split()]


INTRODUCERS: Final[tuple[Intro, ...]] = (
    *_each(
        How.LABEL,
        """
        alici gonderen kiralayan kiraci musteri musterimiz soyad soyadi soyadim adim isim ismim
        ben adsoyad veli surucu name named dear customer recipient sender
        """,
    ),
    # a job or a role said right before the name, in a note typed in lower case ('kasiyer
    # derya yılmaz', 'vinç operatörü murat özdemirci', 'intern jack lee'): the surname after it
    # must be listed or made of listed parts, as after any label
    *_each(
        How.LABEL,
        """
        kasiyer muhasebeci stajyer stajyerimiz sofor soforumuz garson operator operatoru
        hemsire hemsiremiz teknisyen tekniker sekreter sekreterimiz asistan asistanimiz
        temsilci temsilcisi temsilcimiz danisman danismani uzman uzmani mudur muduru
        mudurumuz sefi sefimiz usta ustasi ustamiz elemani elemanimiz personel kurye kuryesi
        bekci kapici avukat avukati ogretmen ogretmeni ogretmenimiz calisan calisanimiz
        cashier driver nurse technician intern clerk supervisor receptionist mechanic cleaner
        courier agent trainee
        """,
    ),
    *_each(How.OWN_NAME, "adim ismim"),
    Intro("ben", How.SELF),
    Intro("im", How.SELF),
    Intro("m", How.SELF, after="i"),
    Intro("am", How.SELF, after="i"),
    Intro("is", How.SELF, after="this"),
    *_each(How.WHOSE, "my her his"),
    *_each(
        How.KIN,
        """
        esim oglum kizim kardesim annem babam ablam abim agabeyim arkadasim komsum komsumuz
        komsunuz nisanlim sevgilim kuzenim yegenim torunum enistem kocam karim dayim amcam teyzem
        halam
        """,
    ),
)


def _introducing(how: How) -> frozenset[bytes]:
    return frozenset(e.word.encode("ascii") for e in INTRODUCERS if e.how is how)


LABEL_WORDS: Final = _introducing(How.LABEL)
OWN_NAME_WORDS: Final = _introducing(How.OWN_NAME)
WHOSE_WORDS: Final = _introducing(How.WHOSE)
KIN_WORDS: Final = _introducing(How.KIN)
# a SELF word -> the word that must precede it (None: any)
SELF_WORDS: Final[Mapping[bytes, bytes | None]] = MappingProxyType(
    {
        e.word.encode("ascii"): None if e.after is None else e.after.encode("ascii")
        for e in INTRODUCERS
        if e.how is How.SELF
    }
)
# what must follow a name given after a SELF word: a comma, a stop, an exclamation, a dash
# with a space after it, or the end of the text
SELF_AFTER: Final = re.compile(r"[ \t]{0,2}(?:[,.!]|[-–—][ \t]|$)")
