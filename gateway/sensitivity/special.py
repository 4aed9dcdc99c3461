"""KVKK Art. 6 special categories. A term fires only when the text is about an identifiable or
first-person subject: 'diyabetin belirtileri nelerdir?' is talk about a topic (public);
'hastamız Ayşe Yılmaz'a tip 2 diyabet tanısı kondu' and 'I was diagnosed with HIV' are data
about a person (special)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Final, Literal

from gateway.sensitivity.context import Words
from gateway.sensitivity.everyday import SCHEMA_REACH, everyday_use, identifier_part
from gateway.sensitivity.framed import framed_words
from gateway.sensitivity.judge import Allowance, Judge
from gateway.sensitivity.lexicon import Hit, Lexicon, Occurrences
from gateway.sensitivity.lexicon_colloquial import COLLOQUIAL_TERMS
from gateway.sensitivity.lexicon_english import ENGLISH_TERMS
from gateway.sensitivity.lexicon_families import FAMILY_TERMS
from gateway.sensitivity.lexicon_indirect import INDIRECT_TERMS
from gateway.sensitivity.lexicon_names import FIRST_NAMES, SURNAMES, TITLES_AFTER, TITLES_BEFORE
from gateway.sensitivity.lexicon_shown import SHOWN_TERMS
from gateway.sensitivity.lexicon_special import FIRST_PERSON_SUFFIX, SPECIAL_TERMS
from gateway.sensitivity.lexicon_spoken import SPOKEN_TERMS
from gateway.sensitivity.lexicon_tr_families import TR_FAMILY_TERMS
from gateway.sensitivity.morphology import medical_words, softened_terms
from gateway.sensitivity.spelling import diacritic_words, not_a_term, union_names, with_suffix
from gateway.sensitivity.subject import (
    Cues,
    SubjectModel,
    concrete,
    cues_of,
    features,
    rules_probability,
    someone,
)
from gateway.sensitivity.textnorm import fold_term
from gateway.sensitivity.typos import Taken, typo_terms

_FIRST_PERSON: Final = re.compile(FIRST_PERSON_SUFFIX)
# a topic word followed by the thing it qualifies, owned by the writer: 'sendika üyeliğim',
# 'kanser tedavim', 'psikiyatri randevum', 'HIV testim', 'dava dosyamız' say the membership,
# treatment or test is the writer's own, as an ending on the topic word itself would
_OWN_HEAD: Final = re.compile(
    rb" (?:uyelig|tedavi|ilac|rapor|test|tahlil|randevu|kayd|aidat|kart|teshis|ameliyat"
    rb"|seans|doz|kontrol|muayene|sonuc|sicil|dosya)[aeiou]?m"
    rb"(?:[aeiou]|[iu]n|d[ae]n?|l[ae])?(?![a-z])"
)
_NAMES: Final = frozenset(FIRST_NAMES | SURNAMES)

# Markers of a concrete subject, searched in the sentence around a term (folded text).
SUBJECT: Final = Words(
    # Turkish: the writer, relatives, someone in the organisation's care
    rb"ben|benim|bende|bendeki|annem\w*|babam\w*|esim\w*|kizim\w*|oglum\w*|kardesim\w*|ablam\w*"
    rb"|abim\w*|agabeyim\w*|dedem\w*|ninem\w*|anneannem\w*|babaannem\w*|cocugum\w*|amcam\w*"
    rb"|teyzem\w*|halam\w*|dayim\w*|nisanlim\w*|sevgilim\w*|arkadasim\w*|hastamiz\w*"
    rb"|hastaniz\w*|hastaya|hastada|hastanin|muvekkil\w*|calisanimiz\w*|calisanlarimiz\w*"
    rb"|personelimiz\w*|iscimiz\w*|uyemiz\w*|ogrencimiz\w*|adayimiz\w*|basvuran\w*|sanik\w*"
    rb"|sayin|bay|bayan|hanim\w*|bey|beyin|beye"
    rb"|tanisi kon\w*|tani kon\w*|teshis(?:i)? kon\w*|teshis edil\w*|tedavi gor\w*"
    rb"|kullaniyor\w*|kullandim|ameliyat ol\w*|ameliyat edil\w*|yatirildi\w*|kaldirildi\w*"
    rb"|oldum|oluyorum|yasiyorum|cekiyorum|giyiyor\w*|takiyor\w*|uyesiyim|uyesidir|uyesi ol\w*"
    rb"|uye oldu\w*|uyeyim|tutuklandi\w*|mahkum oldu\w*|ceza aldi\w*|hapis yatti\w*|yakalandi\w*"
    rb"|pozitif cikti|dogum yapti|dusuk yapti|dedi ki"
    # English
    rb"|i|i'm|i've|i'd|my|mine|myself|me and|our (?:patient|client|employee|member|son|daughter|"
    rb"staff member|customer|student|tenant|applicant)|he|she|his|him"
    rb"|her (?:husband|wife|son|daughter|doctor|diagnosis)"
    rb"|patient|client|employee|applicant|mr|mrs|diagnosed|tested positive"
    rb"|was (?:arrested|convicted|sentenced|hospitali[sz]ed|admitted|charged)"
    rb"|my (?:wife|husband|son|daughter|mother|father|mom|dad|brother|sister|partner)",
    tail=rb"(?![a-z0-9])",
)
# A sentence ends at ! ? or a line break, and at a full stop unless the stop is inside a number
# or a date ('05.04.2024', '2.5 mg') or ends an abbreviated title ('Dr. Demir', 'Mrs. Patel'):
# cut there, the subject would fall in one sentence and the topic in the next.
_ABBREVIATIONS: Final = (
    b"dr",
    b"mr",
    b"mrs",
    b"ms",
    b"prof",
    b"av",
    b"sn",
    b"doc",
    b"uzm",
    b"vb",
    b"vs",
    b"st",
)
_SENTENCE_END: Final = re.compile(
    rb"[!?\n]|\.(?![0-9])"
    + b"".join(rb"(?<!(?<![a-z])" + a + rb"\.)" for a in _ABBREVIATIONS)
    + rb"|(?<![0-9])\.(?=[0-9])"
)
_WINDOW: Final = 160
# someone's relative or someone in another's care, named by a third-person possessive
# ('komşunun oğlu', 'arkadaşımın annesi', 'müdürün eşi'): a person, though no cue of
# subject.someone points at them
_KIN: Final = re.compile(
    rb"(?<![a-z0-9])(?:ogl|kiz|anne|baba|es|kardes|abla|abi|agabey|dede|nine|teyze|hala|dayi"
    rb"|amca|yegen|torun|cocug|bebeg|komsu|arkadas|nisanli|sevgili|koca|kari|hasta|danisan"
    rb"|muvekkil|calisan|ogrenci|patron|mudur)(?:u|i|si|su|lari|leri)(?![a-z0-9])"
)

# the English writer saying the topic of themselves, the term right after 'I'm (a|the|on)',
# 'I've been on', 'I became': as sure as a Turkish first-person ending ('diyabetim'). A
# clinician's job title is a term too ('I'm a psychiatrist'): a health term ending like a
# profession is left to the model, and so is a term that names a job or a unit ('I'm the
# Ramadan coordinator', 'I'm on the oncology team').
_SELF_PREDICATE: Final = re.compile(
    rb"(?<![a-z0-9])i(?:[^a-z0-9 ]?m| am|[^a-z0-9 ]?ve been| have been| became| just became"
    rb"| got| was)(?: (?:a|an|the|on|in|now|still|also|currently|really|newly|recently"
    rb"|officially)){0,2} $"
)
_PROFESSION: Final = re.compile(rb"(?:ist|ists|ian|ians|nurse|doctor)$")
_ROLE_AFTER: Final = re.compile(
    rb" (?:coordinator|lead|manager|officer|team|department|dept|ward|unit|clinic|service"
    rb"|liaison|organi[sz]er|planner|editor|reporter|writer|researcher|desk|specialist"
    rb"|consultant|nurse|doctor|teacher|lecturer|expert)s?(?![a-z0-9])"
)


def _self_predicate(folded: bytes, hit: Hit[str], category: str) -> bool:
    if category == "health" and _PROFESSION.search(folded, hit.start, hit.end):
        return False
    if _ROLE_AFTER.match(folded, hit.end):
        return False
    return _SELF_PREDICATE.search(folded, max(0, hit.start - 40), hit.start) is not None


Band = Literal["confident", "uncertain"]
# the stage that decided a hit: an admin term that needs no subject, the context rules, the
# context model, or the language-model judge (judge.py) the context model was unsure for
Stage = Literal["lexicon", "rules", "model", "judge", "wording"]


def _owned(folded: bytes, hit: Hit[str]) -> bool:
    """Whether the hit's last word, or the word after it, is a thing the writer owns."""
    last = folded.rfind(b" ", max(0, hit.start - 1), hit.end)
    if last >= 0:
        m = _OWN_HEAD.match(folded, last)
        if m is not None and m.end() == hit.end:
            return True
    return _OWN_HEAD.match(folded, hit.end) is not None


@dataclass(frozen=True, slots=True)
class CategoryHit:
    category: str
    start: int
    end: int
    confidence: float  # the probability that the statement concerns an individual
    band: Band = "confident"
    stage: Stage = "lexicon"
    # whether the sentence names or points at anyone (a name, I, a kin or role word...)
    someone: bool = True
    # whether it points at a real person (a name, I, my kin), not only at a role
    concrete: bool = True


# the confidence of a statement a rule ties to a person (an identifier beside it, 'I have', a
# record's field): above every band's limit, so nothing later weighs it again
SURE: Final = 0.95


def ruled(category: str, start: int, end: int) -> CategoryHit:
    """A category hit a rule decided: about a person, confidently."""
    return CategoryHit(category, start, end, SURE, "confident", "rules", True)


@dataclass(frozen=True, slots=True)
class Entity:
    """A personal-data entity found in the same text, as the second stage sees it."""

    start: int
    end: int
    identifier: bool  # a checksum id, phone, e-mail, address: someone concrete
    named: bool  # a person's name (or a lone first name)


class SpanIndex:
    """Entity spans answering 'does any span overlap (lo, hi)?' with one bisect, so a prompt
    with thousands of terms and identifiers is not checked pair by pair."""

    __slots__ = ("_reach", "_starts")

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [a for a, _ in ordered]
        self._reach = list(accumulate((b for _, b in ordered), max))  # furthest end so far

    def overlaps(self, lo: int, hi: int) -> bool:
        i = bisect_left(self._starts, hi)  # spans [0, i) start before hi
        return i > 0 and self._reach[i - 1] > lo


@dataclass(frozen=True, slots=True)
class People:
    """The personal-data entities of one text, indexed for the second stage."""

    identifiers: SpanIndex  # checksum ids, phones, e-mails, addresses
    names: SpanIndex  # people's names

    @classmethod
    def of(cls, entities: Sequence[Entity], topics: Iterable[Hit[str]] = ()) -> People:
        """`topics`: the text's topic hits; a name inside one is part of the term, not a
        person ('Onur' of 'Onur Yürüyüşü', the pride march)."""
        terms = SpanIndex((h.start, h.end) for h in topics)
        return cls(
            SpanIndex((e.start, e.end) for e in entities if e.identifier),
            SpanIndex(
                (e.start, e.end) for e in entities if e.named and not terms.overlaps(e.start, e.end)
            ),
        )


def _previous_sentence(folded: bytes, start: int) -> int:
    """Where the sentence before the one starting at `start` starts (within the window)."""
    if start <= 1:
        return start
    lo = max(0, start - _WINDOW)
    left = _last_end(folded, lo, start - 1)
    return left + 1 if left >= 0 else lo


def _last_end(folded: bytes, lo: int, hi: int) -> int:
    """Where the last sentence end in folded[lo:hi] is, or -1."""
    last = -1
    for m in _SENTENCE_END.finditer(folded, lo, hi):
        last = m.start()
    return last


def build_lexicon(custom: Iterable[tuple[str, str]] = ()) -> Lexicon[str]:
    terms = [
        (t, cat)
        for table in (
            SPECIAL_TERMS,
            INDIRECT_TERMS,
            COLLOQUIAL_TERMS,
            SPOKEN_TERMS,
            SHOWN_TERMS,
            FAMILY_TERMS,
            ENGLISH_TERMS,
            TR_FAMILY_TERMS,
        )
        for cat, ts in table.items()
        for t in ts
    ]
    # the softened forms of stems ('colyak*' -> 'colyag*'), then misspellings of the
    # commonest terms, none of them a listed word or a name
    terms.extend(softened_terms(terms))
    terms.extend(typo_terms(Taken.of((t for t, _ in terms), _NAMES)))
    # a term listed twice (or an admin term repeating a built-in one) would report twice
    return Lexicon(dict.fromkeys([*terms, *custom]))


def _sentence(folded: bytes, start: int, end: int) -> tuple[int, int]:
    lo = max(0, start - _WINDOW)
    hi = min(len(folded), end + _WINDOW)
    left = _last_end(folded, lo, start)
    m = _SENTENCE_END.search(folded, end, hi)
    return (left + 1 if left >= 0 else lo), (m.end() if m else hi)


class ContextStage:
    """Decides, per topic hit, whether its sentence concerns an individual: rules first
    (a first-person ending on the term, an identifier in the sentence), then the model."""

    def __init__(
        self, model: SubjectModel | None, low: float, high: float, judge: Judge | None = None
    ) -> None:
        self.model = model
        self.low = low
        self.high = high
        self.judge_model = judge

    def examine(
        self, folded: bytes, hit: Hit[str], people: People, category: str
    ) -> tuple[Cues, list[str]]:
        """The rule cues of a hit's sentence and the model's feature names for it."""
        s, e = _sentence(folded, hit.start, hit.end)
        sentence = folded[s:e]
        fps = (
            len(hit.token) > len(hit.stem)
            and _FIRST_PERSON.search(hit.token[len(hit.stem) :]) is not None
        ) or _owned(folded, hit)
        ident = people.identifiers.overlaps(s, e)
        named = people.names.overlaps(s - _WINDOW, e + _WINDOW)
        marker = SUBJECT.search(sentence, 0, len(sentence))
        before = folded[_previous_sentence(folded, s) : s]
        cues = cues_of(sentence, fps, ident, named, marker, before, hit.start - s, hit.end - s)
        suffix = hit.token[len(hit.stem) :]
        return cues, features(sentence, (hit.start - s, hit.end - s), category, suffix, cues)

    def judge(
        self,
        folded: bytes,
        hit: Hit[str],
        people: People,
        category: str,
        text: str = "",
        allowance: Allowance | None = None,
    ) -> CategoryHit:
        """`text` (the text `folded` was folded from) and `allowance`: what the language-model
        judge may read and spend; without them the context model decides alone."""
        cues, names = self.examine(folded, hit, people, category)
        stage: Stage
        if cues.first_person_suffix or cues.identifier or _self_predicate(folded, hit, category):
            p, stage = SURE, "rules"
        elif self.model is None:
            p, stage = rules_probability(cues), "rules"
        else:
            p, stage = self.model.probability(names), "model"
            judge = self.judge_model
            if allowance is not None and text and judge is not None and judge.wants(p):
                s, e = _sentence(folded, hit.start, hit.end)
                q = judge.probability(text[s:e], p, allowance)
                if q is not None:
                    # a question or a line of code or log that points at no one asks about
                    # the topic or counts records ('is it normal to ...?', 'diagnoses=211
                    # status=OK'): the judge, reading the line alone as prose, often takes
                    # it for someone's own case; it may find it less about a person than
                    # the context model did, not more
                    nobodys = (cues.question or cues.code) and not someone(cues)
                    if nobodys and not _KIN.search(folded, s, e):
                        q = min(q, p)
                    p, stage = q, "judge"
        band: Band = "uncertain" if self.low <= p < self.high else "confident"
        return CategoryHit(
            category, hit.start, hit.end, p, band, stage, someone(cues), concrete(cues)
        )


_FIRST_NAMES: Final = frozenset(fold_term(n).encode("ascii", "ignore") for n in FIRST_NAMES)
_SURNAMES: Final = frozenset(fold_term(n).encode("ascii", "ignore") for n in SURNAMES)
_TITLE_AFTER: Final = frozenset(t.encode() for t in TITLES_AFTER) | frozenset(
    b"abi abinin abiye abiyi abiden abla ablanin ablaya usta ustanin ustaya amca amcanin "
    b"amcaya".split()
)
_TITLE_BEFORE: Final = frozenset(t.encode() for t in TITLES_BEFORE)
# words that give the name after them ('adım Ramazan Öztaş', 'ben bayram')
_NAMING: Final = frozenset(b"adim ismim ben named".split())
_AND: Final = frozenset(b"ve and ile".split())


def _surname(words: bytes, hit: Hit[str]) -> bool:
    """A topic word that is a surname right after a first name ('Ahmet Kurt', 'Elif Özbek')
    names a person, not an ethnicity or a party."""
    if hit.token not in _SURNAMES or hit.end - hit.start != len(hit.token):
        return False
    before = words[max(0, hit.start - 24) : hit.start].split()
    return bool(before) and before[-1] in _FIRST_NAMES


def _first_name(words: bytes, hit: Hit[str]) -> bool:
    """A topic word that is a first name right before a surname ('Ramazan Ateş', 'Bayram
    Kaya') names a person, not a feast: as a topic it would also hide the name from the
    second stage, which takes a name inside a topic term for part of the term."""
    if hit.token not in _FIRST_NAMES or hit.end - hit.start != len(hit.token):
        return False
    after = words[hit.end : hit.end + 24].split()
    if after and (after[0] in _SURNAMES or after[0] in _TITLE_AFTER):
        return True  # 'Ramazan Ateş', 'Ramazan Bey', 'bayram abi'
    if len(after) > 1 and after[0] in _AND and after[1] in _FIRST_NAMES:
        return True  # 'ramazan and ferhat, the shop reps'
    before = words[max(0, hit.start - 24) : hit.start].split()[-1:]
    return bool(before) and (before[0] in _TITLE_BEFORE or before[0] in _NAMING)


def topic_hits(
    lexicon: Lexicon[str], words: bytes, found: Occurrences, encoded: bytes = b""
) -> list[Hit[str]]:
    """The first stage, in text order: every lexicon term (a surname is no term); every medical
    word no lexicon lists but its form gives away; every word only its Turkish letters tell
    apart from an everyday one (`encoded`: the text's Windows-1254 bytes)."""
    hits = [
        h
        for h in lexicon.find(words, found)
        if not _surname(words, h)
        and not _first_name(words, h)
        and not (encoded and not_a_term(encoded, h.start, h.token))
        and not everyday_use(words, h)
    ]
    more = [Hit(s, e, tok, tok, "health") for s, e, tok in medical_words(words)]
    if encoded:
        more.extend(
            Hit(s, e, tok, tok[:4], cat) for s, e, tok, cat in diacritic_words(encoded, words)
        )
        more.extend(
            Hit(s, e, tok, tok, cat) for s, e, tok, cat in framed_words(words, encoded, found)
        )
        more.extend(Hit(s, e, tok, tok, "membership") for s, e, tok in union_names(encoded, words))
    if more:
        hits = sorted(hits + more, key=lambda h: h.start)
    if encoded and (b"'" in encoded or b"\x92" in encoded):
        hits = [with_suffix(h, words, encoded) for h in hits]
    return hits


def categories(
    lexicon: Lexicon[str],
    stage: ContextStage,
    folded: bytes,
    words: bytes,
    found: Occurrences,
    entities: Sequence[Entity],
    encoded: bytes = b"",
    text: str = "",
    allowance: Allowance | None = None,
) -> Iterator[CategoryHit]:
    """Every special-category term, judged by the context stage. A tag ending in '!' (an
    admin term that needs no subject) always counts. One judgement per sentence and category:
    a long text full of one topic costs one model call per sentence. `text` and `allowance`:
    see ContextStage.judge."""
    hit: Hit[str]
    hits = topic_hits(lexicon, words, found, encoded)
    if not hits:
        return
    seen: dict[tuple[int, str], CategoryHit] = {}
    people = People.of(entities, hits)
    for hit in hits:
        if hit.tag.endswith("!"):
            yield CategoryHit(hit.tag.rstrip("!"), hit.start, hit.end, SURE)
            continue
        if (
            encoded
            and identifier_part(encoded, hit)
            and not people.names.overlaps(hit.start - SCHEMA_REACH, hit.end + SCHEMA_REACH)
            and not people.identifiers.overlaps(hit.start - SCHEMA_REACH, hit.end + SCHEMA_REACH)
        ):
            continue
        key = (_sentence(folded, hit.start, hit.end)[0], hit.tag)
        prior = seen.get(key)
        if prior is not None and (prior.confidence >= SURE or not hit.token[len(hit.stem) :]):
            continue
        judged = stage.judge(folded, hit, people, hit.tag, text, allowance)
        if prior is None or judged.confidence > prior.confidence:
            seen[key] = judged
            yield judged
