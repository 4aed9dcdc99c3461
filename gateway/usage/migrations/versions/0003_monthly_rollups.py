"""monthly rollups: usage_monthly (the daily sums per UTC calendar month)

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

N_BUCKETS = 13  # gateway.usage.rollups.N_BUCKETS at the time of this revision


def upgrade() -> None:
    keys = [
        ("tenant", 128),
        ("app", 128),
        ("backend", 128),
        ("model", 256),
        ("data_class", 16),
        ("zone", 16),
        ("currency", 3),
    ]
    sums = [
        "requests",
        "errors",
        "prompt_tokens",
        "completion_tokens",
        "cost_nanos",
        "cost_try_nanos",
        *[f"ttft_b{i:02d}" for i in range(N_BUCKETS)],
    ]
    op.create_table(
        "usage_monthly",
        sa.Column("month", sa.Date(), nullable=False),
        *[sa.Column(k, sa.String(length=n), nullable=False) for k, n in keys],
        *[sa.Column(c, sa.BigInteger(), nullable=False) for c in sums],
        sa.PrimaryKeyConstraint("month", *[k for k, _ in keys]),
    )
    # months already in the daily table
    op.execute(
        "INSERT INTO usage_monthly SELECT "
        + (
            "CAST(date_trunc('month', day) AS DATE)"
            if op.get_bind().dialect.name == "postgresql"
            else "date(day, 'start of month')"
        )
        + ", "
        + ", ".join(k for k, _ in keys)
        + ", "
        + ", ".join(f"SUM({c})" for c in sums)
        + " FROM usage_daily GROUP BY 1, "
        + ", ".join(k for k, _ in keys)
    )


def downgrade() -> None:
    op.drop_table("usage_monthly")
