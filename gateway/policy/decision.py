"""What the policy decided for one request: ordered candidates, a reason for every dropped
backend, and the limits the dispatcher must keep (zones, deadlines, retries)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gateway.sensitivity.result import Sensitivity


class DropReason(StrEnum):
    NOT_IN_RULE = "not_allowed_by_rule"
    DISABLED = "disabled"
    ZONE = "data_class_not_allowed_in_zone"
    TENANT_LOCK = "tenant_locked_on_prem"
    NO_TRANSFER_BASIS = "no_transfer_basis"
    REDACTION_OFF = "redaction_required"
    CAPABILITY = "capability_missing"
    CONTEXT = "context_too_long"
    CIRCUIT_OPEN = "circuit_open"
    SLO = "slo_not_met"
    COST_CAP = "over_cost_cap"
    BUDGET = "over_budget"
    UNKNOWN = "unknown_backend"
    UNCERTAIN = "uncertain_prefers_on_prem"


@dataclass(frozen=True, slots=True)
class Dropped:
    backend: str
    reason: str  # human-readable detail
    code: str = DropReason.DISABLED.value


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-request execution limits derived from the matched rule."""

    ttft_deadline_s: float | None = None
    ttft_slo_s: float | None = None  # the rule's TTFT objective: an on-prem pool spills past it
    # (tenant priority, rule priority): the order of requests waiting for an on-prem node
    priority: tuple[int, int] = (0, 0)
    total_deadline_s: float | None = None
    retries: int = 0
    backoff_s: float = 0.1
    max_backoff_s: float = 2.0


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
    allowed_zones: frozenset[str] = frozenset({"on_prem", "cloud"})
    zones: dict[str, str] = field(default_factory=dict)  # candidate -> zone
    objective: str | None = None
    limits: Limits = Limits()
    estimates: dict[str, Decimal | None] = field(default_factory=dict)  # est. USD per candidate
    prompt_tokens: int = 0  # the request's estimated prompt tokens (counted once, reused)
    # the classification the decision was made on, kept when the decision redacts so the
    # redactor rewrites what was found instead of classifying the request again
    sensitivity: Sensitivity | None = field(default=None, compare=False, repr=False)
    # response headers the admission adds (the rate-limit state), kept out of the trace
    headers: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)

    def needs_redaction(self, backend: str) -> bool:
        """Redaction applies to what leaves for the cloud; on-prem backends get the original."""
        return self.redact and self.zones.get(backend, "cloud") == "cloud"

    @property
    def band(self) -> str | None:
        """The classifier's band (confident / uncertain) this decision was made with."""
        sens = self.extra.get("sensitivity")
        return sens.get("band") if isinstance(sens, dict) else None

    def trace(self) -> dict[str, Any]:
        return {
            "alias": self.alias,
            "rule": self.rule,
            "data_class": self.data_class,
            "objective": self.objective,
            "allowed_zones": sorted(self.allowed_zones),
            "redact": self.redact,
            "candidates": [
                {
                    "backend": c,
                    "zone": self.zones.get(c),
                    "estimated_usd": _money(self.estimates.get(c)),
                }
                for c in self.candidates
            ],
            "dropped": [
                {"backend": d.backend, "code": d.code, "reason": d.reason} for d in self.dropped
            ],
            "blocked": self.blocked,
            **self.extra,
        }


def _money(v: Decimal | None) -> str | None:
    return None if v is None else format(v.normalize(), "f")
