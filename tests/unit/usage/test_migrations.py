"""The migrations create exactly the schema the SQLModel tables describe, on SQLite and Postgres."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from gateway.usage.db import make_engine, migrate
from tests.unit.usage.pg import pg_available, throwaway_database

LEDGER_TABLES = {
    "requests",
    "attempts",
    "tenants",
    "api_keys",
    "budgets",
    "budget_holds",
    "budget_alerts",
    "policy_changes",
}


def _check(url: str) -> None:
    engine = make_engine(url)
    try:
        migrate(engine)
        migrate(engine)  # idempotent: a second start-up changes nothing
        names = set(inspect(engine).get_table_names())
        assert LEDGER_TABLES <= names
        assert "alembic_version" in names
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
        ours = [d for d in diff if _table_of(d) in LEDGER_TABLES]
        assert ours == [], f"tables and migrations disagree: {ours}"
    finally:
        engine.dispose()


def _table_of(diff: object) -> str | None:
    item = diff[0] if isinstance(diff, list) else diff
    for part in item if isinstance(item, tuple) else ():
        name = getattr(part, "name", None)
        table = getattr(part, "table", None)
        if table is not None:
            return str(table.name)
        if isinstance(name, str) and name in LEDGER_TABLES:
            return name
        if isinstance(part, str) and part in LEDGER_TABLES:
            return part
    return None


def test_sqlite_migrations_match_the_tables(tmp_path: Path) -> None:
    _check(f"sqlite:///{tmp_path / 'ledger.db'}")


@pytest.mark.skipif(not pg_available(), reason="PostgreSQL is not running on 127.0.0.1:5432")
def test_postgres_migrations_match_the_tables() -> None:
    with throwaway_database("mig") as url:
        _check(url)
