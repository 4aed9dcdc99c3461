"""budgets over a day, an ISO week or a month, per tenant / app / key / alias / tag, and the
alerts sent at 50/80/100 % of them

budgets.span: day | week | month (existing rows: month); budgets.tenant: the tenant a budget
belongs to (NULL: every tenant's, an alias or tag budget); the period columns widen from
YYYY-MM to YYYY-MM-DD. budget_alerts: one row per (budget, period, threshold), the outbox its
webhook is delivered from (the primary key is what makes each alert once across replicas).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("budgets") as batch:
        batch.add_column(
            sa.Column("span", sa.String(length=8), nullable=False, server_default="month")
        )
        batch.add_column(sa.Column("tenant", sa.String(length=128), nullable=True))
        batch.alter_column("period", type_=sa.String(length=10), existing_type=sa.String(length=7))
    with op.batch_alter_table("budget_holds") as batch:
        batch.alter_column("period", type_=sa.String(length=10), existing_type=sa.String(length=7))
    op.execute("UPDATE budgets SET tenant = subject WHERE scope = 'tenant'")
    op.execute(
        "UPDATE budgets SET tenant = (SELECT api_keys.tenant FROM api_keys "
        "WHERE api_keys.id = budgets.subject) WHERE scope = 'key'"
    )
    op.create_index("ix_budgets_tenant", "budgets", ["tenant"])
    op.create_table(
        "budget_alerts",
        sa.Column("budget_id", sa.String(length=200), primary_key=True),
        sa.Column("period", sa.String(length=10), primary_key=True),
        sa.Column("threshold", sa.Integer(), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=64), nullable=True),
    )
    op.create_index("ix_budget_alerts_next_at", "budget_alerts", ["next_at"])


def downgrade() -> None:
    op.drop_index("ix_budget_alerts_next_at", table_name="budget_alerts")
    op.drop_table("budget_alerts")
    op.drop_index("ix_budgets_tenant", table_name="budgets")
    with op.batch_alter_table("budget_holds") as batch:
        batch.alter_column("period", type_=sa.String(length=7), existing_type=sa.String(length=10))
    with op.batch_alter_table("budgets") as batch:
        batch.alter_column("period", type_=sa.String(length=7), existing_type=sa.String(length=10))
        batch.drop_column("tenant")
        batch.drop_column("span")
