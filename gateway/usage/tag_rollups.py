"""Daily usage per cost-attribution tag: the daily rollup's key plus (tag_key, tag_value).

A request with tags `project=atlas,feature=search` adds its sums to one row per tag, so a
report grouped by `tag:project` reads the rows whose `tag_key` is `project` and has the same
figures as any other report (cost in USD and TRY, on-prem share, cloud reference, TTFT). A
request without the tag is in no row of that grouping. Written by `TagRollupListener` in the
ledger write transaction, like the daily rollups.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import Column, Date, String, Table, delete, select
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from gateway.usage.bulk import upsert_sums
from gateway.usage.rollups import (
    _KEY_LENGTHS,
    _ROW_FIELDS,
    KEY_COLUMNS,
    SUM_COLUMNS,
    UNPRICED_COLUMNS,
    Delta,
    ZoneOf,
    _count_column,
    aggregate_rows,
)
from gateway.usage.tables import RequestRow

TAG_KEY_CHARS = 32
TAG_VALUE_CHARS = 64
TAG_KEY_COLUMNS: tuple[str, ...] = (*KEY_COLUMNS, "tag_key", "tag_value")

TAG_DAILY = Table(
    "usage_daily_tags",
    SQLModel.metadata,
    Column("day", Date, primary_key=True),
    *[Column(k, String(n), primary_key=True) for k, n in _KEY_LENGTHS.items()],
    Column("tag_key", String(TAG_KEY_CHARS), primary_key=True),
    Column("tag_value", String(TAG_VALUE_CHARS), primary_key=True),
    *[_count_column(c, server_default=c in UNPRICED_COLUMNS) for c in SUM_COLUMNS],
)


def parse_tags(text: str | None) -> list[tuple[str, str]]:
    """The pairs of a ledger `tags` value; a malformed part (a hand-edited row) is skipped."""
    out = []
    for part in (text or "").split(","):
        key, sep, value = part.partition("=")
        if sep and key and value:
            out.append((key[:TAG_KEY_CHARS], value[:TAG_VALUE_CHARS]))
    return out


def aggregate_tag_rows(
    rows: Sequence[Mapping[str, Any]], zone_of: ZoneOf
) -> dict[tuple[Any, ...], Delta]:
    tagged: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for r in rows:
        for pair in parse_tags(r.get("tags")):
            tagged.setdefault(pair, []).append(r)
    out: dict[tuple[Any, ...], Delta] = {}
    for (key, value), group in tagged.items():
        for k, d in aggregate_rows(group, zone_of).items():
            out[(*k, key, value)] = d
    return out


def upsert_tags(conn: Connection, deltas: dict[tuple[Any, ...], Delta]) -> None:
    upsert_sums(
        conn, TAG_DAILY, TAG_KEY_COLUMNS, SUM_COLUMNS, [(*k, *d.sums()) for k, d in deltas.items()]
    )


class TagRollupListener:
    """A recorder batch listener (the `write_fresh` form): the batch's new ledger rows that
    carry tags add to their tags' rows."""

    def __init__(self, zone_of: ZoneOf) -> None:
        self._zone_of = zone_of

    def write_fresh(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        tagged = [r for r in rows if r.get("tags")]
        if tagged:
            upsert_tags(conn, aggregate_tag_rows(tagged, self._zone_of))


def rebuild_tags(
    conn: Connection,
    zone_of: ZoneOf,
    where: Sequence[Any],
    start: date | None,
    end: date | None,
) -> None:
    """Recompute the tag rollups of the UTC days [start, end] (all when None) from the tagged
    ledger rows `where` selects, in the caller's transaction (the daily rollups' rebuild)."""
    req = RequestRow.__table__  # type: ignore[attr-defined]
    days = []
    if start is not None:
        days.append(TAG_DAILY.c.day >= start)
    if end is not None:
        days.append(TAG_DAILY.c.day <= end)
    conn.execute(delete(TAG_DAILY).where(*days))
    cols = [req.c[f] for f in (*_ROW_FIELDS, "tags")]
    stmt = select(*cols).where(*where, req.c.tags.is_not(None))
    batch: list[Mapping[str, Any]] = []
    for row in conn.execute(stmt).mappings():
        batch.append(dict(row))
        if len(batch) == 10_000:
            upsert_tags(conn, aggregate_tag_rows(batch, zone_of))
            batch = []
    if batch:
        upsert_tags(conn, aggregate_tag_rows(batch, zone_of))
