"""Whether a lone first name the detectors found below the personal threshold counts as a
person for the second stage. A listed first name that is also an everyday word or a holiday
('Bayram', 'Can', 'Umut', 'Deniz', 'Hope') is capitalised at the start of every sentence that
begins with it ('Bayram tatilinde...', 'Can you...'): it names someone only when the text uses it
as a name, not merely because it stands within reach of a topic."""

from __future__ import annotations

import re
from typing import Final

from gateway.sensitivity.lexicon_names import TITLES_AFTER, TITLES_BEFORE
from gateway.sensitivity.textnorm import fold

# listed first names that are also everyday words, holidays or English auxiliaries
_EVERYDAY: Final = frozenset(
    """
    bayram can umut deniz baris onur emir efe mert eren ozgur yavuz yigit zafer dogan sultan
    derya sevgi pinar dilek nur gul kader melek mine kiraz lale oya yildiz hilal damla ipek
    saadet sena ece asli kaan selim veli sefa yasar kemal huzur bahar ilkbahar kurban ramazan
    mark will bill frank jack grace rose may june amber faith hope joy art ray gary dean
    """.split()
)
# verbs whose subject is a person: 'Umut dedi ki', 'Deniz aradı', 'Can said'
_PEOPLE_VERBS: Final = frozenset(
    """
    dedi diyor soyledi soyluyor sordu anlatti aradi yazdi istedi dusunuyor biliyor gordu
    gorustu konustu gelmedi katildi basvurdu
    said says told asked called wrote thinks wants mentioned replied
    """.split()
)
# verbs after a first name typed in lower case that make it the subject, a person ('bilal
# keeps kosher', 'sarah is 26 weeks along'); copulas too, as a lower-case everyday word before
# them must still pass `used_as_name`
SUBJECT_VERBS: Final = _PEOPLE_VERBS | frozenset(
    """
    is was has had keeps kept goes went needs wants takes took gets got joined lives works
    prays fasts attends started starts
    """.split()
)
_APOSTROPHES: Final = "'’‘´"
_NEXT: Final = re.compile(r"[ \t]{1,3}([^\W\d_]+)")
_PREVIOUS: Final = re.compile(r"([^\W\d_]+)[ \t]{1,3}$")
# what may stand before a word that starts a sentence, a line or a heading
_OPENERS: Final = frozenset(".!?:;\n\r\"'“‘(-–—•*#>|")


def used_as_name(text: str, start: int, end: int) -> bool:
    """`text[start:end]`: a lone first name. False for an everyday word that the text does not
    use as a name (no apostrophe and case ending, title, verb of people, or mid-sentence
    capital)."""
    if fold(text[start:end]).lower() not in _EVERYDAY:
        return True
    if text[end : end + 1] in _APOSTROPHES and text[end + 1 : end + 2].isalpha():
        return True
    m = _NEXT.match(text, end)
    if m is not None:
        after = fold(m.group(1)).lower()
        if after in _PEOPLE_VERBS or after in TITLES_AFTER:
            return True
    m = _PREVIOUS.search(text, max(0, start - 24), start)
    if m is not None and fold(m.group(1)).lower() in TITLES_BEFORE:
        return True
    before = text[max(0, start - 8) : start].rstrip(" \t")
    return bool(before) and before[-1] not in _OPENERS and text[start].isupper()
