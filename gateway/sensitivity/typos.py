"""The commonest topic words as they come out of hurried typing: one letter dropped, two
neighbours swapped, a letter doubled, or a sound spelled the other language's way ('depresion',
'diabtes', 'kanserr', 'shizophrenia', 'anksiete'). Generated once per process from a short
list of stems, so the gain reaches the misspellings of every text, not only those someone has
seen; each variant is a lexicon stem (any suffix follows it), like the word it stands for.

Only stems of seven letters or more are varied, the first two letters are never touched, and a
variant that is itself a listed word, a name or an everyday word is dropped: at that length a
single slip rarely lands on another word. As every topic term, a variant decides nothing on its
own: it only makes the second stage ask whom its sentence concerns."""

from __future__ import annotations

import functools
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

# (category, stems): words people write most often about someone's health, belief, origin,
# politics, record and life, folded (lower case, no Turkish letters)
_STEMS: Final = (
    (
        "health",
        "depression depressed anxiety diabetes diabetic cancer schizophrenia bipolar epilepsy "
        "epileptic pregnant pregnancy surgery chemotherapy medication prescription alzheimer "
        "dementia autism autistic asthma migraine hypertension disability disabled diagnosed "
        "diagnosis therapist therapy psychiatrist psychiatric psychologist antidepressant "
        "miscarriage infertility dialysis leukemia leukaemia lymphoma arthritis parkinson "
        "sclerosis tumour tumor seizure insulin cholesterol thyroid hospital hospitalised "
        "hospitalized addiction alcoholic overdose suicidal schizophrenic anorexia bulimia "
        "depresyon anksiyete diyabet kanser sizofreni epilepsi hamile hamilelik ameliyat "
        "kemoterapi tedavi teshis hastalik hastaligi psikiyatri psikiyatrist psikolog "
        "alzheimer otizm migren hipertansiyon engelli antidepresan diyaliz losemi romatizma "
        "parkinson tansiyon kolesterol insulin bagimlilik bagimli intihar rahatsizlik "
        "psychosis dyslexia disorder abortion sobriety radyoterapi terapi",
    ),
    (
        "religion",
        "muslim christian catholic protestant jewish buddhist atheist ramadan mosque church "
        "synagogue religion religious musluman hristiyan yahudi ateist ramazan namaz oruc "
        "kilise cemevi tarikat mezhep kosher",
    ),
    ("ethnicity", "kurdish armenian ethnicity ethnic kokenli asilli ermeni cingene"),
    (
        "political_opinion",
        "conservative republican democrat socialist communist election protest milliyetci "
        "muhalif protesto activist labour komunist sosyalist ulkucu muhalefet",
    ),
    ("membership", "sendika sendikali union member dernek"),
    (
        "sexual_life",
        "homosexual bisexual lesbian transgender escinsel biseksuel lezbiyen",
    ),
    (
        "criminal_record",
        "arrested convicted conviction prison probation criminal sentenced tutuklandi "
        "tutuklu cezaevi hapiste sabika mahkum gozalti parole burglary assault hukumlu "
        "dolandiricilik hirsizlik uyusturucu",
    ),
    ("biometric", "fingerprint biometric biyometrik"),
    ("genetic", "genetic genetik mutation mutasyon hereditary kalitsal"),
    ("appearance", "headscarf basortusu basortulu tesettur turban tattoo"),
    ("philosophical_belief", "vegetarian vejetaryen"),
)
_MIN_LEN = 6
# variants that are (or begin) words of their own in an English or Turkish dictionary (every
# variant was checked against both when this list was written)
_WORDS: Final = frozenset(
    """
    addition mediation inulin canker overdoes christina christin communit socialit protestat
    mutatin bulima activit terrapi hucumlu aslili bagili bagililik cignene
    esinsel hamillik hamlelik hasaligi hasalik hasatligi hasatlik hataligi hatalik tutkulu
    tutulu
    """.split()
)
_KEEP = 2  # letters at the start that a variant never changes
# letters written for the same sound in Turkish and English spelling, both ways
_SOUNDS: Final = (
    ("ph", "f"),
    ("sch", "sh"),
    ("sch", "sk"),
    ("c", "k"),
    ("ks", "x"),
    ("y", "i"),
    ("ie", "i"),
    ("ea", "e"),
    ("ae", "e"),
    ("ti", "si"),
    ("ss", "s"),
    ("zh", "j"),
)


def _edits(stem: str) -> Iterator[str]:
    n = len(stem)
    for i in range(_KEEP, n):
        if n > _MIN_LEN and i < n - 1:  # a short stem less a letter is too short a word;
            yield stem[:i] + stem[i + 1 :]  # the last letter dropped is only a prefix of it
        yield stem[:i] + stem[i] + stem[i:]  # a letter doubled
    for i in range(_KEEP, n - 1):
        if stem[i] != stem[i + 1]:
            yield stem[:i] + stem[i + 1] + stem[i] + stem[i + 2 :]  # neighbours swapped
    for a, b in _SOUNDS:
        for x, y in ((a, b), (b, a)):
            i = stem.find(x, _KEEP)
            while i >= 0:
                yield stem[:i] + y + stem[i + len(x) :]
                i = stem.find(x, i + 1)


@dataclass(frozen=True, slots=True)
class Taken:
    """What a variant must not collide with: words that already mean something (listed
    words, names), sorted so the words a variant begins can be found by bisection, and the
    listed stems (a variant that starts with one is found already)."""

    words: tuple[str, ...]
    stems: frozenset[str]

    @classmethod
    def of(cls, terms: Iterable[str], names: Iterable[str] = ()) -> Taken:
        """From lexicon terms as listed ('diyabet*', 'hiv'; phrases are skipped: a variant is
        one word) and names."""
        single = [t for t in terms if " " not in t and "-" not in t]
        words = {t.rstrip("*") for t in single} | set(names)
        return cls(tuple(sorted(words)), frozenset(t[:-1] for t in single if t.endswith("*")))

    def collides(self, v: str) -> bool:
        if any(v[:n] in self.stems for n in range(2, len(v) + 1)):
            return True
        i = bisect_left(self.words, v)
        return i < len(self.words) and self.words[i].startswith(v)


def variants(stem: str, taken: Taken) -> Iterator[str]:
    """The misspellings of one stem that keep at least six letters and collide with nothing
    `taken`: no listed word or name, nor the start of one (a second hit on a word would only
    read it twice), nor a word a listed stem already finds."""
    if len(stem) < _MIN_LEN:
        return
    seen = {stem}
    for v in _edits(stem):
        if v in seen or len(v) < _MIN_LEN or v in _WORDS:
            continue
        seen.add(v)
        if not taken.collides(v):
            yield v


@functools.cache
def typo_terms(taken: Taken) -> tuple[tuple[str, str], ...]:
    """(term, category) for every misspelling of every stem above, each ending in '*' (any
    suffix)."""
    out: dict[str, str] = {}
    for category, stems in _STEMS:
        for stem in stems.split():
            for v in variants(stem, taken):
                out.setdefault(v, category)
    return tuple((v + "*", c) for v, c in out.items())
