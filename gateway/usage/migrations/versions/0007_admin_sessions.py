"""admin_sessions: server-side browser sessions of the admin pages (the cookie's token hashed)

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _text(name: str, length: int, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.String(length=length), nullable=nullable)


def _when(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "admin_sessions",
        sa.Column("token_hash", sa.String(length=64), primary_key=True),
        *(_text(n, size) for n, size in (("csrf", 64), ("actor", 128), ("key_id", 64))),
        _text("tenant", 128, nullable=True),
        *(_when(n) for n in ("created_at", "expires_at")),
        _when("revoked_at", nullable=True),
    )
    op.create_index("ix_admin_sessions_key_id", "admin_sessions", ["key_id"])
    op.create_index("ix_admin_sessions_expires_at", "admin_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_admin_sessions_expires_at", table_name="admin_sessions")
    op.drop_index("ix_admin_sessions_key_id", table_name="admin_sessions")
    op.drop_table("admin_sessions")
