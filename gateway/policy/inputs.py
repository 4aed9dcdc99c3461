"""The engine's inputs besides the policy: the request as the engine sees it, live backend
figures and budget state. Plain frozen data; nothing here reads a clock or does I/O."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from gateway.core.types import DataClass

CircuitState = Literal["closed", "open", "half_open"]
BudgetAction = Literal["on_prem_only", "refuse"]


@dataclass(frozen=True, slots=True)
class RequestInfo:
    """What the engine needs to know about one request (never its text)."""

    alias: str
    data_class: DataClass
    tenant: str = "default"
    app: str = "default"
    headers: Mapping[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    max_output_tokens: int | None = None
    needs_tools: bool = False
    stream: bool = False
    json_mode: bool = False
    today: date | None = None  # for transfer-basis expiry; None = do not check expiry
    seed: float = 0.0  # in [0, 1): the draw for the `weighted` objective
    entities: tuple[tuple[str, int], ...] = ()  # detected entity types and counts
    categories: tuple[str, ...] = ()  # detected special categories
    classifier_note: str | None = None  # e.g. "fail closed: classifier error"
    # the classifier's band (confident / uncertain) and the stage that decided the class;
    # the policy's `sensitivity.when_uncertain` says what an uncertain result does
    band: Literal["confident", "uncertain"] = "confident"
    stage: str | None = None


@dataclass(frozen=True, slots=True)
class BackendLive:
    """A snapshot of one backend's measured behaviour. None = not measured yet."""

    ttft_p95_ms: float | None = None
    total_p95_ms: float | None = None
    tokens_per_s: float | None = None
    error_rate: float = 0.0
    samples: int = 0
    circuit: CircuitState = "closed"


@dataclass(frozen=True, slots=True)
class ExhaustedBudget:
    name: str
    action: BudgetAction


@dataclass(frozen=True, slots=True)
class BudgetState:
    """Budgets already exhausted for this request's tenant/app/key (supplied by usage/)."""

    exhausted: tuple[ExhaustedBudget, ...] = ()

    @property
    def refusing(self) -> ExhaustedBudget | None:
        return next((b for b in self.exhausted if b.action == "refuse"), None)

    @property
    def on_prem_only(self) -> ExhaustedBudget | None:
        return next((b for b in self.exhausted if b.action == "on_prem_only"), None)


NO_BUDGET_LIMITS = BudgetState()
