"""Person names (lexicon + titles) and postal addresses, from lexicon hits on the word view."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.handles import name_handles
from gateway.sensitivity.initials import aged
from gateway.sensitivity.lexicon import Lexicon, Occurrences
from gateway.sensitivity.lexicon_names import (
    EVERYDAY_FIRST_NAMES,
    FIRST_NAMES,
    NEWBORN_TITLES,
    NOT_SURNAMES,
    PUBLIC_FIGURES,
    SURNAMES,
    TITLES_AFTER,
    TITLES_BEFORE,
)
from gateway.sensitivity.lone_name import SUBJECT_VERBS
from gateway.sensitivity.name_cues import (
    CUE_TERMS,
    MAX_LOOKS,
    apostrophe_names,
    cue_names,
    lower_after_title,
    lower_name_ok,
    surname_ending_names,
)
from gateway.sensitivity.name_intro import (
    KIN_WORDS,
    LABEL_WORDS,
    OWN_NAME_WORDS,
    SELF_AFTER,
    SELF_WORDS,
    WHOSE_WORDS,
)
from gateway.sensitivity.textnorm import fold as _fold_word

NAME_LEXICON: Final[Lexicon[str]] = Lexicon(
    CUE_TERMS
    + [(n, "first") for n in FIRST_NAMES]
    + [(t, "title_before") for t in sorted(TITLES_BEFORE | NEWBORN_TITLES)]
    + [(t, "title_after") for t in TITLES_AFTER]
)
# one to three initials before the name after a title: 'Patient G. Mensah', 'Dr. J. R. Kaya';
# initials alone after a title are a name too ('Hasta C.T.')
_TITLE_INITIALS: Final = re.compile(r"[ \t]{1,3}((?:[A-ZÇĞİÖŞÜ]\.[ \t]?){1,3})")
# titles that also start titles of works, places and phrases ('Sister Act', 'Bebek Sahili',
# 'Father Time', 'Sir Galahad'): a listed name must follow them
_TITLES_NEED_LISTED: Final = NEWBORN_TITLES | frozenset(
    "sister father rabbi imam pastor reverend rev fr dame sir mx".split()
)
_NEXT_WORD: Final = re.compile(r"[ \t]{1,3}([A-ZÇĞİÖŞÜ][a-zçğıöşüâîû]+|[A-ZÇĞİÖŞÜ]{2,})")
_PREV_WORD: Final = re.compile(r"([A-ZÇĞİÖŞÜ][a-zçğıöşüâîû]+)[ \t]{1,3}$")
# the same in a lowercased or hastily typed text: the word must then be a listed name
_NEXT_LOWER: Final = re.compile(r"[ \t]{1,3}([a-zçğıöşüâîû]{2,})")
_PREV_LOWER: Final = re.compile(r"([a-zçğıöşüâîû]{2,})[ \t]{1,3}$")
# titles written abbreviated with a full stop ("Dr. Demir", "Av. Kaya", "Mrs. Patel"): the
# stop belongs to the title, not to a sentence end
_ABBREVIATED: Final = frozenset({"dr", "prof", "av", "mr", "mrs", "ms", "sn", "doc", "uzm"})
# abbreviated titles that are also units of time after a number ('0,3 sn', '200 ms')
_UNITS: Final = frozenset({"sn", "ms"})
# English role words used as titles ('patient Smith'); in capitals they start a heading
_ROLE_TITLES: Final = frozenset(
    {"patient", "client", "employee", "tenant", "applicant", "candidate"}
)


def _after_number(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i >= 0 and text[i].isdigit()


# listed surnames that are everyday words in lower case ('kara', 'demir', 'uzun', 'white')
_COMMON_SURNAMES: Final = frozenset(
    """
    kara demir kurt sen can ay gul tas ince uzun yaman turk bas gok tan oral cicek duman
    kalkan topal kose koca kocaman mutlu erol eren bulut gunes aslan yavuz bayram acar cakir
    keskin toprak sari ates savas ozgur guven yucel kaplan avci erdem orhan altun kahraman
    long white green king young hall wood price cook brown black gray grey bell baker hill
    reed ward rogers james lee martin moore long ross parker turner carter cooper
    dag er genc guzel kucuk kuzu temel yesil parlak pamuk elmas altin kartal kavak kaymak
    dogru zengin yurt deniz esen saglam sert uygun tutar inan okur yanik ozel sancak budak
    canli metin emre ceylan tuna sevinc calis kanat dinc soylu cakmak cevik tosun gumus aksu
    hunt mills knight mason fisher palmer marshall webb holmes park kim singh shah graham
    """.split()
)
_APOSTROPHES: Final = frozenset("'’‘´")

ADDRESS_LEXICON: Final[Lexicon[str]] = Lexicon(
    [
        (w, "street")
        for w in (
            "mah",
            "mahalle",
            "mahallesi",
            "mh",
            "cad",
            "cadde",
            "caddesi",
            "cd",
            "sok",
            "sokak",
            "sokagi",
            "sk",
            "bulvar*",
            "blv",
            "street",
            "avenue",
            "road",
            "lane",
            "boulevard",
            # Irish and British street kinds that are no everyday word ('14 Harcourt Terrace')
            "terrace",
            "crescent",
        )
    ]
)
_ADDRESS_DETAIL: Final = re.compile(
    rb"(?<![a-z0-9])(?:no|numara|kat|daire|d|apt|apartmani|blok|site|suite|flat|unit"
    # a street word with its number right after it: 'Nergis Sok. 4/12', 'Atatürk Cad. 15'
    rb"|sok|sk|sokak|sokagi|cad|cd|cadde|caddesi|bulvari|blv)[ .:]{0,3}\d|\d{5}(?![0-9])"
    # a door and flat number: '45/3', '4 / 12'
    rb"|(?<![0-9./])\d{1,4} ?/ ?\d{1,3}(?![0-9./])"
    # district/city: 'Maltepe/İst.', 'Kadıköy / İstanbul'
    rb"|(?<![a-z0-9])(?:[a-z]+ ?)?/ ?[a-z]+(?![a-z])"
    rb"|\d+[a-z]? [a-z]+ (?:street|avenue|road|lane|terrace|crescent)"
)
# a company's address ('registered office', 'Ltd.', 'A.Ş.') is no person's
_COMPANY: Final = re.compile(
    rb"(?<![a-z0-9])(?:ltd|limited|inc|llc|plc|gmbh|corp|a\.s|as\.|sti|san\. ve tic|holding"
    rb"|registered office|registered at|company|sirket\w*|firma\w*|merkez ofis|genel mudurluk"
    rb"|head office|headquarters|our office|ofisimiz|fabrika\w*|sube\w*|magaza\w*)(?![a-z0-9])"
)


# what follows a company's name: 'Yıldız Ambalaj San. Tic. A.Ş.', 'Deniz Lojistik Ltd.'
_COMPANY_AFTER: Final = re.compile(
    r"[ \t,]{0,3}(?:A\.?\s?Ş|AŞ|A\.S\.|Ltd|LTD|Şti|Sti|San\.|Tic\.|İnş|Inc|LLC|GmbH|Corp"
    r"|Holding|Group|Grup|Limited|Ticaret|Sanayi|Lojistik|Yazılım|Teknoloji|İnşaat)(?![\w])"
)
# a role the writer addresses ('Sayın Müşterimiz', 'Sayın Tedarikçimiz') or a group in the
# plural ('Sayın Çalışanlar', 'Sayın Veliler', 'Sayın Yolcularımız'), not a name
_OUR_ROLE: Final = re.compile(
    r"(?:[iıuü]m[iıuü]z|m[iıuü]z|n[iıuü]z|[iıuü]n[iıuü]z|l[ae]r|l[ae]r[iı]|l[ae]r[iı]m[iı]z)$"
)


def person_names(text: str, words: bytes, found: Occurrences) -> Iterator[Candidate]:
    """Full names with a known surname or a title, or told by the words around them
    (name_cues); a lone first name stays below threshold."""
    yield from surname_ending_names(text, words)
    yield from apostrophe_names(text)
    yield from name_handles(text, found)
    cues = 0
    for hit in NAME_LEXICON.find(words, found):
        if hit.tag == "first":
            # looked for from the first name, which is rarer than the label words
            labelled = _after_label(words, hit.start, hit.end)
            if labelled is not None:
                yield labelled
            elif _introduced(text, words, hit.start, hit.end) or _given_to_kin(
                text, words, hit.start, hit.end
            ):
                yield Candidate("AD", hit.start, hit.end, 0.6, "name_intro")
            elif text[hit.start].isupper():
                yield from _from_first_name(text, hit.start, hit.end)
            else:
                yield from _lower_full_name(text, hit.start, hit.end)
                yield from _lower_subject(text, hit.start, hit.end)
                yield from _lower_owned(text, hit.start, hit.end)
        elif hit.tag == "title_before":
            yield from _after_title(text, hit.start, hit.end)
        elif hit.tag in ("cue_after", "cue_before"):
            cues += 1
            if cues <= MAX_LOOKS:
                yield from cue_names(text, hit.start, hit.end, hit.tag == "cue_after")
        else:  # title_after: "Ayşe Hanım", "ayşe hanım"
            yield from _before_title(text, hit.start)


def _listed_name(word: str) -> bool:
    w = _fold_word(word)
    return (w in FIRST_NAMES or w in SURNAMES) and w not in EVERYDAY_FIRST_NAMES


def _after_title(text: str, start: int, end: int) -> Iterator[Candidate]:
    """'Sayın Ayşe Yılmaz', 'Dr. Demir', 'Patient G. Mensah', 'hastamız mehmet'."""
    title = _fold_word(text[start:end])
    if title in _UNITS and _after_number(text, start):
        return  # '0,3 sn tanıma süresi', '200 ms Gecikme': a unit of time, not 'Sayın'
    pos = end
    if pos < len(text) and text[pos] == "." and title in _ABBREVIATED:
        pos += 1
    initials = _TITLE_INITIALS.match(text, pos)
    if initials is not None:
        pos = initials.end(1) - (text[initials.end(1) - 1] in " \t")
    m = _NEXT_WORD.match(text, pos)
    if m is not None and not (m.group(1).isupper() and initials is not None):
        end = m.end()
        m2 = _NEXT_WORD.match(text, end)
        if m2 is not None and _fold_word(m2.group(1)) not in NOT_SURNAMES:
            end = m2.end()
        first = _fold_word(m.group(1))
        if title in _ROLE_TITLES and text[start:end].isupper() and not _listed_name(m.group(1)):
            return  # a heading ('EMPLOYEE HANDBOOK', 'PATIENT INFORMATION'), not a role + name
        if title in _TITLES_NEED_LISTED and first not in FIRST_NAMES and first not in SURNAMES:
            return  # 'Bebek Sahili', 'Sister Act': a place or a work, not a person
        if f"{title} {first}" in PUBLIC_FIGURES:
            return
        if first not in NOT_SURNAMES and (
            _OUR_ROLE.search(m.group(1).lower()) is None or _listed_name(m.group(1))
        ):
            begin = m.start(1) if initials is None else initials.start(1)
            yield Candidate("AD_SOYAD", begin, end, 0.9, "name_title")
        return
    if initials is not None and initials.group(1).count(".") >= 2 and aged(text, initials.end(1)):
        stop = initials.start(1) + len(initials.group(1).rstrip())
        yield Candidate("AD_SOYAD", initials.start(1), stop, 0.7, "name_title")
        return
    m = _NEXT_LOWER.match(text, pos)
    if m is not None and _listed_name(m.group(1)):
        name_end = m.end()
        m2 = _NEXT_LOWER.match(text, name_end)
        if m2 is not None and (_fold_word(m2.group(1)) in SURNAMES or lower_name_ok(m2.group(1))):
            name_end = m2.end()  # 'sayın tuncer özkoç': the surname, listed or not
        yield Candidate("AD_SOYAD", m.start(1), name_end, 0.85, "name_title")
    elif m is not None:
        yield from lower_after_title(text, start, end)


def _after_label(words: bytes, start: int, end: int) -> Candidate | None:
    """A listed first name (at start..end of the word view) after a label and followed by a
    listed surname, in any case, even when the first name is also an everyday word ('doğan',
    'can', 'sevgi'). A colon or a dash after the label is a space in the word view."""
    before = _word_before(words, start)
    if before == b"is":  # 'my name is ...'
        before = _word_before(words, start - 3)
    if before not in LABEL_WORDS:
        return None
    stop = words.find(b" ", end + 1)
    stop = len(words) if stop < 0 else stop
    if end + 1 >= stop or words[end] != 32:
        return None
    surname = words[end + 1 : stop].decode("ascii")
    if surname not in SURNAMES and not _compound_surname(surname):
        return None
    full = words[start:stop].decode("ascii")
    if full in PUBLIC_FIGURES:
        return None
    return Candidate("AD_SOYAD", start, stop, 0.75, "name_label")


def _introduced(text: str, words: bytes, start: int, end: int) -> bool:
    """The first name at `start` of the word view follows 'adım', 'ismim', 'my name is' or
    'her name's' (the apostrophe is a space in the word view), or the writer gives it with a
    comma after: 'ben okan, forklift operatörüyüm', "i'm nadia, 28", 'this is Lauren, flat 3'."""
    before = _word_before(words, start)
    if before in OWN_NAME_WORDS:
        return True
    at = words.rfind(b" " + before, 0, start) + 1
    if before in SELF_WORDS and SELF_AFTER.match(text, end) is not None:
        need = SELF_WORDS[before]
        if need is None or _word_before(words, at) == need:
            return True
    if before not in (b"is", b"s"):
        return False
    return _word_before(words, at) == b"name" and _word_before(words, at - 5) in WHOSE_WORDS


def _given_to_kin(text: str, words: bytes, start: int, end: int) -> bool:
    """A first name after a relative or a neighbour in a chat typed in lower case ('eşim
    selim'); the writer's own ('ben kerem, ...') is `_introduced`."""
    before = _word_before(words, start)
    return before in KIN_WORDS and _fold_word(text[start:end]) not in EVERYDAY_FIRST_NAMES


def _word_before(words: bytes, start: int) -> bytes:
    """The word that ends within four characters before `start` (empty if none)."""
    i = start
    while i > 0 and words[i - 1] == 32 and start - i < 4:
        i -= 1
    if i == start or i == 0 or words[i - 1] == 32:
        return b""
    at = words.rfind(b" ", 0, i)
    return words[at + 1 : i]


def _before_title(text: str, start: int) -> Iterator[Candidate]:
    """'Ayşe Hanım', 'mehmet bey': a lowercase word counts only when it is a listed name."""
    lo = max(0, start - 40)
    m = _PREV_WORD.search(text, lo, start)
    if m is not None and _fold_word(m.group(1)) not in NOT_SURNAMES:
        yield Candidate("AD_SOYAD", m.start(1), m.end(1), 0.85, "name_title")
        return
    m = _PREV_LOWER.search(text, lo, start)
    if m is not None and _fold_word(m.group(1)) in FIRST_NAMES:
        yield Candidate("AD_SOYAD", m.start(1), m.end(1), 0.8, "name_title")


def _lower_full_name(text: str, start: int, end: int) -> Iterator[Candidate]:
    """'ayşe yılmaz' typed in lower case: a listed first name followed by a listed surname,
    neither of them an everyday word, is a name; so is one that is an everyday word when a
    case ending follows after an apostrophe, which only a proper name takes ('deniz
    kaya'nın', 'can demir'e'); anything less stays text."""
    m = _NEXT_LOWER.match(text, end)
    if m is None:
        return
    w = _fold_word(m.group(1))
    if w not in SURNAMES and _compound_surname(w):
        yield Candidate("AD_SOYAD", start, m.end(), 0.7, "name_lexicon")
        return
    if w not in SURNAMES:
        # two first names and a case ending after an apostrophe: one double first name ('ali
        # rıza'nın', 'ayşe nur'a'), which only a person has
        if w in FIRST_NAMES and text[m.end() : m.end() + 1] in _APOSTROPHES:
            yield Candidate("AD_SOYAD", start, m.end(), 0.7, "name_lexicon")
        return
    everyday = (
        _fold_word(text[start:end]) in EVERYDAY_FIRST_NAMES
        or w in EVERYDAY_FIRST_NAMES
        or w in _COMMON_SURNAMES
    )
    if everyday and text[m.end() : m.end() + 1] not in _APOSTROPHES:
        return
    full = _fold_word(text[start : m.end()])
    if full not in PUBLIC_FIGURES:
        yield Candidate("AD_SOYAD", start, m.end(), 0.7, "name_lexicon")


# endings a Turkish surname takes after another surname ('Özdemirci', 'Kayalar', 'Aslanoğlu')
_SURNAME_SUFFIXES: Final = ("ci", "cu", "gil", "ler", "lar", "oglu")
# the short first halves of Turkish compound surnames ('Öztekin', 'Akyürek', 'Uzkaya')
_SURNAME_HEADS: Final = frozenset("oz ak uz gok ay er ilk bay cil kiz".split())


def _compound_surname(w: str) -> bool:
    """Turkish surnames are often two words joined ('Şahinkaya', 'Yeşilyurt', 'Öztekin') or a
    surname with an ending ('Özdemirci'); a list holds only the commonest. Such a word after a
    listed first name in lower case is a surname: a listed surname of at least four letters
    ends it, after a listed name or a short head, or it is a listed surname and an ending."""
    if len(w) < 6:
        return False
    for i in range(2, len(w) - 3):
        head, tail = w[:i], w[i:]
        if tail in SURNAMES and (head in _SURNAME_HEADS or head in SURNAMES or head in FIRST_NAMES):
            return tail not in EVERYDAY_FIRST_NAMES
    return any(
        w.endswith(end) and len(w) - len(end) >= 4 and w[: -len(end)] in SURNAMES
        for end in _SURNAME_SUFFIXES
    )


def _lower_subject(text: str, start: int, end: int) -> Iterator[Candidate]:
    """'bilal keeps kosher', 'sarah is off': a listed first name typed in lower case as the
    subject of a verb that takes a person stands for someone, as a capitalised one does; like
    that one it stays a lone first name below the personal threshold, and an everyday word
    ('hope is', 'grace has') counts only where `lone_name` says the text uses it as a name."""
    m = _NEXT_LOWER.match(text, end)
    if m is None or _fold_word(m.group(1)) not in SUBJECT_VERBS:
        return
    if _fold_word(text[start:end]) not in EVERYDAY_FIRST_NAMES:
        yield Candidate("AD", start, end, 0.3, "name_lexicon")


# the detector name of a lower-case first name known by its apostrophe (`_lower_owned`)
OWNED_LOWER: Final = "name_owned"


def _lower_owned(text: str, start: int, end: int) -> Iterator[Candidate]:
    """'tuğba'nın aidatı', 'yusuf'un duruşması', "marco's court date": a listed first name typed
    in lower case with an apostrophe and a case ending or a possessive is a proper noun, as
    only names are written; like a capitalised one it stays a lone first name below the
    personal threshold, and an everyday word ('umut'un') is left to `lone_name`."""
    if text[end : end + 1] not in _APOSTROPHES or not text[end + 1 : end + 2].isalpha():
        return
    if _fold_word(text[start:end]) not in EVERYDAY_FIRST_NAMES:
        yield Candidate("AD", start, end, 0.3, OWNED_LOWER)


def _from_first_name(text: str, start: int, end: int) -> Iterator[Candidate]:
    first = _fold_word(text[start:end])
    last_end = end
    surname_known = False
    capital_next = False
    pos = end
    for _ in range(2):
        m = _NEXT_WORD.match(text, pos)
        if m is None:
            break
        w = _fold_word(m.group(1))
        if w in NOT_SURNAMES or (m.group(1)[-1] == "s" and w not in SURNAMES | FIRST_NAMES):
            # 'Kelly Services', 'Taylor Series': a plural-looking word is no surname, but a
            # listed name ending in s is one ('Defne Aras', 'Jamal Idris', 'Ali Enes')
            break
        capital_next = True
        last_end = m.end()
        pos = m.end()
        if w in SURNAMES:
            surname_known = True
            break
        if w not in FIRST_NAMES:
            break
    if not capital_next:
        yield Candidate("AD", start, end, 0.3, "name_lexicon")
        return
    full = _fold_word(text[start:last_end])
    if full in PUBLIC_FIGURES or any(f in full for f in PUBLIC_FIGURES if first in f):
        return
    if _COMPANY_AFTER.match(text, last_end) is not None:
        return
    yield Candidate("AD_SOYAD", start, last_end, 0.8 if surname_known else 0.55, "name_lexicon")


def addresses(folded: bytes, words: bytes, found: Occurrences) -> Iterator[Candidate]:
    """A street word (mah., cad., sok., street) with a number, door, floor or postcode near."""
    last_end = -1
    for hit in ADDRESS_LEXICON.find(words, found):
        lo, hi = max(0, hit.start - 60), min(len(folded), hit.end + 60)
        if hit.start < last_end:
            continue
        if _ADDRESS_DETAIL.search(folded, lo, hi) is None:
            continue
        start = folded.rfind(b"\n", lo, hit.start) + 1 or lo
        start = max(start, lo)
        end = hi
        nl = folded.find(b"\n", hit.end, hi)
        if nl >= 0:
            end = nl
        last_end = end
        # whose address it is is said before it ('Deniz Lojistik Ltd., Atatürk Cad. 5'); a
        # firm named after it is the courier or the sender ('... daire 4, kargo firmasına')
        company = _COMPANY.search(folded, max(0, start - 160), hit.end) is not None
        yield Candidate("ADRES", start, end, 0.35 if company else 0.8, "address")
