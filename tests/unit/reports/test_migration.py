"""Migrations 0002/0003 create exactly the rollup and audit tables the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

MINE = {"usage_daily", "usage_monthly", "audit_log", "audit_head"}


def _table(diff: object) -> str | None:
    item = diff[0] if isinstance(diff, list) else diff
    for part in item if isinstance(item, tuple) else ():
        for attr in ("name", "table"):
            v = getattr(part, attr, None)
            name = getattr(v, "name", v)
            if isinstance(name, str) and name in MINE:
                return name
        if isinstance(part, str) and part in MINE:
            return part
    return None


def test_schema_matches_models(engine: Engine) -> None:
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    assert [d for d in diff if _table(d) is not None] == []
    with engine.connect() as conn:
        from sqlalchemy import inspect

        assert MINE <= set(inspect(conn).get_table_names())
