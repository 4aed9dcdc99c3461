"""Budgets as the CLI and the admin console manage them: create (or change), list, delete, with
every input checked and a tenant's reach enforced here, once, for both.

`tenant=None` is the admin scope (every budget); a tenant sees and manages only the budgets
that belong to it: its tenant budget, its apps', its keys'. Alias and tag budgets span tenants
and are the admin's alone. Bad input raises BudgetInputError with a one-line message.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from sqlalchemy.engine import Engine

from gateway.usage import budgets, keys
from gateway.usage.budget_periods import (
    check_span,
    check_subject,
    tenant_of_subject,
)
from gateway.usage.budgets import BudgetView

MAX_AMOUNT = Decimal("1e12")


class BudgetInputError(ValueError):
    """A budget request that cannot be carried out; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class BudgetRequest:
    scope: str  # tenant | app | key | alias | tag
    subject: str  # tenant, TENANT/APP, key id, alias, NAME=VALUE
    amount: str  # "500", "500 TRY", "20 USD"
    period: str = "month"  # day | week | month


def parse_amount(text: str) -> tuple[Decimal, str]:
    """`500`, `500 TRY` or `20 USD` (a comma is a decimal point) -> (amount, currency)."""
    parts = text.replace(",", ".").split()
    currency = parts[1].upper() if len(parts) > 1 else "TRY"
    try:
        amount = Decimal(parts[0])
    except (InvalidOperation, IndexError):
        raise BudgetInputError(f"not an amount: {text[:40]!r}") from None
    if (
        not amount.is_finite()
        or not 0 < amount <= MAX_AMOUNT
        or currency not in ("TRY", "USD")
        or len(parts) > 2
    ):
        raise BudgetInputError(f"a budget is a positive amount in TRY or USD, got {text[:40]!r}")
    return amount, currency


def create_budget(
    engine: Engine, req: BudgetRequest, now: float, *, tenant: str | None = None
) -> BudgetView:
    """Create a budget, or change the limit of the one with the same scope, subject and
    period (its counters for the running period are kept). `tenant`: the caller's reach."""
    try:
        span = check_span(req.period)
        subject = check_subject(req.scope, req.subject.strip())
    except ValueError as exc:
        raise BudgetInputError(str(exc)) from None
    amount, currency = parse_amount(req.amount)
    owner = _owner(engine, req.scope, subject)
    if tenant is not None and owner != tenant:
        raise BudgetInputError(f"no {req.scope} {subject!r} in tenant {tenant!r}")
    bid = budgets.set_budget(
        engine, req.scope, subject, amount, currency, now, span=span, tenant=owner
    )
    return budgets.load_budgets(engine, [bid])[0]


def list_budgets(engine: Engine, *, tenant: str | None = None) -> list[BudgetView]:
    """Every budget (admin), or the budgets of one tenant."""
    views = budgets.all_budgets(engine)
    return views if tenant is None else [v for v in views if v.tenant == tenant]


def delete_budget(engine: Engine, budget_id: str, *, tenant: str | None = None) -> BudgetView:
    """Delete a budget by its id; returns what it was. Unknown (or another tenant's) ids are
    refused alike, so a tenant learns nothing about budgets outside its reach."""
    found = budgets.load_budgets(engine, [budget_id[:200]])
    if not found or (tenant is not None and found[0].tenant != tenant):
        raise BudgetInputError(f"no budget {budget_id[:200]!r}")
    if not budgets.delete_budget(engine, found[0].id):
        raise BudgetInputError(f"no budget {budget_id[:200]!r}")
    return found[0]


def _owner(engine: Engine, scope: str, subject: str) -> str | None:
    if scope != "key":
        return tenant_of_subject(scope, subject)
    info = keys.get_key(engine, subject)
    if info is None:
        raise BudgetInputError(f"no key {subject!r}")
    return info.tenant
