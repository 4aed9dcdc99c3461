"""the node of a pooled on-prem backend that served a request: requests.node (nullable: a
backend that is not a pool, a request that never reached one, and older rows stay NULL)

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# the served-by node is as long as a backend's name; the writer cuts longer ones (usage/fit.py)
COLUMN, LENGTH = "node", 128


def upgrade() -> None:
    with op.batch_alter_table("requests") as batch:
        batch.add_column(sa.Column(COLUMN, sa.String(length=LENGTH), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("requests") as batch:
        batch.drop_column(COLUMN)
