"""oidc_logins: OIDC sign-ins in progress (hashes of the state and of the browser's
pre-session cookie), each used once by its callback

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "oidc_logins",
        sa.Column("state_hash", sa.String(length=64), primary_key=True),
        sa.Column("browser_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_oidc_logins_expires_at", "oidc_logins", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_oidc_logins_expires_at", table_name="oidc_logins")
    op.drop_table("oidc_logins")
