"""Runs every enabled detector over one text and returns entity candidates and category hits.
Pure functions of (compiled detectors, text); the Classifier owns timing and fail-closed.

A text is folded once into three byte views of the same length (folded, word view, shape view)
and its lexicon tokens are found in one regex pass; every detector reads those views, so each
character of a long text is touched by a handful of C loops and only hits reach Python."""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Sequence
from dataclasses import dataclass

from gateway.core.tokens import count_encoded_tokens, estimate_text_tokens
from gateway.sensitivity.booking_names import booking_names
from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.checksums import CHECKSUMS, strip_separators
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.document import corrected
from gateway.sensitivity.emails import emails
from gateway.sensitivity.enrolled import enrolled
from gateway.sensitivity.framed import FRAMED_TOKENS
from gateway.sensitivity.handles import HANDLE_TOKENS
from gateway.sensitivity.identifiers import (
    DOB_TOKENS,
    PHONE_TOKENS,
    digit_identifiers,
)
from gateway.sensitivity.initials import initial_names
from gateway.sensitivity.judge import Allowance, Judge, shared_judge
from gateway.sensitivity.lexicon import Lexicon, Occurrences, TokenScanner
from gateway.sensitivity.lone_name import used_as_name
from gateway.sensitivity.name_details import JOB_TOKENS, with_details
from gateway.sensitivity.names import ADDRESS_LEXICON, NAME_LEXICON, addresses, person_names
from gateway.sensitivity.passports import PASSPORT_TOKENS, mrz_passports
from gateway.sensitivity.placeholder_names import without_stock_names
from gateway.sensitivity.plates import PLATE_TOKENS
from gateway.sensitivity.salary import SALARY_TOKENS, salaries
from gateway.sensitivity.special import (
    CategoryHit,
    ContextStage,
    Entity,
    build_lexicon,
    categories,
)
from gateway.sensitivity.structured import FIELD_TOKENS, field_hits, in_log_records
from gateway.sensitivity.subject import SubjectModel, load_model
from gateway.sensitivity.textnorm import (
    encode_text,
    fold,
    fold_encoded,
    shape_view,
    word_view,
)
from gateway.sensitivity.wording import WordingModel, load_wording, wording_hit

# entity kinds that name a person rather than identify one by a number or an address
_NAME_KINDS = frozenset({"AD", "AD_SOYAD"})


@dataclass(frozen=True, slots=True)
class _Custom:
    regex: re.Pattern[str]
    checksum: str | None
    entity_type: str
    category: str | None
    confidence: float


class Detectors:
    """Everything compiled once from a SensitivityConfig."""

    def __init__(
        self,
        config: SensitivityConfig,
        model: SubjectModel | None = None,
        judge: Judge | None = None,
        wording: WordingModel | None = None,
    ) -> None:
        """`model`: the second stage's model; by default the one shipped in the package.
        `judge`: the language-model judge; by default the process's one for the configuration
        (none when the configuration turns it off). `wording`: the wording net; by default the
        one shipped, when the configuration turns it on."""
        self.config = config
        if wording is None and config.detectors.wording:
            wording = load_wording()
        self.wording = wording if config.detectors.wording else None
        th = config.thresholds
        if judge is None and config.judge.enabled:
            judge = shared_judge(config.judge)
        self.context = ContextStage(
            model if model is not None else load_model(),
            th.uncertain_low,
            th.uncertain_high,
            judge,
        )
        custom_terms = [
            (term, cat + ("" if config.custom_terms_need_subject else "!"))
            for cat, terms in config.custom_terms.items()
            for term in terms
        ]
        self.special: Lexicon[str] = build_lexicon(custom_terms)
        self.custom = tuple(
            _Custom(re.compile(p.regex), p.checksum, p.target_type, p.category, p.confidence)
            for p in config.custom_patterns
        )
        self.allow = frozenset(fold(strip_separators(v)) for v in config.allow_list)
        lexicons = (self.special, NAME_LEXICON, ADDRESS_LEXICON)
        self.scanner = TokenScanner(
            exact=[
                *(k for lex in lexicons for k in lex.exact_keys),
                *PLATE_TOKENS,
                *PHONE_TOKENS,
                *PASSPORT_TOKENS,
                *DOB_TOKENS,
                *JOB_TOKENS,
                *FRAMED_TOKENS,
                *FIELD_TOKENS,
                *HANDLE_TOKENS,
                *SALARY_TOKENS,
            ],
            stems=[k for lex in lexicons for k in lex.stem_keys],
        )

    def entities(
        self, text: str, folded: bytes, words: bytes, shape: bytes, tokens: Occurrences
    ) -> list[Candidate]:
        on = self.config.detectors
        found: list[Candidate] = []
        if shape.count(b"0") >= 4:  # a plate has at least 4 digits
            found.extend(digit_identifiers(text, folded, shape, on, tokens))
        if on.email and (
            b"@" in folded or b"at)" in folded or b"at]" in folded or b" at " in folded
        ):  # ' at ': 'ad at gmail dot com', which emails() tells from the everyday word
            found.extend(emails(text))
        if on.salary and not SALARY_TOKENS.isdisjoint(tokens):
            found.extend(salaries(folded, words, tokens))
        if on.passport and "<<" in text:  # a machine-readable zone's filler
            found.extend(mrz_passports(text))
        if on.person_name:
            found.extend(without_stock_names(text, person_names(text, words, tokens)))
            found.extend(initial_names(text, shape))
            found.extend(booking_names(text))
            if on.birth_date:
                found = with_details(words, tokens, DOB_TOKENS, found)
        if on.address:
            found.extend(addresses(folded, words, tokens))
        for c in self.custom:
            for m in c.regex.finditer(text):
                if m.end() == m.start():
                    continue
                if c.checksum and not CHECKSUMS[c.checksum](strip_separators(_value(m))):
                    continue
                if c.category is None:
                    found.append(
                        Candidate(c.entity_type, m.start(), m.end(), c.confidence, "custom")
                    )
        if self.allow:
            found = [
                f for f in found if fold(strip_separators(text[f.start : f.end])) not in self.allow
            ]
        return _resolve_overlaps(found)

    def custom_categories(self, text: str) -> list[CategoryHit]:
        out = []
        for c in self.custom:
            if c.category is None:
                continue
            for m in c.regex.finditer(text):
                if m.end() == m.start():
                    continue
                if c.checksum and not CHECKSUMS[c.checksum](strip_separators(_value(m))):
                    continue
                out.append(CategoryHit(c.category, m.start(), m.end(), c.confidence))
        return out

    def run(
        self, text: str, personal_threshold: float, allowance: Allowance | None = None
    ) -> tuple[list[Candidate], list[CategoryHit], int]:
        """(entities, category hits, the text's token estimate): the estimate is counted from
        the bytes folded here, so the request path encodes each text once. `allowance`: what
        the language-model judge may spend on this text (without one it is not asked)."""
        encoded, exact = encode_text(text)
        folded = fold_encoded(encoded)
        words = word_view(folded)
        tokens = self.scanner.scan(words)
        ents = self.entities(text, folded, words, shape_view(folded), tokens)
        cats: list[CategoryHit] = []
        if self.config.detectors.special_categories:
            # a person nearby makes a term about that person; a lone first name counts here when
            # the text uses it as a name (lone_name.py)
            chosen = second_stage_people(text, ents, personal_threshold)
            people = as_entities(chosen)
            judged = categories(
                self.special,
                self.context,
                folded,
                words,
                tokens,
                people,
                encoded,
                text,
                allowance,
            )
            # a long text judged sentence by sentence has many chances to be wrong once
            fair = corrected(list(judged), self.context.low, self.context.high, folded)
            # a record's fields have no sentence for the context model to read
            spans = [(p.start, p.end) for p in people]
            cats.extend(enrolled(in_log_records(fair, folded, tokens, spans), folded))
            cats.extend(field_hits(folded, words, tokens, spans))
            if not cats and self.wording is not None:
                limits = self.config.thresholds
                worded = wording_hit(
                    self.wording,
                    # the writer's own name ('ben nazlı') or a relative's ('eşim selim')
                    # points at someone as 'I' or 'my' do: the cue's threshold
                    limits.wording_named
                    if any(e.detector != "name_intro" for e in chosen)
                    else limits.wording,
                    folded,
                    words,
                    len(people),
                    len(text),
                    lambda: bool(self.special.find(words, tokens)),
                )
                if worded is not None:
                    cats.append(worded)
        cats.extend(self.custom_categories(text))
        n_tokens = count_encoded_tokens(encoded) if exact else estimate_text_tokens(text)
        return ents, cats, n_tokens


def second_stage_people(
    text: str, ents: Sequence[Candidate], personal_threshold: float
) -> list[Candidate]:
    """The entities the special categories' second stage counts as people: those at or above
    the personal threshold, and a lone first name where the text uses it as a name. The
    training commands read people through here too, so they learn on what runs."""
    return [
        e
        for e in ents
        if e.confidence >= personal_threshold
        or (e.kind == "AD" and used_as_name(text, e.start, e.end))
    ]


def as_entities(chosen: Sequence[Candidate]) -> list[Entity]:
    return [
        Entity(e.start, e.end, e.kind not in _NAME_KINDS, e.kind in _NAME_KINDS) for e in chosen
    ]


def _value(m: re.Match[str]) -> str:
    """The part a checksum applies to: the first group when the pattern has one."""
    return (m.group(1) or "") if m.re.groups else m.group(0)


def _resolve_overlaps(found: list[Candidate]) -> list[Candidate]:
    """Keep the most confident of overlapping candidates (then the longest).

    The kept spans never overlap, so among those starting before a candidate's end the last
    one (by start, then end) reaches furthest: one bisect per candidate tells whether it
    overlaps any, and a prompt full of identifiers stays O(n log n)."""
    if len(found) < 2:
        return found
    ordered = sorted(found, key=lambda c: (-c.confidence, c.start - c.end, c.start))
    kept: list[Candidate] = []
    spans: list[tuple[int, int]] = []  # kept (start, end), sorted
    for c in ordered:
        i = bisect_left(spans, (c.end, -1))  # first kept span starting at or after c.end
        if i and spans[i - 1][1] > c.start:
            continue
        insort(spans, (c.start, c.end))
        kept.append(c)
    kept.sort(key=lambda c: c.start)
    return kept
