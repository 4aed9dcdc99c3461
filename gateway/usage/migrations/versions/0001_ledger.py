"""ledger: requests, attempts, tenants, api keys, budgets, holds, policy changes

Revision ID: 0001
Revises: (none; the rollups/audit migration chains on "0001")
Create Date: 2026-11-30 03:06:34.902376
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("tenant", sa.String(length=128), nullable=False),
        sa.Column("app", sa.String(length=128), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_api_keys_tenant"), ["tenant"], unique=False)

    op.create_table(
        "attempts",
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("backend", sa.String(length=128), nullable=False),
        sa.Column("outcome", sa.String(length=32), nullable=False),
        sa.Column("failure_kind", sa.String(length=64), nullable=True),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("request_id", "ordinal"),
    )
    op.create_table(
        "budget_holds",
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("budget_id", sa.String(length=200), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("amount", sa.Numeric(precision=24, scale=10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("request_id", "budget_id"),
    )
    with op.batch_alter_table("budget_holds", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_budget_holds_created_at"), ["created_at"], unique=False
        )

    op.create_table(
        "budgets",
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("subject", sa.String(length=128), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("amount_limit", sa.Numeric(precision=24, scale=10), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("spent", sa.Numeric(precision=24, scale=10), nullable=False),
        sa.Column("reserved", sa.Numeric(precision=24, scale=10), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "policy_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(length=1024), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("problems", sa.Integer(), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("policy_changes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_policy_changes_changed_at"), ["changed_at"], unique=False
        )

    op.create_table(
        "requests",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tenant", sa.String(length=128), nullable=False),
        sa.Column("app", sa.String(length=128), nullable=False),
        sa.Column("key_id", sa.String(length=64), nullable=True),
        sa.Column("alias", sa.String(length=128), nullable=False),
        sa.Column("backend", sa.String(length=128), nullable=True),
        sa.Column("model", sa.String(length=256), nullable=True),
        sa.Column("data_class", sa.String(length=16), nullable=True),
        sa.Column("rule", sa.String(length=128), nullable=True),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("error_kind", sa.String(length=64), nullable=True),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.Column("cached_tokens", sa.Integer(), nullable=False),
        sa.Column("estimated", sa.Boolean(), nullable=False),
        sa.Column("cost", sa.Numeric(precision=24, scale=10), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("fx_rate_try", sa.Numeric(precision=24, scale=10), nullable=True),
        sa.Column("cost_try", sa.Numeric(precision=24, scale=10), nullable=True),
        sa.Column("price_source", sa.String(length=32), nullable=True),
        sa.Column("streamed", sa.Boolean(), nullable=False),
        sa.Column("latency_ms", sa.Float(), nullable=False),
        sa.Column("ttft_ms", sa.Float(), nullable=True),
        sa.Column("tokens_per_s", sa.Float(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("trace", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_requests_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_requests_key_id"), ["key_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_requests_tenant"), ["tenant"], unique=False)

    op.create_table(
        "tenants",
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("name", sa.String(length=256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:

    op.drop_table("tenants")
    with op.batch_alter_table("requests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_requests_tenant"))
        batch_op.drop_index(batch_op.f("ix_requests_key_id"))
        batch_op.drop_index(batch_op.f("ix_requests_created_at"))

    op.drop_table("requests")
    with op.batch_alter_table("policy_changes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_policy_changes_changed_at"))

    op.drop_table("policy_changes")
    op.drop_table("budgets")
    with op.batch_alter_table("budget_holds", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_budget_holds_created_at"))

    op.drop_table("budget_holds")
    op.drop_table("attempts")
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_api_keys_tenant"))

    op.drop_table("api_keys")
