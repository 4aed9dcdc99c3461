"""Special-category terms in everyday English (and the Turkish of the same registers) as
people write about themselves and those close to them: a relationship ('my girlfriend and I',
'erkek arkadaşımla'), a disability by what it needs ('guide dog', 'crutches'), a condition by
its drug or its appointment ('statins', 'hospital appointment', 'evde bakım'), a sentence by the
time served ('served three years'), a body read by a machine ('scanned my face', 'liveness').
Folded form like lexicon_special; each phrase starts with its most distinctive word. As every
topic term, none decides anything: it only makes the second stage ask whom its sentence
concerns."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

_HEALTH = (
    # disability and what it takes
    "partially sighted",
    "sight impaired",
    "visually impaired",
    "legally blind",
    "registered blind",
    "colour blind",
    "color blind",
    "colourblind*",
    "colorblind*",
    "blind in one eye",
    "guide dog*",
    "hearing impaired",
    "crutches",
    "walking stick",
    "mobility scooter*",
    "stairlift*",
    "special needs",
    "ehcp",
    "learning disabilit*",
    "learning difficult*",
    "neurodivergen*",
    "neurodiverse",
    "stutter*",
    "stammer*",
    "speech therap*",
    "occupational therap*",
    # appointments, procedures and recovery
    "doctor's appointment*",
    "doctors appointment*",
    "hospital appointment*",
    "clinic appointment*",
    "gp",
    "stitches",
    "burnt out",
    "burned out",
    "sprain*",
    "radiation treatment*",
    "gastric band*",
    "gastric bypass",
    "gastric sleeve",
    "lump in",
    "maternity leave",
    "miscarried",
    "stillborn",
    "egg freezing",
    "sperm donor*",
    "surrogacy",
    "contracepti*",
    "hypo",
    "hypos",
    "flu",
    "tested positive",
    "unvaccinated",
    "vaccination status",
    "vaccination record*",
    "anti depressant*",
    "anti-depressant*",
    "binge drinking",
    "drinking problem*",
    "alcohol problem*",
    "drug problem*",
    "hypochondria*",
    # drugs that say what they treat
    "statin",
    "statins",
    "painkiller*",
    "morphine*",
    "codeine*",
    "gallbladder*",
    "tonsil*",
    "surgeon",
    "surgeons",
    "alcohol dependen*",
    "drug dependen*",
    "substance abuse",
    "substance use",
    "residential programme*",
    "residential treatment",
    "eutiroks*",
    "evde bakim*",
    "evde saglik*",
    "alcida",
    "alciya al*",
    "kirik cik*",
    "bunama*",
    "bunadi*",
    "bunak*",
    "nikotin band*",
)

_SEXUAL = (
    "boyfriend*",
    "girlfriend*",
    "partner and i",
    "partner and me",
    "come out to",
    "come out as",
    "coming out to",
    "condom",
    "condoms",
    "open marriage",
    "explicit message*",
    "explicit photo*",
    "explicit image*",
    "nudes",
    "sexting",
    "romantic relationship*",
    "sevgiliy*",
    "sevgilin*",
    "erkek arkadasim*",
    "erkek arkadasi*",
    "erkek arkadasin*",
    "kiz arkadasim*",
    "kiz arkadasi*",
    "kadinla birlikte yas*",
    "erkekle birlikte yas*",
    "kadinla iliski*",
    "erkekle iliski*",
    "zina*",
)

_CRIMINAL = (
    "served * years",
    "served * year",
    "served a sentence",
    "served a * sentence",
    "spent * years in",
    "ankle tag*",
)

_BIOMETRIC = (
    "scanned my face",
    "scan my face",
    "scans my face",
    "scanned her face",
    "scanned his face",
    "scanned my fingerprint*",
    "scanned my eye*",
    "scanned my iris*",
    "liveness*",
    "faceauth*",
    "face auth*",
    "face verif*",
    "face match*",
    "palmvein*",
    "dinamik imza*",
    "voice sample*",
)

_RELIGION = (
    "torah",
    "orthodox",
    "methodist*",
    "anglican*",
    "pentecostal*",
    "presbyterian*",
    "lutheran*",
    "jainism",
    "jain principles",
    "jain im",
    "jainim",
    "practising jain",
    "adventist*",
    "seventh day",
)

_MEMBERSHIP = (
    "neu",
    "unite rep*",
    "writers guild",
    "actors guild",
    "unite the union",
)

_APPEARANCE = (
    "kufi*",
    "taqiyah",
    "basini kapat*",
    "basimi kapat*",
    "sacini kapat*",
    "sacimi kapat*",
)

_PHILOSOPHY = (
    "siddetsizlik*",
    "tolstoycu*",
    "nonviolence",
    "non violence",
    "hayvan deney*",
    "animal testing",
    "etik olarak",
)

SPOKEN_TERMS: Final = MappingProxyType(
    {
        "health": _HEALTH,
        "sexual_life": _SEXUAL,
        "criminal_record": _CRIMINAL,
        "biometric": _BIOMETRIC,
        "religion": _RELIGION,
        "membership": _MEMBERSHIP,
        "appearance": _APPEARANCE,
        "philosophical_belief": _PHILOSOPHY,
    }
)
