"""Bulk INSERT of plain row dicts for the ledger writer: one round trip per table per batch and
no per-row SQLAlchemy machinery (it was most of the ledger writer's CPU).

The values are converted by the very bind processors SQLAlchemy would apply for the column
types on this dialect (JSON serialisation, SQLite's datetime text and float money, booleans),
looked up once per table and column set, so what is stored is what `conn.execute(insert(t),
rows)` stores. Then PostgreSQL gets one `COPY ... FROM STDIN` (psycopg) and SQLite one
DB-API `executemany`, both on the caller's connection, so inside its transaction. Anything
else (another dialect or driver, rows with differing keys) takes the plain Core path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Table, insert
from sqlalchemy.engine import Connection, Dialect
from sqlmodel.sql.sqltypes import UTCDateTime

from gateway.usage.jsoncodec import dumps as compact_dumps

Processor = Callable[[Any], Any]
Plan = tuple[str, tuple[tuple[int, Processor], ...]]
# a table's plans live in its `info` (SQLAlchemy's place for a user's data on a schema item),
# as long as the table: one per dialect, column set and JSON spelling
_INFO_KEY = "gecit.bulk_plans"


def _plan(
    conn: Connection, table: Table, cols: tuple[str, ...], compact_json: bool = False
) -> Plan:
    dialect = conn.dialect
    plans: dict[tuple[str, tuple[str, ...], bool], Plan] = table.info.setdefault(_INFO_KEY, {})
    key = (dialect.name, cols, compact_json)
    plan = plans.get(key)
    if plan is None:
        quote = dialect.identifier_preparer.quote
        names = ", ".join(quote(c) for c in cols)
        if dialect.name == "postgresql":
            sql = f"COPY {quote(table.name)} ({names}) FROM STDIN"
        else:
            sql = f"INSERT INTO {quote(table.name)} ({names}) VALUES ({', '.join('?' * len(cols))})"
        procs = []
        for i, c in enumerate(cols):
            impl = table.c[c].type.dialect_impl(dialect)
            proc = impl.bind_processor(dialect)
            if proc is not None:
                procs.append((i, _quick(impl, proc, dialect, compact_json)))
        plan = plans[key] = (sql, tuple(procs))
    return plan


_SQLITE_DATETIME = (
    "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"
)


def _sqlite_datetime(impl: Any) -> bool:
    return isinstance(impl, DateTime) and getattr(impl, "_storage_format", None) == _SQLITE_DATETIME


def _quick(impl: Any, proc: Processor, dialect: Dialect, compact_json: bool) -> Processor:
    """The same conversion as SQLAlchemy's SQLite bind processor `proc` for the common
    values, written in C where it can be (these ran once per row and column: ~2 µs per
    timestamp); anything else still goes to `proc`. With `compact_json` (the ledger writer's
    own rows) a dict for a JSON column is written by jsoncodec.dumps: the same value read
    back, spelled without json.dumps' spaces."""
    if isinstance(impl, JSON) and compact_json:
        null = proc(None)  # what None becomes ('null', or SQL NULL with none_as_null)

        def json_text(value: Any) -> Any:
            if type(value) is dict:
                return compact_dumps(value)
            if value is None:
                return null
            return proc(value)

        return json_text
    if dialect.name != "sqlite":
        return proc
    if type(impl) is UTCDateTime and _sqlite_datetime(impl.impl_instance.dialect_impl(dialect)):
        # SQLModel's UTCDateTime: astimezone(UTC), then the SQLite text below; a UTC value
        # is its own astimezone(UTC)
        def utc_datetime_text(value: Any) -> Any:
            if type(value) is datetime and value.tzinfo is UTC:
                return value.isoformat(" ", "microseconds")[:26]
            return proc(value)

        return utc_datetime_text
    if _sqlite_datetime(impl):
        # format_ % {year..microsecond} of the value's own fields, whatever its tzinfo:
        # isoformat's first 26 characters (years are always 4 digits)
        def datetime_text(value: Any) -> Any:
            if type(value) is datetime:
                return value.isoformat(" ", "microseconds")[:26]
            return proc(value)

        return datetime_text
    if isinstance(impl, Boolean):

        def boolean(value: Any) -> Any:
            if value is True:
                return 1
            if value is False:
                return 0
            return proc(value)

        return boolean
    return proc


def _fast(conn: Connection) -> str | None:
    name, driver = conn.dialect.name, conn.dialect.driver
    if name == "postgresql" and driver == "psycopg":
        return "copy"
    if name == "sqlite" and driver == "pysqlite":
        return "executemany"
    return None


def insert_rows(
    conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]], *, compact_json: bool = False
) -> None:
    """INSERT `rows` (dicts with the same keys, each a column of `table`) in one statement;
    `compact_json`: JSON columns spelled by jsoncodec.dumps (see _quick)."""
    if not rows:
        return
    how = _fast(conn)
    cols = tuple(rows[0])
    if how is None or any(c not in table.c for c in cols) or len(set(map(len, rows))) != 1:
        conn.execute(insert(table), list(rows))
        return
    sql, procs = _plan(conn, table, cols, compact_json)
    try:  # column by column: the loops run in C, only the type conversions in Python
        columns = (
            list(zip(*map(itemgetter(*cols), rows), strict=True))
            if len(cols) > 1
            else [tuple(r[cols[0]] for r in rows)]
        )
    except KeyError:  # same length, other keys
        conn.execute(insert(table), list(rows))
        return
    for i, proc in procs:
        columns[i] = tuple(map(proc, columns[i]))
    params = list(zip(*columns, strict=True))
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


def _placeholder(conn: Connection) -> str:
    return "%s" if conn.dialect.name == "postgresql" else "?"


def select_in(
    conn: Connection,
    table: Table,
    column: str,
    values: Sequence[Any],
    out: Sequence[str] | None = None,
    chunk: int = 500,
) -> list[tuple[Any, ...]]:
    """`SELECT out... FROM table WHERE column IN values` as driver SQL on the caller's
    connection (SQLAlchemy's expanding IN costs ~40 µs per 500 values to build and render);
    `chunk` values per query. On SQLite result values are converted by the columns' result
    processors, as SQLAlchemy would (e.g. REAL money back to Decimal); on PostgreSQL they are
    psycopg's, which is what SQLAlchemy gives for strings and NUMERIC (the only columns read
    this way) but not for a TypeDecorator with its own result conversion."""
    if not values:
        return []
    dialect = conn.dialect
    quote = dialect.identifier_preparer.quote
    names = tuple(out or (column,))
    head = (
        f"SELECT {', '.join(quote(n) for n in names)} FROM {quote(table.name)} "
        f"WHERE {quote(column)} "
    )
    # psycopg already returns what SQLAlchemy would (Decimal for NUMERIC, its result
    # processors are None there); SQLite's need converting (REAL money -> Decimal)
    conv = [
        table.c[n].type.dialect_impl(dialect).result_processor(dialect, None)
        if dialect.name == "sqlite"
        else None
        for n in names
    ]
    convert = any(p is not None for p in conv)
    found: list[tuple[Any, ...]] = []
    for i in range(0, len(values), chunk):
        part = list(values[i : i + chunk])
        if dialect.name == "postgresql":
            rows = conn.exec_driver_sql(head + "= ANY(%s)", (part,)).all()
        else:
            rows = conn.exec_driver_sql(
                head + f"IN ({', '.join('?' * len(part))})", tuple(part)
            ).all()
        if convert:
            found.extend(
                tuple(v if p is None else p(v) for p, v in zip(conv, r, strict=True)) for r in rows
            )
        else:
            found.extend(tuple(r) for r in rows)
    return found


def upsert_sums(
    conn: Connection,
    table: Table,
    keys: Sequence[str],
    sums: Sequence[str],
    rows: Sequence[Sequence[Any]],
) -> None:
    """`INSERT ... ON CONFLICT (keys) DO UPDATE SET s = table.s + excluded.s` for each sum
    column, executemany'd as driver SQL: what rollups.upsert did with a SQLAlchemy statement
    it built and compiled per batch. `rows` hold the key values then the sums, in order; the
    columns' bind processors convert them as SQLAlchemy would (SQLite's dates as text)."""
    if not rows:
        return
    dialect = conn.dialect
    if dialect.name not in ("postgresql", "sqlite"):
        raise NotImplementedError(f"upserts need SQLite or PostgreSQL, not {dialect.name}")
    quote = dialect.identifier_preparer.quote
    tname = quote(table.name)
    cols = [*keys, *sums]
    mark = _placeholder(conn)
    sql = (
        f"INSERT INTO {tname} ({', '.join(quote(c) for c in cols)}) VALUES "
        f"({', '.join([mark] * len(cols))}) ON CONFLICT "
        f"({', '.join(quote(k) for k in keys)}) DO UPDATE SET "
        + ", ".join(f"{quote(c)} = {tname}.{quote(c)} + excluded.{quote(c)}" for c in sums)
    )
    procs = [
        (i, p)
        for i, c in enumerate(cols)
        if (p := table.c[c].type.dialect_impl(dialect).bind_processor(dialect)) is not None
    ]
    params = []
    for r in rows:
        values = list(r)
        for i, proc in procs:
            values[i] = proc(values[i])
        params.append(tuple(values))
    conn.exec_driver_sql(sql, params)
