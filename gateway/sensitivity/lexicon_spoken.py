"""Special-category terms in everyday English as people write about themselves and those
close to them: a relationship ('my girlfriend and I'), a disability by what it needs ('guide
dog', 'crutches'), a condition by its drug or its appointment ('statins', 'hospital
appointment'), a sentence by the time served ('served three years'), a body read by a machine
('scanned my face'). Folded form like lexicon_special; each phrase starts with its most
distinctive word. As every topic term, none decides anything: it only makes the second stage
ask whom its sentence concerns."""

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
    "back pain",
    "sprain*",
    "radiation treatment*",
    "gastric band*",
    "gastric bypass",
    "gastric sleeve",
    "found a lump",
    "lump in",
    "maternity leave",
    "miscarried",
    "stillborn",
    "egg freezing",
    "sperm donor*",
    "surrogacy",
    "contracepti*",
    "12 step*",
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
)

_SEXUAL = (
    "boyfriend*",
    "girlfriend*",
    "partner and i",
    "partner and me",
    "come out to",
    "come out as",
    "coming out to",
    "condom*",
)

_CRIMINAL = (
    "served * years",
    "served * year",
    "served a sentence",
    "served a * sentence",
    "did time",
    "spent * years in",
    "on remand",
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
)

_RELIGION = (
    "torah",
    "orthodox",
    "methodist*",
    "anglican*",
    "pentecostal*",
    "presbyterian*",
    "lutheran*",
)

_MEMBERSHIP = ("neu",)

SPOKEN_TERMS: Final = MappingProxyType(
    {
        "health": _HEALTH,
        "sexual_life": _SEXUAL,
        "criminal_record": _CRIMINAL,
        "biometric": _BIOMETRIC,
        "religion": _RELIGION,
        "membership": _MEMBERSHIP,
    }
)
