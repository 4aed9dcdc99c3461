"""cost-attribution tags: requests.tags (`key=value,...`, nullable: untagged and older rows
stay NULL) and the daily rollups per tag, usage_daily_tags

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KEYS = {
    "tenant": 128,
    "app": 128,
    "backend": 128,
    "model": 256,
    "data_class": 16,
    "zone": 16,
    "currency": 3,
    "tag_key": 32,
    "tag_value": 64,
}
_SUMS = (
    "requests",
    "errors",
    "prompt_tokens",
    "completion_tokens",
    "cost_nanos",
    "cost_try_nanos",
    *(f"ttft_b{i:02d}" for i in range(13)),
    "unpriced_requests",
    "unpriced_prompt_tokens",
    "unpriced_completion_tokens",
)


def upgrade() -> None:
    op.add_column("requests", sa.Column("tags", sa.String(length=1024), nullable=True))
    op.create_table(
        "usage_daily_tags",
        sa.Column("day", sa.Date(), primary_key=True),
        *[sa.Column(k, sa.String(length=n), primary_key=True) for k, n in _KEYS.items()],
        *[
            sa.Column(
                c,
                sa.BigInteger(),
                nullable=False,
                server_default="0" if c.startswith("unpriced_") else None,
            )
            for c in _SUMS
        ],
    )


def downgrade() -> None:
    op.drop_table("usage_daily_tags")
    with op.batch_alter_table("requests") as batch:
        batch.drop_column("tags")
