"""Topic words that are everyday words everywhere except in one frame: a person, a copula, the
word. 'She is Roma', 'I'm bi', 'my mother is blind', 'he's Black' say something about someone;
'Roma won', 'bi-weekly', 'a blind spot', 'my car is black' do not. Listing such a word in the
lexicon would make every text that uses it in its everyday sense ask the second stage, so it
is found here only when it follows '<person> is/am/are/was' (the person: a pronoun, a relative
or role word, or a capitalised name).

Also conditions named by a short code that is only medical after a verb of having: 'she has
type 1', 'diagnosed with type 2' ('type 1 error' is statistics); a spouse of the same gender
as the person's pronoun or first name: 'his husband', 'her wife', "Sofia's wife" (a same-sex
marriage); a state only a person
has, after a possessive: 'her breakdown', 'his condition' ('a cost breakdown' is none).

Only texts holding one of the words pay for more than a few substring searches."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from gateway.sensitivity.gendered_names import FEMALE, MALE
from gateway.sensitivity.lexicon import Occurrences
from gateway.sensitivity.lexicon_names import FIRST_NAMES

# (the word as it stands in the word view, its category)
_AFTER_COPULA: Final = (
    (b"roma", "ethnicity"),
    (b"black", "ethnicity"),
    (b"asian", "ethnicity"),
    (b"african", "ethnicity"),
    (b"white", "ethnicity"),
    (b"brown", "ethnicity"),
    (b"mixed", "ethnicity"),
    (b"straight", "sexual_life"),
    (b"bi", "sexual_life"),
    (b"ace", "sexual_life"),
    (b"blind", "health"),
)
# a person as the subject of the copula; 'i m', 'she s', 'they re' are "I'm", "she's",
# "they're" in the word view
_PERSON: Final = (
    rb"i|he|she|they|we|you|who|mother|father|mum|mom|dad|wife|husband|son|daughter|brother"
    rb"|sister|partner|boyfriend|girlfriend|friend|colleague|coworker|neighbour|neighbor"
    rb"|tenant|client|patient|employee|applicant|candidate|manager|boss|uncle|aunt|cousin"
    rb"|grandmother|grandfather|grandma|grandpa|nan|niece|nephew|family|parents|kid|child"
    rb"|fiance|fiancee|flatmate|roommate|student|intern|worker|teacher|driver|member"
)
_COPULA: Final = rb"is|am|are|was|were|m|s|re|be|been|being|identifies as|identify as"
_ADVERB: Final = (
    rb"also|actually|openly|half|partially|legally|registered|completely|totally|now|still"
    rb"|both|all|fully|profoundly|colour|color"
)
# the words before a framed word, ending at it: [name or person] copula [adverbs]; a comma
# may close an apposition before the copula ('Mr. Dragan Petrovic, is ...'), which the word
# view leaves as more spaces (a letter outside Windows-1254 is one too)
_FRAME: Final = re.compile(
    rb"(?:^| )(?P<who>[a-z]+) {1,3}(?:" + _COPULA + rb")(?: (?:" + _ADVERB + rb")){0,2} $"
)
# the same frame negated: 'candidates who aren't Roma', "I'm not straight" still say which
# people someone belongs to or is kept from; 'not blind to', 'not mixed up in', 'not ace at'
# are idioms, so only the words whose negation still names a people or an orientation
_NEGATED: Final = re.compile(
    rb"(?:^| )(?P<who>[a-z]+) {1,3}(?:(?:" + _COPULA + rb") not|aren t|isn t|wasn t|weren t)"
    rb"(?: (?:" + _ADVERB + rb")){0,2} $"
)
_NEGATABLE: Final = frozenset({b"roma", b"black", b"asian", b"african", b"straight", b"bi"})
# 'straight with us', 'straight to the point', 'straight up': honesty or directness, not an
# orientation
_STRAIGHT_IDIOM: Final = re.compile(rb" (?:with|to|up|forward|ahead|away|back|out|answer)\b")
_PERSON_WORD: Final = re.compile(rb"(?:" + _PERSON + rb")(?:s)?")

_HAVING: Final = re.compile(
    rb"(?:^| )(?:has|have|had|having|with|got|of|diagnosed with|diagnosis of|his|her|my)"
    rb" (?:type|tip) $"
)
_TYPE_CODES: Final = frozenset({b"1", b"2", b"one", b"two", b"i", b"ii"})
# (word, the possessives that make it a topic, category): a spouse of the same gender as
# the possessive (a same-sex couple); a state only a person has ('her breakdown', 'his
# condition'), which is an everyday word after 'the' or 'a' ('a cost breakdown')
_HERS: Final = (b"his", b"her", b"my", b"their", b"your")
# a man's or a woman's own spouse: 'his husband', and "my son's husband", "her sister's wife"
# (in the word view "son s husband")
_HIS: Final = (b"his", b"son", b"brother", b"father", b"dad", b"uncle", b"nephew", b"grandson")
_HER: Final = (b"her", b"daughter", b"sister", b"mother", b"mum", b"mom", b"aunt", b"niece")
# ... and a named man's or woman's: "Tom's husband", "Sofia's wife", "Mehmet'in kocası",
# "Ayşe'nin karısı"; a boyfriend only of a man ('her girlfriend' is as often a friend)
_HIS_NAMED: Final = (*_HIS, *MALE)
_HER_NAMED: Final = (*_HER, *FEMALE)
_POSSESSED: Final = (
    (b"husband", _HIS_NAMED, "sexual_life"),
    (b"husbands", _HIS_NAMED, "sexual_life"),
    (b"kocasi", _HIS_NAMED, "sexual_life"),
    (b"wife", _HER_NAMED, "sexual_life"),
    (b"wives", _HER_NAMED, "sexual_life"),
    (b"karisi", _HER_NAMED, "sexual_life"),
    (b"boyfriend", _HIS_NAMED, "sexual_life"),
    (b"breakdown", _HERS, "health"),
    (b"condition", _HERS, "health"),
    (b"injury", _HERS, "health"),
    (b"injuries", _HERS, "health"),
    (b"recovery", _HERS, "health"),
    (b"transition", (b"his", b"her", b"their"), "sexual_life"),
)
# the possessive ending between an owner and the spouse: English "'s", Turkish "'in", "'nin"
_GENITIVE: Final = frozenset((b"s", b"in", b"nin", b"un", b"nun"))
_LOOK_BACK = 64
# the tokens the scanner must report for this module
FRAMED_TOKENS: Final = (
    frozenset(w for w, _ in _AFTER_COPULA) | {w for w, _, _ in _POSSESSED} | {b"type", b"tip"}
)
_FIRST_NAMES: Final = frozenset(n.encode("ascii") for n in FIRST_NAMES if n.isascii())


def _capitalised(encoded: bytes, start: int) -> bool:
    """Whether the word at `start` of the original text starts with a capital letter
    (Windows-1254 bytes: ASCII capitals and the Turkish ones)."""
    c = encoded[start]
    return 65 <= c <= 90 or c in b"\xc7\xd0\xd6\xdc\xde\xdd"


def framed_words(
    words: bytes, encoded: bytes, found: Occurrences
) -> Iterator[tuple[int, int, bytes, str]]:
    """(start, end, token, category) of every framed topic word, in no particular order.
    `words` is the word view, `encoded` the text's Windows-1254 bytes (the same offsets),
    `found` the token scanner's occurrences (built with FRAMED_TOKENS among its keys)."""
    for word, category in _AFTER_COPULA:
        for start in found.get(word, ()):
            end = start + len(word)
            # 'bi-weekly', 'black-box': a hyphen makes the word part of another
            if encoded[end : end + 1] == b"-":
                continue
            m = _FRAME.search(words, max(0, start - _LOOK_BACK), start)
            if word == b"straight" and _STRAIGHT_IDIOM.match(words, end):
                continue
            if m is None and word in _NEGATABLE:
                m = _NEGATED.search(words, max(0, start - _LOOK_BACK), start)
            if m is not None and _subject(m, encoded):
                yield start, end, word, category
    for word, owners, topic in _POSSESSED:
        for start in found.get(word, ()):
            owner = _word_before(words, start)
            at = start - len(owner) - 1
            if owner in _GENITIVE and owners is not _HERS:
                owner = _word_before(words, at)
                at -= len(owner) + 1
            if owner in owners:
                yield at, start + len(word), owner + b" " + word, topic
    for key in (b"type", b"tip"):
        for start in found.get(key, ()):
            after = start + len(key) + 1
            stop = words.find(b" ", after)
            stop = len(words) if stop < 0 else stop
            if words[after:stop] in _TYPE_CODES and _HAVING.search(
                words, max(0, start - _LOOK_BACK), after
            ):
                yield start, stop, words[start:stop], "health"


def _word_before(words: bytes, start: int) -> bytes:
    """The word just before `start` in the word view (empty at the start)."""
    if start < 2:
        return b""
    at = words.rfind(b" ", 0, start - 1)
    return words[at + 1 : start - 1]


def _subject(m: re.Match[bytes], encoded: bytes) -> bool:
    who = m.group("who")
    if _PERSON_WORD.fullmatch(who) is not None or who in _FIRST_NAMES:
        return True
    # another name: capitalised in the original text, not the first word of a sentence
    at = m.start("who")
    return (
        at > 1
        and _capitalised(encoded, at)
        and encoded[at - 2 : at - 1] not in (b".", b"!", b"?", b"\n", b":")
    )
