"""Throwaway PostgreSQL databases for ledger tests (one per test, so parallel runs never meet)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

ADMIN_DSN = os.environ.get("GECIT_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def pg_available() -> bool:
    try:
        with psycopg.connect(ADMIN_DSN, connect_timeout=2):
            return True
    except psycopg.Error:
        return False


@contextmanager
def throwaway_database(tag: str = "ledger") -> Iterator[str]:
    """Create a fresh database, yield its URL, drop it afterwards."""
    name = f"gecit_{tag}_{os.urandom(4).hex()}"
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = ADMIN_DSN.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        try:
            with psycopg.connect(ADMIN_DSN, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except psycopg.Error:
            pass
