"""A span of text a detector takes for an identifier or a name, with its confidence."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: str
    start: int
    end: int
    confidence: float
    detector: str
