"""Migrated throwaway ledgers (SQLite file per test; PostgreSQL database per test when up)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import Engine

from gateway.usage.db import make_engine, migrate

ADMIN_DSN = os.environ.get("GECIT_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _pg_up() -> bool:
    try:
        with psycopg.connect(ADMIN_DSN, connect_timeout=2):
            return True
    except psycopg.Error:
        return False


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.db'}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    if not _pg_up():
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    name = f"gecit_reports_{os.urandom(4).hex()}"
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{ADMIN_DSN.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    name = "sqlite_url" if request.param == "sqlite" else "pg_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    migrate(eng)
    try:
        yield eng
    finally:
        eng.dispose()
