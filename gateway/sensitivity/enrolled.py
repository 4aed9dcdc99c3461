"""A biometric template tied to a person's record: `Enrollment failed for user_id 58213: iris
template quality 0.41`, `employee 1187: fingerprint template re-enrolled`.

A template, an embedding or an enrolment exists only to recognise one body, so when the text
also gives whose it is by a person's numbered record (a user, an employee, a customer) the
statement is about that person, however it is worded: a line of code, an error message quoted
in a prompt, a meeting note. The context model reads those as talk about a system (a sentence
frame it was taught on prose), and so may the judge. Talk about templates in general ('face
embeddings must be encrypted at rest', `user_id` without a value) names no one and is left as
it was judged; so is a name near a template ('our vendor Ahmet says the templates are
encrypted'), which may be whose it is or only who speaks of it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from gateway.sensitivity.special import SURE, CategoryHit, ruled
from gateway.sensitivity.structured import PERSON_RECORD

# what a machine keeps of a body to recognise it again, folded
_TEMPLATE: Final = re.compile(
    rb"templat|embedding|enrol|sablon|vektor|vector|faceprint|voiceprint|minutia|imza orne"
)
# how far from the topic word a record's number may stand: a call's arguments, a log line
_REACH: Final = 300


def enrolled(hits: Sequence[CategoryHit], folded: bytes) -> list[CategoryHit]:
    """`hits` with each biometric hit the second stage judged about no one made confident when
    a template stands near it and a person's numbered record says whose."""
    if not any(_unsure_biometric(h) for h in hits):
        return list(hits)
    out = []
    for h in hits:
        if _unsure_biometric(h) and _tied(folded, h):
            h = ruled(h.category, h.start, h.end)
        out.append(h)
    return out


def _unsure_biometric(h: CategoryHit) -> bool:
    return h.category == "biometric" and h.confidence < SURE and h.stage in ("model", "judge")


def _tied(folded: bytes, h: CategoryHit) -> bool:
    lo, hi = max(0, h.start - _REACH), min(len(folded), h.end + _REACH)
    if _TEMPLATE.search(folded, lo, hi) is None:
        return False
    return PERSON_RECORD.search(folded, lo, hi) is not None
