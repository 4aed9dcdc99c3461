"""What the policy decided for one request (the dispatcher only executes it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Dropped:
    backend: str
    reason: str


@dataclass(frozen=True, slots=True)
class RouteDecision:
    alias: str
    candidates: tuple[str, ...]
    dropped: tuple[Dropped, ...] = ()
    data_class: str | None = None
    rule: str | None = None
    redact: bool = False
    blocked: str | None = None  # a message when the policy refuses the request
    extra: dict[str, Any] = field(default_factory=dict)

    def trace(self) -> dict[str, Any]:
        return {
            "alias": self.alias,
            "rule": self.rule,
            "data_class": self.data_class,
            "candidates": list(self.candidates),
            "dropped": [{"backend": d.backend, "reason": d.reason} for d in self.dropped],
            "blocked": self.blocked,
            **self.extra,
        }
