"""Person names recognised by the words around them, not by the name lists: a name nobody
listed ('Chidi Okafor', 'Katarzyna Wiśniewska') is still two capitalised words after a
greeting, a sign-off or a form label, before a verb only people do ('said', 'asked'), before
a job title in apposition ('X Y, Senior Accountant'), or with a Turkish surname ending
('-oğlu') or a case ending after an apostrophe on a surname-shaped word ('Aksoylu'nun').

Every look is anchored at a cue word the token scanner already found (or, for '-oğlu', one
bytes.find), so a text without cues costs nothing here. The pair must look like a name:
neither word a group or role noun ('Team', 'Ekibi', 'Müşterimiz'), no company suffix after
it, and a plural-looking unlisted second word ('Traders', 'Teams') is not a surname."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.lexicon_names import (
    FIRST_NAMES,
    NOT_SURNAMES,
    PUBLIC_FIGURES,
    SURNAMES,
)
from gateway.sensitivity.textnorm import fold

# cue word -> where the name is: after it (greetings, sign-offs, labels) or before it (verbs,
# job titles)
_GREETINGS: Final = frozenset("hi hello hey dear merhaba selam sevgili".split())
_AFTER_CUES: Final = """
    hi hello hey dear merhaba selam sevgili regards saygilarimla sevgilerimle selamlar thanks
    cheers sincerely tesekkurler contact attn passenger guest cardholder holder tenant owner
    yolcu misafir yetkili kontak signed imza imzalayan from recipient addressee consignee
    """.split()
# verbs only people do, said right after the name
_VERBS: Final = """
    said says told asked wrote emailed phoned texted replied joined resigned lives lived will
    """.split()
# job titles: the name stands before them with a comma, a dash or a bracket between
_ROLES: Final = frozenset(
    """
    accountant manager engineer director lead officer assistant analyst consultant
    developer designer coordinator specialist sorumlusu uzmani muduru mudur muhasebeci
    """.split()
)
_SIGN_OFFS: Final = frozenset(
    "regards saygilarimla sevgilerimle selamlar thanks cheers sincerely tesekkurler".split()
)
CUE_TERMS: Final = (
    [(w, "cue_after") for w in _AFTER_CUES]
    + [(w, "cue_before") for w in _VERBS]
    + [(w, "cue_before") for w in sorted(_ROLES)]
)

# how many cue words, '-oğlu' endings and apostrophes one text (one window of a long text, see
# classifier._WINDOW) is examined at: real prose has a handful per window, and a hostile text
# made of nothing else must not cost a Python call per character
MAX_LOOKS: Final = 64

# one word of a name: a capital, then letters (an apostrophe or a hyphen inside: O'Connor,
# Ayşe-Nur); at most 30 characters, so a match never runs long
_W: Final = r"[^\W\d_][^\W\d_'’\-]{0,29}(?:['’\-][^\W\d_]{1,29})?"
_PAIR_AFTER: Final = re.compile(
    r"[ \t]{0,3}[,:;\-–]?[ \t\r\n]{0,6}(" + _W + r")[ \t]{1,2}(" + _W + r")"
)
_PAIR_BEFORE: Final = re.compile(
    r"(?<![^\W\d_])(" + _W + r")[ \t]{1,2}(" + _W + r")[ \t]{0,2}(?:[,(–\-][ \t]{0,2})?"
    r"(?:[^\W\d_]{1,20}[ \t]{1,2}){0,2}$"
)
_GREETING_END: Final = re.compile(r"[ \t]{0,2}(?:[,!:;\r\n]|$)")
_NEXT_CAPITAL: Final = re.compile(r"[ \t]{1,2}(" + _W + r")")
_SUFFIX_AFTER: Final = re.compile(r"['’][a-zçğıöşü]{1,5}(?![\w])")
_COMPANY_AFTER: Final = re.compile(
    r"[ \t,]{0,3}(?:A\.?\s?Ş|AŞ|Ltd|LTD|Şti|Inc|LLC|GmbH|Corp|Holding|Group|Grup|Limited)(?![\w])"
)
# capitalised words that start or end a phrase without being a name
_NOT_NAME: Final = (
    frozenset(
        """
    the a an our your my his her their this that these those all everyone team teams staff
    ekip ekibi ekibimiz herkes arkadaslar degerli sayin dear hi hello merhaba selam customer
    customers musteri musterimiz department departmani birimi mudurlugu support destek sales
    satis finance finans muhasebe hr ik management yonetim committee board office ofis group
    grup service services hizmetleri center merkezi bank bankasi university universitesi
    new yeni next last first best kind warm many thanks regards mr mrs ms dr prof and or ve
    ile for from to of in on at by with cc attn re fw fwd subject konu date tarih
    monday tuesday wednesday thursday friday saturday sunday january february march april
    june july august september october november december pazartesi sali carsamba persembe
    cuma cumartesi pazar ocak subat mart nisan mayis haziran temmuz agustos eylul ekim kasim
    aralik istanbul ankara izmir london paris berlin turkey turkiye product owner project
    data senior junior head chief vice general insan kaynaklari there world us
    desk helpdesk procurement purchasing operations legal marketing security payroll accounts
    billing reception admissions recruitment facilities logistics engineering research
    satinalma lojistik hukuk guvenlik bordro
    """.split()
    )
    | NOT_SURNAMES
)
_OUR_ROLE: Final = re.compile(r"(?:[iıuü]m[iıuü]z|m[iıuü]z|n[iıuü]z|[iıuü]n[iıuü]z)$")
# surname endings that few other words have: Turkish '-oğlu', '-zade'; Slavic, Nordic,
# Romanian, Ukrainian ones
_SURNAME_ENDINGS: Final = ("oglu", "zade", "ski", "ska", "wicz", "enko", "escu", "qvist", "sson")


def _word_ok(word: str) -> bool:
    f = fold(word)
    return (
        word[0].isupper()
        and len(word) >= 2
        and f not in _NOT_NAME
        and f not in _ROLES
        and _OUR_ROLE.search(word.lower()) is None
    )


def _pair_ok(text: str, first: str, second: str, end: int) -> bool:
    if not (_word_ok(first) and _word_ok(second)):
        return False
    if first.isupper() != second.isupper():  # 'ERDEM SOLMAZ' or 'Erdem Solmaz', not 'IT Team'
        return False
    f, s = fold(first), fold(second)
    if f"{f} {s}" in PUBLIC_FIGURES:
        return False
    if s.endswith("s") and s not in SURNAMES:  # 'Northwind Traders', 'Microsoft Teams'
        return False
    return _COMPANY_AFTER.match(text, end) is None


def _surname_shaped(word: str) -> bool:
    w = fold(word)
    return w in SURNAMES or w.endswith(_SURNAME_ENDINGS) or w.endswith(("li", "lu"))


def cue_names(text: str, start: int, end: int, after: bool) -> Iterator[Candidate]:
    """The capitalised pair a cue word at start..end (of the text) points at."""
    if after:
        m = _PAIR_AFTER.match(text, end)
        if m is None or not _pair_ok(text, m.group(1), m.group(2), m.end()):
            if fold(text[start:end]) in _SIGN_OFFS:
                yield from _signed_first_name(text, end)
            return
        if fold(text[start:end]) in _GREETINGS:
            # 'Hi Laura Smith,': the greeting's name ends the line or takes a comma
            if _GREETING_END.match(text, m.end()) is None:
                return
        elif not any(c in text[end : m.start(1)] for c in ",:-–\n"):
            return  # 'Thanks Apple Pay for', 'Signed Contract Review': no sign-off or label
        third = _NEXT_CAPITAL.match(text, m.end())
        if third is not None and not _word_ok(third.group(1)):
            return  # 'İnsan Kaynakları Müdürlüğü': a department, not a person
        yield Candidate("AD_SOYAD", m.start(1), m.end(2), 0.7, "name_cue")
        return
    cue = fold(text[start:end])
    m = _PAIR_BEFORE.search(text, max(0, start - 80), start)
    if m is None or not _pair_ok(text, m.group(1), m.group(2), m.end(2)):
        return
    between = text[m.end(2) : start]
    if cue in _ROLES and not any(c in between for c in ",(–-"):
        return  # a job title names the person only in apposition: 'X Y, Accountant'
    if _capital_before(text, m.start(1)):
        return  # the end of a longer capitalised phrase: 'Quarterly Review Meeting will'
    if cue == "will":
        # 'Google Cloud will': these cues need the pair to look like a name as well
        first = fold(m.group(1))
        if not (first in FIRST_NAMES or _surname_shaped(m.group(2)) or _before_is_lower(text, m)):
            return
    elif cue not in _ROLES and between.strip():
        return  # a verb right after the name
    yield Candidate("AD_SOYAD", m.start(1), m.end(2), 0.7, "name_cue")


def _capital_before(text: str, i: int) -> bool:
    """A capitalised word ends right before offset i (one space between)."""
    j = i - 1
    while j >= 0 and i - j <= 2 and text[j] in " \t":
        j -= 1
    return j < i - 1 and j >= 0 and text[j].isalpha() and _word_start_upper(text, j)


def _word_start_upper(text: str, j: int) -> bool:
    while j > 0 and text[j - 1].isalpha():
        j -= 1
    return text[j].isupper()


def _before_is_lower(text: str, m: re.Match[str]) -> bool:
    """The pair sits inside a sentence (after a lower-case word), not at its start where any
    capitalised phrase stands."""
    i = m.start(1) - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i >= 0 and text[i].islower()


def _word_before(text: str, at: int) -> tuple[int, int]:
    """The word (start, end) that ends one or two spaces before offset `at`, read backwards a
    character at a time (a regex search would try every start in the stretch), at most 30
    letters and one hyphen or apostrophe inside ('Ayşe-Nur'); start == end when none."""
    e = at
    while e > 0 and at - e < 2 and text[e - 1] in " \t":
        e -= 1
    if e == at:
        return at, at
    s = e
    while s > 0 and e - s < 30 and text[s - 1].isalpha():
        s -= 1
    if s > 1 and s < e and text[s - 1] in "-'’" and text[s - 2].isalpha():
        inner = s - 1
        s = inner
        while s > 0 and inner - s < 29 and text[s - 1].isalpha():
            s -= 1
    return s, e


def surname_ending_names(text: str, words: bytes) -> Iterator[Candidate]:
    """'Gökçen Tuzcuoğlu', 'Hülya Karaosmanoğlu': a capitalised word ending in '-oğlu' after
    another capitalised word is a full name."""
    i = words.find(b"oglu")
    for _ in range(MAX_LOOKS):
        if i < 0:
            break
        end = i + 4
        if end >= len(words) or words[end] == 32:
            ws = words.rfind(b" ", 0, i) + 1
            if ws < i and text[ws].isupper():
                s, e = _word_before(text, ws)
                if s < e and _pair_ok(text, text[s:e], text[ws:end], end):
                    yield Candidate("AD_SOYAD", s, end, 0.75, "name_cue")
        i = words.find(b"oglu", end)


def apostrophe_names(text: str) -> Iterator[Candidate]:
    """'Berfin Aksoylu'nun': a capitalised pair whose second word is surname-shaped and takes
    a case ending after an apostrophe, which only a proper name takes."""
    for mark in "'’":
        i = text.find(mark)
        for _ in range(MAX_LOOKS):
            if i < 0:
                break
            ws = i
            while ws > 0 and i - ws < 30 and text[ws - 1].isalpha():
                ws -= 1
            if ws < i and text[ws].isupper() and _SUFFIX_AFTER.match(text, i) is not None:
                s, e = _word_before(text, ws)
                word = text[ws:i]
                if s < e and _surname_shaped(word) and _pair_ok(text, text[s:e], word, i):
                    yield Candidate("AD_SOYAD", s, i, 0.7, "name_cue")
            i = text.find(mark, i + 1)


# a sign-off, its comma or line break, and one word ending the line: 'Cheers,\nSiobhan'
_LONE_AFTER: Final = re.compile(
    r"[ \t]{0,3}[,!]?[ \t]{0,3}(?:\r?\n[ \t]{0,6})?(" + _W + r")[ \t]{0,3}[.!]?(?:\r?\n|$)"
)


def _signed_first_name(text: str, end: int) -> Iterator[Candidate]:
    """'Cheers, Siobhan' at the end of a line: a listed first name alone after a sign-off
    signs the message, where elsewhere a lone first name tells too little ('Thanks,
    Marketing' stays text)."""
    m = _LONE_AFTER.match(text, end)
    if m is None or not any(c in text[end : m.start(1)] for c in ",\n"):
        return
    word = m.group(1)
    if _word_ok(word) and not word.isupper() and fold(word) in FIRST_NAMES:
        yield Candidate("AD", m.start(1), m.end(1), 0.6, "name_cue")


# titles after which a lower-case word nobody listed is still a name: an English honorific
# written with its full stop ('mr. whitfield'), 'sayın' or 'sn' before two words ('sayın
# tuncer özkoç'); not the words that follow them without a name ('sayın yetkili')
_HONORIFICS: Final = frozenset({"mr", "mrs", "ms"})
_FORMAL: Final = frozenset({"sayin", "sn"})
_LOWER_WORD: Final = re.compile(r"[ \t]{1,2}([a-zçğıöşüâîû]{2,30})(?![\w'’])")
_NOT_LOWER_NAME: Final = (
    frozenset(
        """
    the a an and or of to for in on at by with is was will be then so this that it its
    not no please thanks ve ile icin de da bu su o bir olan gibi cok cok en
    yetkili yetkilisi ilgili musteri veli hoca hocam ogretmen baskan baskanim baskani mudur
    doktor avukat hakim savci makam makami kurul kurulu katilimci katilimcilar uye uyeler
    personel calisan yonetici yonetim kullanici abone okur okuyucu yolcu misafir hasta aday
    ogrenci bakan bakanim vekil vekilim milletvekili rektor dekan ailesi aile bay bayan
    """.split()
    )
    | _NOT_NAME
    | _ROLES
)


def lower_name_ok(word: str) -> bool:
    """A lower-case word after a title that may be a name: no everyday or role word."""
    return fold(word) not in _NOT_LOWER_NAME and _OUR_ROLE.search(word) is None


def lower_after_title(text: str, start: int, end: int) -> Iterator[Candidate]:
    """The unlisted lower-case name after the title at start..end ('mr. whitfield',
    'sayın tuncer özkoç'): one word after an honorific with its full stop (not after a number:
    '200 ms. retrying' is a time), two after 'sayın'."""
    title = text[start:end]
    t = fold(title)
    if t in _HONORIFICS and text[end : end + 1] == "." and not title.isupper():
        i = start - 1
        while i >= 0 and text[i] == " ":
            i -= 1
        m = _LOWER_WORD.match(text, end + 1)
        if m is not None and len(m.group(1)) >= 3 and lower_name_ok(m.group(1)):
            if i < 0 or not text[i].isdigit():
                yield Candidate("AD_SOYAD", m.start(1), m.end(1), 0.7, "name_title")
    elif t in _FORMAL:
        m = _LOWER_WORD.match(text, end + (text[end : end + 1] == "."))
        m2 = None if m is None else _LOWER_WORD.match(text, m.end())
        if m is not None and m2 is not None and lower_name_ok(m.group(1)):
            if lower_name_ok(m2.group(1)):
                yield Candidate("AD_SOYAD", m.start(1), m2.end(1), 0.7, "name_title")
