"""Topic words in their everyday, institutional sense, which says nothing about anyone:
a civil or commercial court named as the forum of a contract or the addressee of a petition
('İstanbul Mahkemeleri ve İcra Daireleri yetkilidir', 'Asliye Ticaret Mahkemesi'), company
property handed over on a custody form ('laptop zimmet formu', 'aracın zimmeti devredildi'),
a vehicle's roadworthiness test ('aracınızın muayene süresi'), an administrative fine, a
topic word in a law's title ('6356 sayılı Sendikalar ... Kanunu'), a religious holiday
greeted to every reader ('Kandiliniz mübarek olsun'), a software switch turned off ('feature
flag disabled'), a people's dishes, music or dances ('Laz horonu', 'Ermeni mutfağı'), an
event's dress code stated for everyone ('dress code: smart casual'). A criminal court, a
prosecution or embezzlement ('zimmetine geçirdi') stays a topic; so do a disabled person, a
person's origin and a person's clothes.

Checked on the folded word view (only [a-z0-9], everything else a space) around the hit, so
each check costs a few short slices and only for the few hits of these stems."""

from __future__ import annotations

import re
from typing import Final

from gateway.sensitivity.everyday_english import everyday_english
from gateway.sensitivity.lexicon import Hit

# the kind of court in the words before 'mahkemesi': every one of these hears civil,
# commercial, labour, family, consumer, tax or administrative cases, never a criminal one
_CIVIL_COURTS: Final = frozenset(
    b"ticaret hukuk is aile tuketici idare idari vergi icra kadastro sinai fikri "
    b"danistay istinaf yargitay anayasa bolge".split()
)
# a criminal court or a prosecution near the word: the hit keeps its category
_CRIMINAL: Final = (b"ceza", b"savci", b"sanik", b"sucu", b"suclu", b"tutuk", b"kovusturma")
# a jurisdiction clause: which courts settle the parties' disputes
_FORUM: Final = (b"yetkili", b"icra daire", b"uyusmazlik", b"ihtilaf")
# what is handed over on a custody ('zimmet') record: things, and the record itself
_CUSTODY: Final = (
    b"form",
    b"tutanag",
    b"fis",
    b"liste",
    b"belge",
    b"sened",
    b"devr",
    b"devred",
    b"teslim",
    b"iade",
    b"demirbas",
    b"arac",
    b"laptop",
    b"bilgisayar",
    b"telefon",
    b"hatti",
    b"ekipman",
    b"malzeme",
)
_EMBEZZLEMENT: Final = (b"gecir", b"suc", b"savci", b"ihtilas", b"yargila", b"dava")
# the rest of an identifier, then '=' or ':' and a value on the same line (a key that opens a
# nested block, 'face_match:' at a line's end, holds no value)
_KEY_VALUE: Final = re.compile(rb"[A-Za-z0-9_]*[\"'\]]{0,2}[ \t]{0,3}[=:][ \t]*[^\s{]")
# how far (bytes) a person's name or identifier makes a field name part of a filled-in record
SCHEMA_REACH: Final = 400
# a holiday with the second-person plural possessive ('kandiliniz', 'bayraminizi'), and the
# words a greeting ends with
_GREETING_YOURS: Final = re.compile(rb"(?:in|un)(?:iz|uz)(?:i|u|in|un|de|da)?$")
_SUFFIX: Final = re.compile(rb"n(?:in|un|iz|uz)(?:iz|uz)?(?:i|u|in|un|de|da)?")
_GREETING: Final = (b"kutlar", b"mubarek", b"hayirli", b"tebrik", b"kutlu olsun")
_VEHICLE: Final = (
    b"arac",
    b"araba",
    b"plaka",
    b"tuvturk",
    b"egzoz",
    b"otomobil",
    b"vehicle",
    b"kasko",
)
# what is 'kapalı' (closed, indoor) rather than covered when it follows a person word: 'kız
# kapalı ortamda sıkıldı', 'stajyer kapalı otoparka park etti'
_CLOSED_THINGS: Final = (
    b"ortam",
    b"alan",
    b"mekan",
    b"yer",
    b"otopark",
    b"havuz",
    b"salon",
    b"spor",
    b"devre",
    b"kutu",
    b"zarf",
    b"kap",
    b"gise",
    b"sube",
    b"magaza",
    b"dukkan",
    b"ofis",
    b"kal",
    b"tut",
    b"pazar",
    b"cars",
    b"kisim",
    b"bolum",
    b"kat",
    b"oda",
    b"hesap",
    b"telefon",
    b"hat",
)


# a software switch turned off ('auto-adjust disabled', 'feature flag disabled', 'disabled by
# default'): the word right before or after it is a thing a program has, not a person ('is'
# is no such word: 'Mehmet is disabled')
_SWITCHED: Final = re.compile(
    rb"(?:auto|adjust|feature|flag|setting|option|button|account|plugin|module|mode|sync|cache"
    rb"|logging|login|check|service|job|endpoint|rule|alert|trigger|field|input|cron|api"
    rb"|ssl|tls|firewall) $"
)
_SWITCHED_AFTER: Final = (b" by default", b" in config", b" in the config", b" for now", b" until")
# an ethnic group's dishes, music, dances, crafts or buildings: culture, no one's origin
# (not "türkü", a folk song: folded it is "Türk" with a suffix, "Ahıska Türkü")
_CULTURE: Final = re.compile(
    rb" (?:mutfag\w*|yemek\w*|tatli\w*|muzig\w*|muzik\w*|dans\w*|halay\w*|horon\w*"
    rb"|mimari\w*|el sanat\w*|cuisine|food|dishes|recipes|music|dances?|folk"
    rb"|architecture|crafts?)(?![a-z0-9])"
)
# an event's dress code stated for everyone ('dress code: smart casual', 'dress code business')
_DRESS_STYLE: Final = re.compile(
    rb" +(?:smart|business|casual|formal|black tie|cocktail|resmi|spor|sik|yok|none)(?![a-z0-9])"
)


# banks and funds named after the foundations that own them ('Vakıfbank', 'Vakıf Katılım',
# 'Vakıflar Bankası'): a payee, no one's membership
_FOUNDATION_FIRMS: Final = frozenset(
    b"bank bankasi katilim yatirim emeklilik faktoring finansal leasing sigorta gyo portfoy "
    b"genel".split()
)
# a party that is a celebration ('doğum günü partisi', 'yılbaşı partisi', 'Christmas party'),
# not a political one
_CELEBRATIONS: Final = frozenset(
    b"gunu yilbasi veda mezuniyet pijama surpriz havuz bahce kostum noel nisan kina cay yemek "
    b"ofis sirket yaz yilsonu lansman acilis kutlama dans karaoke plaj tekne ev hosgeldin "
    b"emeklilik ekip takim christmas xmas birthday farewell office pool tea dinner garden pizza "
    b"launch release halloween costume surprise bachelor bachelorette hen stag graduation "
    b"engagement shower reveal welcome retirement team house beach holiday summer year years "
    b"leaving housewarming".split()
)


# 'tahliye' of water or of a building, and a tenant's eviction (a civil matter), not a release
# from prison: a word of plumbing, of a building or of a lease near it, none of a prison
_DRAINED_OR_EVICTED: Final = (
    b" su ",  # the word, not the ending of 'başvurusu'
    b" suyu",
    b"gider",
    b"hortum",
    b"boru",
    b"pompa",
    b"drenaj",
    b"yogus",
    b"klima",
    b"bina",
    b"yangin",
    b"kira",
    b"ev sahib",
    b"taahhut",
    b"ihtar",
    b"konut",
    b"tasinmaz",
)
_PRISON: Final = (b"cezaev", b"tutuk", b"hapis", b"mahkum", b"savci", b"sartli", b"iceri")
# garments as goods ('başörtüsü modelleri', 'eşarp ve başörtüsü fiyatları', 'tesettür
# koleksiyonu'): a shop's stock, no one's dress
_FOR_SALE: Final = tuple(
    b"model fiyat stok koleksiyon indirim kampanya toptan imalat urun magaza satis".split()
)
# a product that reads fingerprints ('parmak izli kapı kilidi'): a feature, no one's print
_PRINT_PRODUCTS: Final = (b"kilit", b"kapi", b"kasa", b"okuyucu", b"sensor", b"telefon", b"cihaz")
# idioms that use a topic word for something else: (category, token, the word before it or
# None, the start of the words after it or None): a tangled mess ('arap saçına döndü'), a
# fright ('kalp krizi geçirtecek'), a cat kept indoors ('evde hapis'), a children's game
# ('hırsız polis oynamak'), a firm's character ('şirketin DNA'sında var'), GM food, a
# cobbled street, a dish and a bread named after a people or a month
_IDIOMS: Final = (
    ("ethnicity", b"arap", None, b"sac"),
    ("health", b"kalp", None, b"gecirt"),
    ("criminal_record", b"hapis", b"evde", None),
    ("criminal_record", b"hirsiz", None, b"polis oy"),
    ("genetic", b"dna", None, b"sinda"),
    ("genetic", b"genetigi", None, b"degistiril"),  # genetically modified food
    ("ethnicity", b"arnavut", None, b"kaldirim"),  # cobblestones
    ("ethnicity", b"arnavut", None, b"ciger"),  # a dish of fried liver
    ("religion", b"ramazan", None, b"pide"),  # the flat bread baked in that month
    ("genetic", b"tasiyici", None, b"firma"),  # a carrier: a courier firm
    ("genetic", b"tasiyici", None, b"sistem"),  # a dome's load-bearing system
)
# what is served at a party that is a celebration ('partiye kim geliyor, pastayı ben alırım')
_PARTY_FARE: Final = (b"pasta", b"cake", b"balon", b"balloon", b"kek ")


def _near(words: bytes, lo: int, hi: int, marks: tuple[bytes, ...]) -> bool:
    part = words[max(0, lo) : hi]
    return any(m in part for m in marks)


# someone a switch may describe instead ('the patient is disabled', 'my son is disabled')
_SWITCHED_PEOPLE: Final = re.compile(
    rb"(?<![a-z0-9])(?:i|i m|my|he|she|his|her|son|daughter|patient|child|person|people|man"
    rb"|woman|veteran|worker|employee|student|resident)(?![a-z0-9])"
)


# a partner 'of the same gender too' ("partner'ım da kadın"), unless the gender word begins
# a sibling, a friend or a ward ('erkek kardeşim', 'kadın doğum')
_NOT_GENDER: Final = re.compile(rb" (?:kardes|arkadas|dogum|cocu|berber|kuafor)")


def _next_words(words: bytes, hit: Hit[str]) -> bytes:
    """The words after the hit, skipping a coordinated second group ('Süryani ve Ermeni
    mutfağı', 'Laz and Hemşin music')."""
    rest = words[hit.end : hit.end + 40]
    m = re.match(rb" (?:ve|and|ile|or|veya) [a-z]+", rest)
    return rest[m.end() :] if m else rest


def _civil_court(words: bytes, hit: Hit[str]) -> bool:
    before = words[max(0, hit.start - 40) : hit.start].split()[-3:]
    if _near(words, hit.start - 40, hit.end + 40, _CRIMINAL):
        return False
    if any(w in _CIVIL_COURTS for w in before):
        return True
    return _near(words, hit.start - 120, hit.end + 80, _FORUM)


def _custody(words: bytes, hit: Hit[str]) -> bool:
    if _near(words, hit.start - 60, hit.end + 60, _EMBEZZLEMENT):
        return False
    return _near(words, hit.start - 60, hit.end + 80, _CUSTODY)


def identifier_part(encoded: bytes, hit: Hit[str]) -> bool:
    """A topic word joined by '_' to another word is part of a column, field or variable name
    ('diagnosed_at', 'allergy_flags', 'is_pregnant'): a schema names what may be stored, it
    states nothing about anyone. The caller still counts it when a person's name or an
    identifier is within SCHEMA_REACH (a row of values: 'personel=Tuncay Erol')."""
    end = hit.start + len(hit.token)
    if not (encoded[end : end + 1] == b"_" or (hit.start > 0 and encoded[hit.start - 1] == 95)):
        return False
    # a key with its value ('hiv_status=positive', '"is_pregnant": true') is a record
    m = _KEY_VALUE.match(encoded, end)
    return m is None and not _a_value(encoded, hit.start)


# a field naming the record's person: 'employee=', 'user_id:', '"patient": '
_PERSON_KEY: Final = re.compile(
    rb"(?i)(?<![a-z])(?:employee|user|patient|member|customer|personel|calisan|hasta|uye"
    rb"|musteri|name|ad_soyad|subject)[a-z_]{0,12}[\"']?[ \t]?[=:]"
)


def _a_value(encoded: bytes, start: int) -> bool:
    """Whether the identifier holding `start` is a field's value ('code=UNION_DUES_SEIU',
    'reason: "sick_leave_psych"') in a record whose line names its person ('employee=...'):
    that person's entry, not a column's name."""
    i = start
    while i > 0 and start - i < 64 and (encoded[i - 1 : i].isalnum() or encoded[i - 1] == 95):
        i -= 1
    while i > 0 and encoded[i - 1] in b"\"' \t":
        i -= 1
    if i == 0 or encoded[i - 1] not in b"=:":
        return False
    lo = encoded.rfind(b"\n", max(0, start - 400), start) + 1
    hi = encoded.find(b"\n", start, start + 400)
    return _PERSON_KEY.search(encoded, lo, start + 400 if hi < 0 else hi) is not None


def _with_suffix(words: bytes, hit: Hit[str]) -> bytes:
    """The hit's first token with an ending written after an apostrophe ('Kandili'nizi' is
    'kandili nizi' in the word view)."""
    end = hit.start + len(hit.token)
    following = words[end + 1 : end + 8].split(b" ", 1)[0]
    if words[end : end + 1] == b" " and _SUFFIX.fullmatch(following):
        return hit.token + following
    return hit.token


def _idiom(words: bytes, hit: Hit[str], before: list[bytes]) -> bool:
    after = words[hit.end : hit.end + 16].lstrip()
    for tag, token, word_before, starts in _IDIOMS:
        if hit.tag != tag or hit.token != token:
            continue
        if word_before is not None:
            if before[-1:] == [word_before] and not after.startswith(b"ceza"):
                return True
        elif starts is not None and after.startswith(starts):
            return True
    return False


def everyday_use(words: bytes, hit: Hit[str]) -> bool:
    """Whether a topic hit is one of the everyday, impersonal uses above, or an English one
    (lexicon_english.everyday_english)."""
    if everyday_english(words, hit):
        return True
    token = hit.token
    before = words[max(0, hit.start - 24) : hit.start].split()[-2:]
    if len(before) == 2 and before[0].isdigit() and before[1] == b"sayili":
        return True  # a law's title: '6356 sayılı Sendikalar ve Toplu İş Sözleşmesi Kanunu'
    if hit.tag == "health" and token == b"disabled":
        after = words[hit.end : hit.end + 16]
        return (
            _SWITCHED.search(words, max(0, hit.start - 14), hit.start) is not None
            or after.startswith(_SWITCHED_AFTER)
        ) and _SWITCHED_PEOPLE.search(words, max(0, hit.start - 60), hit.end + 30) is None
    if hit.tag == "sexual_life" and token == b"partner" and _NOT_GENDER.match(words, hit.end):
        return True  # "partner'ım da erkek kardeşim de", "kadın doğumcu": no gender
    if hit.tag == "ethnicity" and _CULTURE.match(_next_words(words, hit)):
        return True  # 'Süryani ve Ermeni mutfağı', 'Laz horonu': a people's culture
    if hit.tag == "membership" and token.startswith(b"sendikasyon"):
        return True  # a syndicated loan
    if hit.tag == "membership" and token.startswith(b"vakif"):
        firm = words[hit.end : hit.end + 16].split()[:1]
        return token.startswith(b"vakifbank") or (bool(firm) and firm[0] in _FOUNDATION_FIRMS)
    if hit.tag == "political_opinion" and token.startswith((b"parti", b"party")):
        return (before[-1:] != [] and before[-1] in _CELEBRATIONS) or _near(
            words, hit.end, hit.end + 60, _PARTY_FARE
        )
    if _idiom(words, hit, before):
        return True
    if hit.tag == "appearance" and _next_words(words, hit).lstrip().startswith(_FOR_SALE):
        return True
    if hit.tag == "appearance" and words.startswith(b"dress code", hit.start):
        return _DRESS_STYLE.match(words, hit.end) is not None
    if hit.tag == "criminal_record":
        if token == b"para" and before[-1:] == [b"idari"]:
            return True  # an administrative fine (a traffic ticket) is no criminal sanction
        if token == b"cezai" and words[hit.end : hit.end + 5] == b" sart":
            return True  # a contract's penalty clause ('cezai şart'), no criminal sanction
        if token.startswith(b"mahkeme"):
            return _civil_court(words, hit)
        if token.startswith(b"zimmet"):
            return _custody(words, hit)
        if token.startswith(b"tahliye"):
            return _near(words, hit.start - 60, hit.end + 60, _DRAINED_OR_EVICTED) and not _near(
                words, hit.start - 80, hit.end + 80, _PRISON
            )
    elif hit.tag == "religion" and _GREETING_YOURS.search(_with_suffix(words, hit)):
        # 'Kandiliniz mübarek olsun', 'Bayramınızı kutlarız': a greeting to every reader
        return _near(words, hit.end, hit.end + 60, _GREETING)
    elif hit.tag == "appearance" and words[max(0, hit.end - 7) : hit.end] == b" kapali":
        return words[hit.end : hit.end + 12].lstrip().startswith(_CLOSED_THINGS)
    elif hit.tag == "health" and token.startswith(b"kanser"):
        return words[hit.end : hit.end + 6].lstrip().startswith(b"burc")  # the zodiac sign
    elif hit.tag == "biometric" and words.startswith(b"parmak izli ", hit.start):
        return words[hit.end : hit.end + 14].lstrip().startswith(_PRINT_PRODUCTS)
    elif hit.tag == "health" and token.startswith(b"muayene"):
        return _near(words, hit.start - 60, hit.start, _VEHICLE) or words[
            hit.end : hit.end + 12
        ].lstrip().startswith(b"istasyon")
    return False
