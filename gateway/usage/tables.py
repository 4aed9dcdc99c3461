"""Ledger tables. No prompt or completion text is ever stored here.

Money columns are `Numeric(MONEY_PRECISION, MONEY_SCALE)` and read back as `Decimal`; never float.
The schema is created and upgraded only by the Alembic migrations in `usage/migrations/`; a
change here needs a new migration (the rollup and audit tables chain on revision "0001").
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, Column, Numeric, Text
from sqlmodel import Field, SQLModel

MONEY_PRECISION = 24
MONEY_SCALE = 10


def money_column(nullable: bool = True) -> Any:
    return Column(Numeric(MONEY_PRECISION, MONEY_SCALE, asdecimal=True), nullable=nullable)


class RequestRow(SQLModel, table=True):
    __tablename__ = "requests"

    id: str = Field(primary_key=True, max_length=64)
    created_at: datetime = Field(index=True)
    tenant: str = Field(default="default", index=True, max_length=128)
    app: str = Field(default="default", max_length=128)
    key_id: str | None = Field(default=None, index=True, max_length=64)
    alias: str = Field(max_length=128)
    backend: str | None = Field(default=None, max_length=128)
    model: str | None = Field(default=None, max_length=256)
    data_class: str | None = Field(default=None, max_length=16)
    # the classifier's band (confident / uncertain); NULL for rows written before it existed
    sensitivity_band: str | None = Field(default=None, max_length=16)
    rule: str | None = Field(default=None, max_length=128)
    status: int
    error_kind: str | None = Field(default=None, max_length=64)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    estimated: bool = False
    # cost in `currency` (the price's currency, USD); NULL when the price is unknown, never 0
    cost: Decimal | None = Field(default=None, sa_column=money_column())
    currency: str | None = Field(default=None, max_length=3)
    # the USD->TRY rate in force when the row was priced, and the cost in TRY at that rate
    fx_rate_try: Decimal | None = Field(default=None, sa_column=money_column())
    cost_try: Decimal | None = Field(default=None, sa_column=money_column())
    price_source: str | None = Field(default=None, max_length=32)  # policy|catalog|on_prem
    streamed: bool = False
    latency_ms: float = 0.0
    ttft_ms: float | None = None
    tokens_per_s: float | None = None
    attempts: int = 0
    trace: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    # cost-attribution tags, `key=value,...` sorted (usage/tag_rollups.py); NULL: none
    tags: str | None = Field(default=None, max_length=1024)
    # the node of a pooled on-prem backend that served the request; NULL: not a pool
    node: str | None = Field(default=None, max_length=128)


class AttemptRow(SQLModel, table=True):
    __tablename__ = "attempts"

    request_id: str = Field(primary_key=True, max_length=64)
    ordinal: int = Field(primary_key=True)
    backend: str = Field(max_length=128)
    outcome: str = Field(max_length=32)
    failure_kind: str | None = Field(default=None, max_length=64)
    status: int | None = None
    latency_ms: float = 0.0


class TenantRow(SQLModel, table=True):
    __tablename__ = "tenants"

    id: str = Field(primary_key=True, max_length=128)
    name: str | None = Field(default=None, max_length=256)
    created_at: datetime


class ApiKeyRow(SQLModel, table=True):
    """Only the SHA-256 of the secret part is stored; the key itself is shown once."""

    __tablename__ = "api_keys"

    id: str = Field(primary_key=True, max_length=64)  # public part, e.g. "k_3f9a..."
    secret_hash: str = Field(max_length=64)
    tenant: str = Field(index=True, max_length=128)
    app: str = Field(default="default", max_length=128)
    scope: str = Field(default="api", max_length=16)  # api | admin
    name: str | None = Field(default=None, max_length=256)
    created_at: datetime
    revoked_at: datetime | None = None


class BudgetRow(SQLModel, table=True):
    """A budget of a tenant, app, key, alias or tag over a day, an ISO week or a month, with its
    live counters for the current period.

    `spent` and `reserved` are in the budget's own currency. A reservation is taken atomically
    (`spent + reserved + amount <= amount_limit`) before a call and settled in the same
    transaction that writes the request's ledger row.
    """

    __tablename__ = "budgets"

    # "<scope>:<subject>" for a monthly budget, "<span>:<scope>:<subject>" for day and week
    id: str = Field(primary_key=True, max_length=200)
    scope: str = Field(max_length=16)  # tenant | app | key | alias | tag
    subject: str = Field(max_length=128)  # tenant, tenant/app, key id, alias, name=value
    span: str = Field(default="month", max_length=8)  # day | week | month
    # the tenant the budget belongs to (who may see it); NULL: an alias or tag budget
    tenant: str | None = Field(default=None, index=True, max_length=128)
    currency: str = Field(max_length=3)  # TRY | USD
    amount_limit: Decimal = Field(sa_column=money_column(nullable=False))
    # the period the counters belong to: YYYY-MM-DD, YYYY-Www (ISO week) or YYYY-MM
    period: str = Field(max_length=10)
    spent: Decimal = Field(sa_column=money_column(nullable=False))
    reserved: Decimal = Field(sa_column=money_column(nullable=False))
    updated_at: datetime


class BudgetHoldRow(SQLModel, table=True):
    """One request's reservation against one budget, until its ledger row settles it."""

    __tablename__ = "budget_holds"

    request_id: str = Field(primary_key=True, max_length=64)
    budget_id: str = Field(primary_key=True, max_length=200)
    period: str = Field(max_length=10)
    amount: Decimal = Field(sa_column=money_column(nullable=False))
    created_at: datetime = Field(index=True)


class BudgetAlertRow(SQLModel, table=True):
    """One alert (a budget reached `threshold` % in `period`) and its webhook delivery. The
    primary key makes it once per budget and period across replicas; the row is the outbox a
    replica claims (`claimed_until`) before it sends. `payload` is the exact JSON body sent."""

    __tablename__ = "budget_alerts"

    budget_id: str = Field(primary_key=True, max_length=200)
    period: str = Field(primary_key=True, max_length=10)
    threshold: int = Field(primary_key=True)
    created_at: datetime
    payload: str = Field(sa_column=Column(Text, nullable=False))
    attempts: int = 0
    next_at: datetime = Field(index=True)
    claimed_until: datetime | None = None
    sent_at: datetime | None = None
    failed_at: datetime | None = None
    last_error: str | None = Field(default=None, max_length=64)


class PolicyChangeRow(SQLModel, table=True):
    """Every policy (re)load: which file, its digest, when, and whether it was accepted."""

    __tablename__ = "policy_changes"

    id: int | None = Field(default=None, primary_key=True)
    changed_at: datetime = Field(index=True)
    source: str = Field(max_length=1024)
    sha256: str = Field(max_length=64)
    accepted: bool = True
    problems: int = 0
    actor: str | None = Field(default=None, max_length=128)


class AdminSessionRow(SQLModel, table=True):
    """A browser's sign-in to the admin pages. Only SHA-256 of the cookie's token is stored, so
    a copy of the ledger opens no session. `key_id` is the key signed in with (or the admin
    key's fingerprint, "admin-key:<hex>"): revoking that key, or changing the admin key, ends
    the session. `tenant` NULL means the admin scope."""

    __tablename__ = "admin_sessions"

    token_hash: str = Field(primary_key=True, max_length=64)
    csrf: str = Field(max_length=64)
    actor: str = Field(max_length=128)
    key_id: str = Field(index=True, max_length=64)
    tenant: str | None = Field(default=None, max_length=128)
    created_at: datetime
    expires_at: datetime = Field(index=True)
    revoked_at: datetime | None = None


class OidcLoginRow(SQLModel, table=True):
    """An OIDC sign-in in progress, between the redirect to the issuer and its callback: only
    hashes (of the `state` sent to the issuer and of the browser's pre-session cookie), so a
    copy of the ledger cannot finish anyone's sign-in. Deleted when the callback uses it (once)
    or when it expires."""

    __tablename__ = "oidc_logins"

    state_hash: str = Field(primary_key=True, max_length=64)
    browser_hash: str = Field(max_length=64)
    created_at: datetime
    expires_at: datetime = Field(index=True)
