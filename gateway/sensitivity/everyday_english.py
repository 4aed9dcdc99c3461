"""English topic words in uses a lexicon phrase cannot rule out, which say nothing about
anyone: 'in her habit of checking', 'served 5 years as CEO', a 'probation period' at work,
'with conviction', the 'European Union', 'gradient descent', faith 'in' a vendor, charges on an
account, a certificate's thumbprint or a key's fingerprint, a genetic algorithm, the hospitality
trade, 'Irish' (iris + h), a 'depressing' thing. Checked on the folded word view around the hit
(lexicon_english lists the terms)."""

from __future__ import annotations

from typing import Final

from gateway.sensitivity.lexicon import Hit

# a word after 'in her habit' that makes it a routine ('in her habit of checking twice')
_ROUTINE: Final = frozenset((b"of", b"to"))
# time served in a post or a force, not a sentence ('served 5 years as CEO', 'on the board')
_SERVICE_NEXT: Final = frozenset(b"as on with under alongside our".split())
_SERVICE: Final = frozenset(
    b"army navy military forces marines raf board council committee customers clients "
    b"company firm parliament congress senate church".split()
)
# a trial period at work, not a court's order
_TRIAL_PERIOD: Final = frozenset(
    b"period periods review reviews meeting meetings form ends ended extended".split()
)
# words of a new hire's trial near 'probation' ('quick feedback before his probation ends,
# I'd confirm him'), and words of a court's order, which keep it a sentence
_HIRING: Final = (
    b"period",
    b"review",
    b"confirm",
    b"contract",
    b"employ",
    b"hire",
    b"onboard",
    b"starter",
    b"deneme",
    b"standup",
    b"manager",
    b"perform",
    b"feedback",
)
_SENTENCE: Final = (
    b"court",
    b"offen",
    b"officer",
    b"service",
    b"parole",
    b"convict",
    b"sentence",
    b"breach",
    b"prison",
    b"crime",
    b"criminal",
    b"charge",
    b"arrest",
    b"police",
    b"licence condition",
)
# conviction as belief: 'with conviction', 'a strong conviction that', a team's 'our
# conviction is'
_BELIEF: Final = frozenset(
    b"with strong deep deeply firm sincere moral absolute quiet full total utter great our".split()
)
# a union of states and a descent of numbers ('member of the European Union', 'rate of
# gradient descent'): the word the '*' of the phrase stood for
_NOT_PEOPLE: Final = frozenset(
    b"european african soviet eurasian postal customs monetary currency credit gradient "
    b"steepest rapid steep final initial controlled".split()
)
# what has a fingerprint that is no one's finger: a key, a host, a browser, a device, a file
_MACHINE_PRINTS: Final = (
    b"key host ssh browser device canvas tls ssl gpg pgp certificate cert file audio digital "
    b"server sha256 md5 tcp ja3 object commit lfs"
)
# (first token of a hit, words just before it, words just after it) that make a topic word
# an everyday one: a union of states or a credit union, a descent of numbers or of a plane,
# faith in a vendor or good faith, charges on an account, a certificate's thumbprint,
# sleeping with the window open, time tracking (a switched-off 'disabled' is everyday.py's)
_WORD_TRAPS: Final = (
    (b"union", b"european african soviet postal customs monetary currency credit", b""),
    (
        b"descent",
        b"gradient steepest coordinate mirror rapid steep final initial slow "
        b"controlled its the our a their",
        b"",
    ),
    (b"faith", b"good bad blind", b"in"),
    (b"charges", b"", b"account accounts card invoice balance fee fees"),
    (b"thumbprint", b"certificate cert sha1 sha256 ssl tls x509 key", b"of for"),
    (b"sleeping", b"", b"window windows light lights door tv fan radio heating earplugs mask"),
    (b"did", b"", b"tracking sheet sheets series zone stamp stamps entries"),
    # a key's, a browser's or a file's fingerprint; a search method and a test technique
    (b"fingerprint", _MACHINE_PRINTS, b""),
    (b"fingerprints", _MACHINE_PRINTS, b"all"),  # 'his fingerprints all over this album'
    (b"fingerprinting", _MACHINE_PRINTS, b""),
    (b"genetic", b"", b"algorithm algorithms programming operator operators"),
    # a fence, a squash, a style guide, a software fault, a nuisance, a start-up's launch,
    # being fed up: no picket line, turban, scripture, people, illness or orientation
    (b"picket", b"white", b"fence fences"),
    (b"turban", b"", b"squash squashes"),
    (b"bible", b"kitchen style design brand coding baking cooking marketing", b""),
    (b"race", b"", b"condition conditions"),
    (b"headache", b"total real big such massive", b""),
    (b"sick", b"", b"of"),
    (b"coming", b"", b"of"),
    # a cautious figure or approach, not a party ('a conservative estimate')
    (b"conservative", b"", b"estimate estimates guess figure figures approach assumption side"),
    (b"mutation", b"", b"rate testing operator operators score"),
)
_TRAPS: Final = {
    token: (frozenset(before.split()), frozenset(after.split()))
    for token, before, after in _WORD_TRAPS
}


def _next_words(words: bytes, end: int, n: int = 3) -> list[bytes]:
    return words[end : end + 40].split()[:n]


# whose 'DNA' is a character, not a genome: 'in our DNA', "the company's DNA", 'brand DNA'
_FIRMS: Final = frozenset(
    b"our its company firm brand team corporate organisation organization".split()
)


def _firm_character(words: bytes, start: int) -> bool:
    before = words[max(0, start - 30) : start].split()[-2:]
    if before[-1:] == [b"s"]:
        return len(before) == 2 and before[0] in _FIRMS and before[0] != b"our"
    return bool(before) and before[-1] in _FIRMS


def _trial_period(words: bytes, hit: Hit[str], after: list[bytes]) -> bool:
    """A new hire's probation: 'probationary', 'probation period/review/ends', or a hiring
    word near it; never with a court, an offence or the probation service near."""
    near = words[max(0, hit.start - 120) : hit.end + 120]
    if any(m in near for m in _SENTENCE):
        return False
    if hit.token.startswith(b"probationary") or (bool(after) and after[0] in _TRIAL_PERIOD):
        return True
    return any(m in near for m in _HIRING)


def everyday_english(words: bytes, hit: Hit[str]) -> bool:
    """Whether an English topic hit is one of the everyday uses its phrase cannot rule out."""
    token = hit.token
    after = _next_words(words, hit.end)
    if token.startswith(b"hospitalit") or token == b"religiously":
        return True  # the hotel trade, not a ward; watching a series 'religiously'
    if token == b"dna":
        return _firm_character(words, hit.start)
    # a Turkish case ending on the English word ('sha256 fingerprintini')
    trap = _TRAPS.get(token)
    if trap is None and token.startswith(b"fingerprint"):
        trap = _TRAPS[b"fingerprint"]
    if trap is not None:
        before = words[max(0, hit.start - 24) : hit.start].split()[-1:]
        if (before and before[0] in trap[0]) or any(w in trap[1] for w in after):
            return True
    if hit.tag == "appearance" and words[hit.start : hit.end].endswith(b"habit"):
        return bool(after) and after[0] in _ROUTINE
    if token == b"served" and hit.tag == "criminal_record":
        return (bool(after) and after[0] in _SERVICE_NEXT) or any(w in _SERVICE for w in after)
    if token.startswith(b"probation"):
        return _trial_period(words, hit, after)
    if (hit.tag == "biometric" and token.startswith(b"irish")) or (
        hit.tag == "health" and token.startswith(b"depressing")
    ):
        return True  # a nationality ('iris' + 'h'), and a mood of a thing ('not depressing')
    if token.startswith(b"conviction"):
        before = words[max(0, hit.start - 20) : hit.start].split()[-1:]
        # ... or a Turkish possessive on it: 'en büyük conviction'ım şu'
        return (bool(before) and before[0] in _BELIEF) or after[:1] in ([b"that"], [b"im"])
    if token in (b"of", b"member", b"joined"):
        return any(w in _NOT_PEOPLE for w in words[hit.start : hit.end].split())
    return False
