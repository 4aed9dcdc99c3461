"""policy_documents: accepted policy texts shared by every replica (the newest wins)

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "policy_documents",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(length=128), nullable=False),
    )
    op.create_index("ix_policy_documents_created_at", "policy_documents", ["created_at"])
    op.create_index("ix_policy_documents_sha256", "policy_documents", ["sha256"])


def downgrade() -> None:
    op.drop_index("ix_policy_documents_sha256", table_name="policy_documents")
    op.drop_index("ix_policy_documents_created_at", table_name="policy_documents")
    op.drop_table("policy_documents")
