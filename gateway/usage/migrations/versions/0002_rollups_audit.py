"""rollups and audit: usage_daily (daily rollups with a TTFT histogram), audit_log + audit_head

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

N_BUCKETS = 13  # gateway.usage.rollups.N_BUCKETS at the time of this revision
GENESIS = "0" * 64


def _big(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.BigInteger(), nullable=False)


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
    op.create_table(
        "usage_daily",
        sa.Column("day", sa.Date(), nullable=False),
        *[sa.Column(k, sa.String(length=n), nullable=False) for k, n in keys],
        *[
            _big(c)
            for c in (
                "requests",
                "errors",
                "prompt_tokens",
                "completion_tokens",
                "cost_nanos",
                "cost_try_nanos",
            )
        ],
        *[_big(f"ttft_b{i:02d}") for i in range(N_BUCKETS)],
        sa.PrimaryKeyConstraint("day", *[k for k, _ in keys]),
    )
    op.create_table(
        "audit_log",
        sa.Column("seq", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=True),
        sa.Column("policy_hash", sa.String(length=64), nullable=True),
        sa.Column("data_class", sa.String(length=16), nullable=True),
        sa.Column("entities", sa.JSON(), nullable=True),
        sa.Column("rule", sa.String(length=128), nullable=True),
        sa.Column("destination", sa.String(length=128), nullable=True),
        sa.Column("transfer_basis", sa.String(length=128), nullable=True),
        sa.Column("redaction", sa.Boolean(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("seq"),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_log_request_id"), ["request_id"], unique=False)
    head = op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.bulk_insert(head, [{"id": 1, "seq": 0, "hash": GENESIS}])


def downgrade() -> None:
    op.drop_table("audit_head")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_log_request_id"))
    op.drop_table("audit_log")
    op.drop_table("usage_daily")
