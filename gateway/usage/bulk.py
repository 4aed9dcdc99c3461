"""Bulk INSERT of plain row dicts for the ledger writer: one round trip per table per batch and
no per-row SQLAlchemy machinery (issue 7).

The values are converted by the very bind processors SQLAlchemy would apply for the column
types on this dialect (JSON serialisation, SQLite's datetime text and float money, booleans),
looked up once per table and column set, so what is stored is what `conn.execute(insert(t),
rows)` stores. Then PostgreSQL gets one `COPY ... FROM STDIN` (psycopg) and SQLite one
DB-API `executemany`, both on the caller's connection, so inside its transaction. Anything
else (another dialect or driver, rows with differing keys) takes the plain Core path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Table, insert
from sqlalchemy.engine import Connection

Processor = Callable[[Any], Any]
_PLANS: dict[tuple[int, str, tuple[str, ...]], tuple[str, tuple[tuple[int, Processor], ...]]] = {}


def _plan(conn: Connection, table: Table, cols: tuple[str, ...]
          ) -> tuple[str, tuple[tuple[int, Processor], ...]]:
    dialect = conn.dialect
    key = (id(table), dialect.name, cols)
    plan = _PLANS.get(key)
    if plan is None:
        quote = dialect.identifier_preparer.quote
        names = ", ".join(quote(c) for c in cols)
        if dialect.name == "postgresql":
            sql = f"COPY {quote(table.name)} ({names}) FROM STDIN"
        else:
            sql = (f"INSERT INTO {quote(table.name)} ({names}) VALUES "
                   f"({', '.join('?' * len(cols))})")
        procs = []
        for i, c in enumerate(cols):
            proc = table.c[c].type.dialect_impl(dialect).bind_processor(dialect)
            if proc is not None:
                procs.append((i, proc))
        plan = _PLANS[key] = (sql, tuple(procs))
    return plan


def _fast(conn: Connection) -> str | None:
    name, driver = conn.dialect.name, conn.dialect.driver
    if name == "postgresql" and driver == "psycopg":
        return "copy"
    if name == "sqlite" and driver == "pysqlite":
        return "executemany"
    return None


def insert_rows(conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """INSERT `rows` (dicts with the same keys, each a column of `table`) in one statement."""
    if not rows:
        return
    how = _fast(conn)
    cols = tuple(rows[0])
    if how is None or any(c not in table.c for c in cols) \
            or any(len(r) != len(cols) for r in rows):
        conn.execute(insert(table), list(rows))
        return
    sql, procs = _plan(conn, table, cols)
    try:
        params = [[r[c] for c in cols] for r in rows]
    except KeyError:  # same length, other keys
        conn.execute(insert(table), list(rows))
        return
    for values in params:
        for i, proc in procs:
            values[i] = proc(values[i])
    raw = conn.connection.driver_connection
    assert raw is not None
    if how == "copy":
        with raw.cursor() as cur, cur.copy(sql) as copy:
            for values in params:
                copy.write_row(values)
    else:
        cur = raw.cursor()
        try:
            cur.executemany(sql, params)
        finally:
            cur.close()
