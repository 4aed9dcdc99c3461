"""unpriced counts in the rollups: usage_daily / usage_monthly count the requests whose cost is
unknown (NULL in the ledger) and their tokens, so a report can flag a cost as incomplete

Rows already in the rollups are back-filled from the ledger's NULL-cost rows (the zone is not in
the ledger: a ledger group goes to the rollup row of the same day, tenant, app, backend, model,
data class and currency, the lowest zone if several exist). Ledger rows that no rollup row counts
(never rolled up) add nothing, as before.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("usage_daily", "usage_monthly")
COLUMNS = ("unpriced_requests", "unpriced_prompt_tokens", "unpriced_completion_tokens")
KEYS = ("tenant", "app", "backend", "model", "data_class", "currency")  # all but day and zone


def upgrade() -> None:
    for table in TABLES:
        for name in COLUMNS:
            op.add_column(
                table, sa.Column(name, sa.BigInteger(), nullable=False, server_default="0")
            )
    _backfill(op.get_bind())


def _backfill(bind: sa.engine.Connection) -> None:
    pg = bind.dialect.name == "postgresql"
    day = "date(timezone('UTC', r.created_at))" if pg else "date(r.created_at)"
    month = "CAST(date_trunc('month', d.day) AS DATE)" if pg else "date(d.day, 'start of month')"
    ledger_keys = (
        "coalesce(r.tenant, '')",
        "coalesce(r.app, '')",
        "coalesce(r.backend, '')",
        "coalesce(r.model, '')",
        "coalesce(r.data_class, '')",
        "coalesce(r.currency, 'USD')",
    )
    agg = (
        f"SELECT {day} AS day, "
        + ", ".join(f"{e} AS {k}" for e, k in zip(ledger_keys, KEYS, strict=True))
        + ", count(*) AS n, sum(r.prompt_tokens) AS p, sum(r.completion_tokens) AS c"
        " FROM requests r WHERE r.cost IS NULL GROUP BY "
        + ", ".join(str(i) for i in range(1, len(KEYS) + 2))
    )
    same = " AND ".join(f"u.{k} = usage_daily.{k}" for k in KEYS)
    bind.execute(
        sa.text(
            "UPDATE usage_daily SET unpriced_requests = a.n, unpriced_prompt_tokens = a.p, "
            f"unpriced_completion_tokens = a.c FROM ({agg}) a WHERE usage_daily.day = a.day AND "
            + " AND ".join(f"usage_daily.{k} = a.{k}" for k in KEYS)
            + " AND usage_daily.zone = (SELECT min(u.zone) FROM usage_daily u"
            f" WHERE u.day = usage_daily.day AND {same})"
        )
    )
    sums = (
        f"SELECT {month} AS month, d.zone, "
        + ", ".join(f"d.{k}" for k in KEYS)
        + ", "
        + ", ".join(f"sum(d.{c}) AS {c}" for c in COLUMNS)
        + " FROM usage_daily d WHERE d.unpriced_requests > 0 GROUP BY "
        + ", ".join(str(i) for i in range(1, len(KEYS) + 3))
    )
    bind.execute(
        sa.text(
            "UPDATE usage_monthly SET "
            + ", ".join(f"{c} = a.{c}" for c in COLUMNS)
            + f" FROM ({sums}) a WHERE usage_monthly.month = a.month"
            " AND usage_monthly.zone = a.zone AND "
            + " AND ".join(f"usage_monthly.{k} = a.{k}" for k in KEYS)
        )
    )


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch_op:
            for name in reversed(COLUMNS):
                batch_op.drop_column(name)
