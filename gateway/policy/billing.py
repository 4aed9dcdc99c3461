"""The policy's money settings (`billing:`): exchange rate, KDV and budgets.

Self-contained so the policy schema only needs one field for it. Amounts are Decimal; write
them as strings in YAML ("38.50") to keep them exact.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Currency = Literal["TRY", "USD"]
OnExhausted = Literal["refuse", "on_prem_only"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BudgetSpec(_Strict):
    """A tenant's monthly budget. `on_exhausted` overrides `billing.on_budget_exhausted` (for
    every budget of that tenant's scope, whatever its period)."""

    amount: Decimal = Field(gt=0)
    currency: Currency = "TRY"
    on_exhausted: OnExhausted | None = None


class Billing(_Strict):
    usd_try: Decimal | None = Field(
        default=None, gt=0, description="TRY per 1 USD; without it costs are shown in USD only"
    )
    kdv_rate: Decimal | None = Field(
        default=None,
        ge=0,
        lt=1,
        description='KDV (VAT) rate, e.g. "0.20"; reports show it separately and say so when '
        "it is not set (never a silent zero)",
    )
    on_budget_exhausted: OnExhausted = "refuse"
    tenant_budgets: dict[str, BudgetSpec] = Field(default_factory=dict)
    key_budget_action: OnExhausted | None = Field(
        default=None, description="action for per-key budgets (default: on_budget_exhausted)"
    )
    charge_idle_hours: bool = Field(
        default=False,
        description="on-prem hourly cost: charge the hours a node sits idle to "
        "the requests that follow (default: only busy time)",
    )

    def action_for(self, scope: str, subject: str) -> OnExhausted:
        if scope == "tenant":
            spec = self.tenant_budgets.get(subject)
            if spec is not None and spec.on_exhausted is not None:
                return spec.on_exhausted
        elif scope == "key" and self.key_budget_action is not None:
            return self.key_budget_action
        return self.on_budget_exhausted
