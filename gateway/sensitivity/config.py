"""Admin-facing sensitivity settings. Embedded in the policy YAML under `sensitivity:`."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SpecialCategory = Literal[
    "health",
    "religion",
    "ethnicity",
    "political_opinion",
    "philosophical_belief",
    "membership",
    "sexual_life",
    "criminal_record",
    "biometric",
    "genetic",
    "appearance",
]
SPECIAL_CATEGORIES: tuple[str, ...] = SpecialCategory.__args__  # type: ignore[attr-defined]

_ENTITY_TYPE = re.compile(r"^[A-Z][A-Z0-9_]{0,31}$")


class Detectors(BaseModel):
    """Which built-in detectors run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tckn: bool = True
    vkn: bool = True
    iban: bool = True
    phone: bool = True
    email: bool = True
    card: bool = True
    plate: bool = True
    passport: bool = True
    birth_date: bool = True
    salary: bool = True
    person_name: bool = True
    address: bool = True
    special_categories: bool = True
    # the wording net (wording.py): a special-category statement in words no lexicon lists,
    # read where no topic fired and the text points at someone
    wording: bool = True


class Thresholds(BaseModel):
    """A finding counts towards a class when its confidence reaches the threshold."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    personal: float = Field(default=0.5, ge=0.0, le=1.0)
    special: float = Field(default=0.5, ge=0.0, le=1.0)
    # a special-category judgement with a probability in [uncertain_low, uncertain_high) is
    # 'uncertain'; the policy's `when_uncertain` decides what that does
    uncertain_low: float = Field(default=0.3, ge=0.0, le=1.0)
    uncertain_high: float = Field(default=0.7, ge=0.0, le=1.0)
    # the wording net's probability from which a text with no topic but someone in it is
    # special, when only a cue points at someone (I, my, a kin or role word): at 0.8 two
    # everyday first-person sentences of the unit tests reached it, at 0.85 none
    wording: float = Field(default=0.85, ge=0.0, le=1.0)
    # the same when the detectors found someone other than the writer (a name, an
    # identifier): on the measuring sets (j k r v z1 z3 z4 z8 z10 z12, judge off) 0.8 missed
    # 57 special records of 1,386 and 0.82 60, but at 0.8 an everyday line about a named
    # colleague ('zeynep hanım yarın sabah faturaları getirecek', 0.818) was special
    wording_named: float = Field(default=0.82, ge=0.0, le=1.0)


class Judge(BaseModel):
    """The language-model judge of the special categories' second stage (judge.py): a small
    multilingual model asked, for a sentence where a topic fired and the context model is
    unsure, whether it is about a specific person. It costs ~0.1-0.4 s of one core per
    sentence, so it is asked only then, for at most `max_sentences` sentences per request,
    within its own `time_budget_ms` (on top of the detectors' `time_budget_ms`: text where no
    topic fires, most traffic, never waits for it), and it is stopped when that runs out; in
    every other case the context model decides."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = Field(
        default=True,
        description="ask the judge when the context model is unsure (needs the `local` extra, "
        "which `make install` brings; without it the context model decides alone)",
    )
    max_sentences: int = Field(
        default=2,
        ge=0,
        le=64,
        description="sentences judged per request; beyond, the context model decides",
    )
    time_budget_ms: float = Field(
        default=800.0,
        ge=0.0,
        le=10_000.0,
        description="what the judge may add to one request's classification; a sentence "
        "that would not fit is left to the context model",
    )
    reserve_ms: float = Field(
        default=100.0,
        ge=0.0,
        description="a sentence is put to the judge only while this much of its time budget "
        "is left (an answer takes ~100-400 ms of one core)",
    )
    threads: int = Field(default=1, ge=1, le=16, description="llama.cpp threads per process")
    cache_dir: str | None = Field(
        default=None,
        description="where the model file is joined from its installed chunks once "
        "(default ~/.cache/gecit)",
    )


class CustomPattern(BaseModel):
    """An admin regex, optionally checksum-validated, that yields an entity or a category."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=64)
    regex: str = Field(min_length=1)
    checksum: Literal["tckn", "vkn", "iban", "luhn"] | None = None
    entity_type: str | None = None
    category: SpecialCategory | None = None
    confidence: float = Field(default=0.9, ge=0.0, le=1.0)

    @field_validator("regex")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"regex does not compile: {exc}") from None
        return v

    @field_validator("entity_type")
    @classmethod
    def _type_name(cls, v: str | None) -> str | None:
        if v is not None and not _ENTITY_TYPE.match(v):
            raise ValueError("entity_type must be UPPER_SNAKE_CASE, at most 32 characters")
        return v

    @model_validator(mode="after")
    def _one_target(self) -> CustomPattern:
        if self.entity_type is not None and self.category is not None:
            raise ValueError("set entity_type or category, not both")
        return self

    @property
    def target_type(self) -> str:
        """The entity type this pattern reports (when it is not a category pattern)."""
        if self.entity_type:
            return self.entity_type
        return re.sub(r"[^A-Z0-9_]", "_", self.name.upper())[:32] or "CUSTOM"


class SensitivityConfig(BaseModel):
    """Everything the classifier can be told. Defaults are the conservative choice."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    detectors: Detectors = Field(default_factory=Detectors)
    thresholds: Thresholds = Field(default_factory=Thresholds)
    judge: Judge = Field(default_factory=Judge)
    custom_patterns: tuple[CustomPattern, ...] = ()
    custom_terms: dict[SpecialCategory, tuple[str, ...]] = Field(default_factory=dict)
    custom_terms_need_subject: bool = Field(
        default=False,
        description="if true, custom terms count only when a person is the subject, like the "
        "built-in lexicon; by default an admin term counts wherever it appears",
    )
    allow_list: tuple[str, ...] = Field(
        default=(),
        description="values that never count (the company's own VKN, its support e-mail); "
        "compared without separators and case",
    )
    time_budget_ms: float = Field(
        default=250.0,
        gt=0.0,
        description="the hard deadline of one request's classification; when it runs out the "
        "request is `special` at once (fail closed)",
    )
    offload_chars: int = Field(
        default=64 << 10,
        ge=0,
        description="a request with more text than this is classified in a child process (a "
        "worker thread when the gateway has none), so the event loop keeps serving others "
        "while it runs; 0 sends every request there",
    )
    unreadable_parts: Literal["special", "as_text_only"] = Field(
        default="special",
        description="what a content part the classifier cannot read (an image, audio, a file) "
        "makes of the request: `special` (it may hold anything), or `as_text_only` (classify "
        "the request's text and send the part as it is)",
    )
    when_uncertain: Literal["as_detected", "prefer_on_prem", "special"] = Field(
        default="prefer_on_prem",
        description="what an uncertain classification does: route as detected; serve on-prem "
        "when an on-prem backend can, otherwise as detected; or treat it as special",
    )

    @field_validator("custom_terms")
    @classmethod
    def _terms_not_blank(
        cls, v: dict[SpecialCategory, tuple[str, ...]]
    ) -> dict[SpecialCategory, tuple[str, ...]]:
        for cat, terms in v.items():
            if any(not t.strip() for t in terms):
                raise ValueError(f"custom_terms.{cat}: blank term")
        return v
