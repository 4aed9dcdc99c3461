"""The second stage for special categories: whom does a sentence that names a sensitive topic
concern? An identifiable or first-person individual (my patient, I, my son, a named employee)
makes it special-category data; general talk (news, teaching, statistics, policy, code) does
not.

Features of the sentence around a topic hit feed a logistic model trained in this repository
(`python -m gateway.sensitivity.train`, from the generated sentences of
gateway/sensitivity/training/). The topic word itself is masked, so the model learns the frame
around it (who, which verb, which suffix) rather than the topic. The weights ship as JSON; no
download at run time."""

from __future__ import annotations

import json
import math
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

MODEL_PATH: Final = Path(__file__).with_name("subject_model.json")
DIM_BITS: Final = 18
_DIM_MASK: Final = (1 << DIM_BITS) - 1
_TOKEN: Final = re.compile(rb"[a-z0-9]+")

# Rule cues, searched in the folded sentence. Not decisive on their own: the model weighs them.
# Someone in the writer's care or circle, named by a possessive ('hastam', 'oglumuz',
# 'muvekkilim', 'calisanimiz') or a role word of a concrete person.
_POSSESSIVE_ROLE: Final = re.compile(
    rb"(?<![a-z0-9])(?:hasta|danisan|muvekkil|calisan|personel|isci|uye|ogrenci|aday|musteri"
    rb"|kiraci|komsu|arkadas|es|kiz|ogul|ogl|anne|baba|kardes|abla|abi|agabey|dede|nine|teyze"
    rb"|hala|dayi|amca|yegen|torun|cocug|cocuk|bebeg|bebek|nisanli|sevgili|kayinvalide"
    rb"|kaynana|kayinpeder|patron|mudur|mesai arkadas|ekip arkadas|stajyer|sofor|bakici"
    rb"|sekreter|asistan|kuzen|damad|gelin|koca|karim|kocam|eniste|yenge|kayinbirader"
    rb"|gorumce|baldiz|bacanak|elti|sef|amir|ustabasi|ev arkadas|oda arkadas"
    rb"|ev sahib|kayinco|uvey (?:kiz|ogl|anne|baba))"
    # an endearing diminutive before 'my' ('ablacigim', 'annecim')
    rb"(?:c[iu]g|c[iu])?(?:im|um|m|imiz|umuz|miz|muz|niz|iniz|unuz)[a-z]*"
    # a trade in -ci with 'our' or 'your' ('muhasebecimiz', 'temizlikciniz'), not
    # a goal or a start ('amacimiz', 'baslangicimiz')
    rb"|(?<![a-z0-9])(?!amac|baslangic|ilac|sevinc|gurur|borc)[a-z]{4,}c[iu](?:miz|muz|niz|nuz)"
    rb"(?![a-z0-9])"
    # a job held by one person at the writer's workplace ('muhasebecimiz', 'kuryemiz'); not
    # 'your' ('doktorunuza danisiniz' in a leaflet speaks to any reader)
    rb"|(?<![a-z0-9])(?:muhasebeci|ogretmen|doktor|avukat|hemsire|teknisyen|muhendis|kasiyer"
    rb"|garson|bekci|temizlikci|asci|kurye|operator|yonetici|satisci|tezgahtar|resepsiyonist"
    rb"|danisman|usta)(?:im|um|m|imiz|umuz|miz|muz)(?![a-z0-9])"
)
# not after an apostrophe: a Turkish case ending ('template'i') is no English 'I'
_FIRST_PERSON_EN: Final = re.compile(
    rb"(?<![a-z0-9'])(?:i|i'm|im|i've|ive|i'd|my|me|myself|mine|we've|our)(?![a-z0-9])"
)
_FIRST_PERSON_EN_NOT_OUR: Final = re.compile(
    rb"(?<![a-z0-9'])(?:i|i'm|im|i've|ive|i'd|my|me|myself|mine|we've)(?![a-z0-9])"
)
# "son" only after a determiner: alone it is the Turkish "last" ("son yillarda")
# the Turkish 'her' ('every'): 'her gün', 'her çalışan' is no English 'her'
_EVERY_TR: Final = (
    rb"(?! (?:gun|hafta|ay|yil|sene|sabah|aksam|gece|saat|zaman|sey|kes|biri|birey|iki|uc|yer"
    rb"|turlu|ne|defa|sefer|konu|durum|donem|ogun|calisan|personel|ogrenci|hasta|kisi|insan"
    rb"|vatandas|musteri|aday|uye|birim|departman|sube|ofis|ekip)[a-z]*(?![a-z0-9]))"
)
# a role after 'every', 'each', 'any' or 'no' ('every employee', 'any candidate') is anyone
_THIRD_PERSON_EN: Final = re.compile(
    rb"(?<![a-z0-9])(?<!every )(?<!each )(?<! any )(?<!^any )(?<! no )(?<!^no )"
    rb"(?:he|she|his|her" + _EVERY_TR + rb"|him|they've|mr|mrs|ms|dr|patient|client|employee"
    rb"|applicant|candidate|tenant|customer|member of staff|staff member|colleague|coworker"
    rb"|co-worker|resident|pupil|(?:my|his|her|their|our|your|the|a|whose) son|daughter"
    rb"|wife|husband|mother|father|mum|mom|dad|brother"
    rb"|sister|friend|neighbour|neighbor|boss|manager|fianc[e]+|girlfriend|boyfriend"
    rb"|roommate|flatmate|housemate|partner|uncle|aunt|cousin|nephew|niece|grandma|grandpa"
    rb"|grandmother|grandfather|granddad|grandson|granddaughter|stepson|stepdaughter"
    rb"|mother-in-law|father-in-law|teammate|supervisor|student|intern|trainee|caller"
    rb"|learner|volunteer|contractor|landlord|lodger"
    # Turkish 'he/she himself/herself', which points back at someone named before
    rb"|kendisi|kendisinin|kendisine|kendisini|kendisinde|kendisiyle)(?![a-z0-9])"
)
_FIRST_PERSON_TR: Final = re.compile(
    rb"(?<![a-z0-9])(?:ben|benim|bende|bana|beni|benden|biz|bizim)(?![a-z0-9])"
    rb"|(?<![a-z0-9])([a-z]+(?:iyorum|uyorum|yorum|dim|dum|tim|tum|mistim|mustum|acagim|ecegim"
    rb"|iyim|uyum|yim|yum|lim|lum|liyim|luyum|siyim|suyum|miyim|muyum))(?![a-z0-9])"
    rb"|(?<![a-z0-9])([a-z]{3,}(?:lar|ler)(?:im|um))(?![a-z0-9])"
    rb"|(?<![a-z0-9])([a-z]{3,}(?:im|um)) (?:var|yok)(?![a-z0-9])"
    # 'my' with a genitive or ablative ending ('partimin', 'gorevimden'; the other endings are
    # those of nouns in -im: 'takvimi', 'bicimde') and 'that I ...' ('ettigimi', 'oldugumu')
    rb"|(?<![a-z0-9])([a-z]{3,}(?:im|um))(?:in|un|den|dan)(?![a-z0-9])"
    rb"|(?<![a-z0-9])[a-z]+(?:dig|tig|dug|tug)(?:im|um)[a-z]*(?![a-z0-9])"
    # the same typed as spoken in a message: 'yapiyom', 'gidicem', 'alcam'
    rb"|(?<![a-z0-9])[a-z]{2,}(?:iyom|uyom|icem|icam|ucam|ucem|ecem|acam)(?![a-z0-9])"
)
# Nouns whose -im/-um is part of the word, not 'my' or 'I' ('egitim', 'yonetim', 'teslim',
# 'yazilim', 'bolum'): 'egitim var' or 'yonetim' says nothing about the writer.
_NOT_FIRST_PERSON: Final = frozenset(
    b"""
    egitim yonetim uretim tuketim denetim ogretim iletim dagitim satim yardim adim edim tutum
    teslim bilim iklim alim dilim yazilim bolum olum dolum giyim deneyim sayim uyum durum
    kurum konum oturum kullanim donanim kazanim yatirim tanim dagilim katilim kurulum gozetim
    hakim mahkum minimum maksimum premium medium forum album bicim aktarim takvim birim izlenim
    erisim etkilesim bakim surum gorunum donusum sempozyum tasarim birikim yonelim
    tanitim anlatim rihtim astim lityum selim victim muslim addendum postpartum
    kalitim secim gecim ekim cozum olcum kesim yapim onarim gelisim degisim basim yayim sunum
    """.split()
)


def _first_person_tr(sentence: bytes) -> bool:
    for m in _FIRST_PERSON_TR.finditer(sentence):
        word = m.group(1) or m.group(2) or m.group(3) or m.group(4)
        if word is None or word not in _NOT_FIRST_PERSON:
            return True
    return False


# the register of a clinical note: someone is being described
_CLINICAL: Final = re.compile(
    rb"(?<![a-z0-9])(?:[0-9]{1,3} yasinda|yasinda|[0-9]{1,3} yas(?:li)? (?:erkek|kadin)"
    rb"|(?:erkek|kadin) hasta|sikayet\w* (?:ile|yle) basvur\w*|basvurdu|oykus\w*|muayenesinde"
    rb"|kontrole geldi|taburcu edil\w*|yatirildi|servise yatir\w*|tedavisi duzenlendi"
    rb"|y/o|yo|year-old|years old|presented with|admitted|complains of|history of|pt|c/o"
    rb"|hx|dx|rx|on examination|follow-up visit|discharged"
    # the patient given by sex and age, as notes head him: '(M, 34)', '(K, 52)', '(34, F)'
    rb"|\((?:m|f|e|k),? ?[0-9]{1,3}\)|\([0-9]{1,3},? ?(?:m|f|e|k)\))(?![a-z0-9])"
)
_GENERAL: Final = re.compile(
    rb"(?<![a-z0-9])(?:nedir|nelerdir|nasil|neden|nicin|hangi|hakkinda|genel(?:de|olarak)?"
    rb"|ne kadar\w*|kac|kacta|kimler\w*|sablon\w*|template\w*|biri|birisi|birinin|birine"
    rb"|bir (?:calisan|kisi|hasta|isci|personel|ogrenci|aday|musteri|birey|vatandas)\w*"
    rb"|(?:an|any) (?:employee|applicant|individual|worker)|a (?:patient|worker|candidate)"
    rb"|users|customers|visitors|kullanicilar\w*|musterilerimiz\w*|ziyaretci\w*"
    rb"|edil(?:ir|meli|ebilir|mektedir)|alin(?:ir|mali|abilir)"
    # a passive rule ('alinmali', 'islenir'), but not a question about the writer ('basvurabilir
    # miyim': a stem that ends in -ur is no passive)
    rb"|[a-z]{3,}(?:il|ul|in|un)(?:mali|meli|malidir|melidir|ir|ur|ebilir|abilir)"
    rb"(?! m[iu]y[iu][mz])"
    rb"|tarih|tarihi|tarihte|tarihsel\w*|tarihce\w*|istatistik\w*|oran\w*|yuzde|arastirma\w*|makale\w*|haber\w*|mevzuat\w*"
    rb"|kanun\w*|yasa(?:si\w*|lar\w*|l|la\w*|ya|nin|dan|da|daki|disi\w*)?|yonetmelik\w*|politika\w*|egitim\w*|sunum\w*|ozetle|acikla|anlat"
    rb"|what|how|why|which|explain|summari[sz]e|overview|statistics|rate|percent"
    rb"|history(?! of)"
    rb"|research|study|studies|article|news|law|laws|policy|policies|guideline\w*|general"
    rb"|generally|in general|people|patients|employees|someone|anyone|a person|bir kisi"
    rb"|kisiler\w*|insanlar\w*|hastalar\w*|calisanlar\w*|toplum\w*|nufus\w*|ulke\w*"
    rb"|turkiye\w*|dunya\w*|avrupa\w*|global|worldwide|select|insert|create|table|class|def"
    rb"|function|column|field|schema|json|api|regex|test verisi|fake|sample|ornek)(?![a-z0-9])"
)

_WE_OR_ROLE: Final = re.compile(
    rb"[a-z](?:iyoruz|uyoruz|yoruz|dik|duk|tik|tuk|mistik|mustuk|irsem|ursem|arsam|ersem|irsam"
    rb"|ursam|sem|sam|eyim|ayim|iyoz|uyoz|icez|icaz|ucaz|ucez)(?![a-z0-9])"
    rb"|(?<![a-z0-9])(?:aday|basvuran|sanik|supheli|davali|davaci|magdur|danisan|muvekkil"
    rb"|the claimant|the applicant|the candidate|the defendant|the accused)(?![a-z0-9])"
)

# 'return' only before a value ('return "x"', 'return (a'): prose says 'a phased return to
# work'; not 'update' or 'none' ('an update on her recovery', 'none of her colleagues'), which
# a line of code holds with brackets or '=' besides
_CODE_WORDS: Final = re.compile(
    rb"(?<![a-z0-9])(?:string|int|integer|bool|boolean|varchar|nullable|null"
    rb"|return(?= *[\"'(\[{0-9])"
    rb"|import|const|enum|struct|true|false|select|insert|alter|create table"
    rb"|def|class|lambda|async|await|todo|fixme)(?![a-z0-9])"
)


@dataclass(frozen=True, slots=True)
class Cues:
    """What the rules saw in a sentence; the model reads them as features too."""

    first_person_suffix: bool  # the topic word itself ends in a first-person ending
    identifier: bool  # a checksum identifier, phone, e-mail or address in the sentence
    named: bool  # a person's name in the sentence
    possessive: bool  # 'hastam', 'oglumuz', 'calisanimiz'...
    first_person: bool  # I / ben / -iyorum
    third_person: bool  # he / she / patient / Mr
    general: bool  # question words, statistics, law, news, code...
    question: bool
    marker: bool  # a subject word of the older rule list (special.SUBJECT)
    code: bool  # source code, a schema or a query rather than prose
    person_before: bool = False  # a person named in the sentence before
    clinical: bool = False  # the register of a clinical note ('45 yaşında', 'presented with')
    # 'we' as a verb ending, 'if I' ('yapiyoruz', 'kaydettik', 'degistirirsem') or a lone role
    # word as a subject ('Aday ...', 'Sanik ...'): not model features, but someone may be meant
    we_or_role: bool = False
    # only 'our' speaks for the writer ('our clinic', 'our policy'): an organisation, no one
    only_our: bool = False


_WHOSE: Final = re.compile(rb"(?<![a-z])(?:her|his|my|our|their|your)(?: [a-z]+)? $")


# words of _GENERAL that are not general talk in some company: a template of a body part is a
# biometric record ('yuz sablonu', 'parmak izi sablonu'), not a document template; 'Egitim-Sen',
# 'Egitim-Is' are unions, not 'education'; a statute cited by its number ('6356 sayili Kanun')
# in a sentence naming someone is the law applied to that person, not talk about the law
_BODY_BEFORE: Final = re.compile(rb"(?:yuz|izi|iris|retina|ses|damar|goz|avuc|tanima|okuyucu) $")
_UNION_AFTER: Final = re.compile(rb"[ -](?:sen|is|bir sen)(?![a-z0-9])")
_CITED: Final = re.compile(rb"sayili $")


def _not_general(sentence: bytes, m: re.Match[bytes], named: bool) -> bool:
    word = m.group(0)
    if word.startswith(b"sablon"):
        return _BODY_BEFORE.search(sentence, max(0, m.start() - 12), m.start()) is not None
    if word.startswith(b"egitim"):
        return _UNION_AFTER.match(sentence, m.end()) is not None
    if named and word.startswith((b"kanun", b"yasa")):
        return _CITED.search(sentence, max(0, m.start() - 8), m.start()) is not None
    return False


def _general(sentence: bytes, named: bool, term_start: int, term_end: int = -1) -> bool:
    """Whether the sentence reads as general talk. 'hakkinda' ('about') before the topic in a
    sentence that names someone is about that person ('Şüpheli Mert Avcı hakkında adli kontrol
    kararı'), not a request for information ('diyabet hakkında bilgi'). A general word inside
    the topic term itself ('bible study', 'face template', 'ethnic minorities') is the topic,
    not the register of the sentence."""
    for m in _GENERAL.finditer(sentence):
        if term_start <= m.start() and m.end() <= term_end:
            continue
        if named and m.group(0) == b"hakkinda" and m.end() < term_start:
            continue
        if _not_general(sentence, m, named):
            continue
        if m.group(0) == b"history" and _WHOSE.search(sentence, max(0, m.start() - 24), m.start()):
            continue  # 'her (dating) history': someone's history, not history as a subject
        return True
    return False


def cues_of(
    sentence: bytes,
    first_person_suffix: bool,
    identifier: bool,
    named: bool,
    marker: bool,
    before: bytes = b"",
    term_start: int = 0,
    term_end: int = -1,
) -> Cues:
    """`before`: the text just before the sentence, where its subject may have been named
    ('Annem 70 yaşında. Alzheimer başladı.'); `term_start`, `term_end`: the topic word's span
    in the sentence."""
    return Cues(
        person_before=bool(before)
        and (
            _POSSESSIVE_ROLE.search(before) is not None
            or _FIRST_PERSON_EN_NOT_OUR.search(before) is not None
            or _first_person_tr(before)
        ),
        first_person_suffix=first_person_suffix,
        identifier=identifier,
        named=named,
        possessive=_POSSESSIVE_ROLE.search(sentence) is not None,
        first_person=(_FIRST_PERSON_EN.search(sentence) is not None or _first_person_tr(sentence)),
        third_person=_THIRD_PERSON_EN.search(sentence) is not None,
        general=_general(sentence, named, term_start, term_end),
        question=b"?" in sentence,
        marker=marker,
        clinical=_CLINICAL.search(sentence) is not None or _CLINICAL.search(before) is not None,
        we_or_role=_WE_OR_ROLE.search(sentence) is not None,
        only_our=_FIRST_PERSON_EN_NOT_OUR.search(sentence) is None
        and not _first_person_tr(sentence),
        code=_CODE_WORDS.search(sentence) is not None
        or sum(sentence.count(c) for c in b"(){}[];=_<>") >= 3,
    )


def features(
    sentence: bytes, term: tuple[int, int], category: str, suffix: bytes, cues: Cues
) -> list[str]:
    """Feature names of one topic hit: `sentence` is the folded sentence, `term` the span of
    the topic word inside it (masked), `suffix` what follows the lexicon stem in that word."""
    a, b = term
    left = _TOKEN.findall(sentence, 0, a)[-6:]
    right = _TOKEN.findall(sentence, b)[:6]
    toks = [t.decode("ascii") for t in left] + ["<T>"] + [t.decode("ascii") for t in right]
    out = ["bias", "cat:" + category, "suf:" + suffix.decode("ascii", "replace")[:4]]
    for flag, name in (
        (cues.first_person_suffix, "fps"),
        (cues.identifier, "ident"),
        (cues.named, "named"),
        (cues.possessive, "poss"),
        # 'our' alone speaks for an organisation ('our clinic', 'our dress code')
        (cues.first_person and not cues.only_our, "fp"),
        (cues.first_person and cues.only_our, "our"),
        (cues.third_person, "tp"),
        (cues.general, "gen"),
        (cues.question, "q"),
        (cues.marker, "marker"),
        (cues.code, "code"),
        (cues.person_before, "before"),
        (cues.clinical, "clinical"),
    ):
        if flag:
            out.append("R:" + name)
    if cues.general and not (cues.possessive or cues.first_person or cues.named):
        out.append("R:gen_only")
    prev = "<s>"
    for t in toks:
        out.append("w:" + t)
        out.append("b:" + prev + "_" + t)
        if len(t) > 4:
            out.append("p:" + t[:4])
            out.append("s:" + t[-3:])
        prev = t
    out.append("b:" + prev + "_</s>")
    ti = len(left)
    if ti:
        out.append("L:" + toks[ti - 1])
    if ti + 1 < len(toks):
        out.append("N:" + toks[ti + 1])
    return out


def someone(cues: Cues) -> bool:
    """Whether any cue points at a person the sentence could concern: a real one, or a role
    ('he', 'the patient', 'we') a text may also invent."""
    return concrete(cues) or cues.third_person or cues.marker or cues.clinical or cues.we_or_role


def concrete(cues: Cues) -> bool:
    """Whether a cue points at a real person rather than a role a question or a case may
    invent ('a 60-year-old patient', 'a candidate'): a name, an identifier, I or my, a
    possessive kin or role word, such a person in the sentence before."""
    return (
        cues.first_person_suffix
        or cues.identifier
        or cues.named
        or cues.possessive
        or (cues.first_person and not cues.only_our)
        or cues.person_before
    )


def slot(name: str) -> int:
    return zlib.crc32(name.encode("utf-8")) & _DIM_MASK


class SubjectModel:
    """Logistic regression over hashed features."""

    __slots__ = ("bias", "weights")

    def __init__(self, weights: dict[int, float], bias: float) -> None:
        self.weights = weights
        self.bias = bias

    def probability(self, names: Iterable[str]) -> float:
        w = self.weights
        z = self.bias
        # each feature once, as in training: a word twice in the window ('is ... is') must not
        # count twice
        for n in dict.fromkeys(names):
            z += w.get(slot(n), 0.0)
        if z < -30:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    def to_json(self) -> str:
        return json.dumps(
            {
                "dim_bits": DIM_BITS,
                "bias": round(self.bias, 5),
                "weights": {str(k): round(v, 5) for k, v in sorted(self.weights.items())},
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> SubjectModel:
        data = json.loads(text)
        if data.get("dim_bits") != DIM_BITS:
            raise ValueError("subject model was trained with another feature size")
        return cls({int(k): float(v) for k, v in data["weights"].items()}, float(data["bias"]))


def load_model(path: Path = MODEL_PATH) -> SubjectModel | None:
    """The model built by `python -m gateway.sensitivity.train`; None when it was not built
    (the rules then decide alone)."""
    try:
        return SubjectModel.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def rules_probability(cues: Cues) -> float:
    """The rules' own estimate, used when no model is built."""
    if cues.first_person_suffix or cues.identifier:
        return 0.9
    if cues.code:
        return 0.15
    concrete = (
        cues.possessive or cues.first_person or cues.named or cues.third_person or cues.marker
    )
    if concrete:
        return 0.55 if cues.general else 0.8
    return 0.15 if cues.general else 0.4
