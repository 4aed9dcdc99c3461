"""Ledger entries: the journaled form of one finished request, and the idempotent batch write.

An entry is plain JSON (money as decimal strings) so it survives the journal unchanged. The
write inserts only ids not already in the ledger and settles their budget holds in the same
transaction, so replaying a journal after a crash never double-counts a row or a spend.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Protocol, Union, runtime_checkable

from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session

from gateway.usage.bulk import insert_rows, select_in
from gateway.usage.fit import fit_entry
from gateway.usage.pricing import Cost
from gateway.usage.records import UsageRecord
from gateway.usage.tables import AttemptRow, RequestRow

Entry = dict[str, Any]
Row = Mapping[str, Any]
Settle = Callable[[Connection, Sequence[Entry]], None]
BatchListener = Union[Callable[[Session, Sequence[RequestRow]], None], "FreshListener"]
"""Called inside the ledger write transaction, before the batch's rows are added (so it can
tell new request ids from replayed ones); e.g. 6b's daily rollups. It must not commit.
A listener that also has `write_fresh` (see FreshListener) is called that way instead."""


@runtime_checkable
class FreshListener(Protocol):
    """The cheap listener form: called inside the ledger transaction with the request-row
    dicts of the batch that are NOT in the ledger yet (write_entries found them with one
    query), so the listener needs no query of its own and no ORM object per row."""

    def write_fresh(self, conn: Connection, rows: Sequence[Row]) -> None: ...


_REQUESTS = RequestRow.__table__  # type: ignore[attr-defined]
_ATTEMPTS = AttemptRow.__table__  # type: ignore[attr-defined]


def make_entry(rec: UsageRecord, cost: Cost, tokens_per_s: float | None) -> Entry:
    """The entry of a finished request, its values fitted to the ledger's columns."""
    amount, rate = cost.amount, cost.fx_rate_try  # Cost.known / amount_try inlined (event loop)
    amount_try = cost.amount_try if amount is not None and rate is not None else None
    return fit_entry(
        {
            "id": rec.request_id,
            "created_at": rec.created_at,
            "tenant": rec.tenant,
            "app": rec.app,
            "key_id": rec.key_id,
            "alias": rec.alias,
            "backend": rec.backend,
            "model": rec.model,
            "data_class": rec.data_class,
            "sensitivity_band": rec.sensitivity_band,
            "rule": rec.rule,
            "status": rec.status,
            "error_kind": rec.error_kind,
            "prompt_tokens": rec.prompt_tokens,
            "completion_tokens": rec.completion_tokens,
            "cached_tokens": rec.cached_tokens,
            "estimated": rec.estimated,
            "cost": None if amount is None else str(amount),
            "currency": cost.currency if amount is not None else None,
            "fx_rate_try": None if rate is None else str(rate),
            "cost_try": None if amount_try is None else str(amount_try),
            "price_source": cost.source,
            "streamed": rec.streamed,
            "latency_ms": rec.latency_ms,
            "ttft_ms": rec.ttft_ms,
            "tokens_per_s": tokens_per_s,
            "trace": rec.trace,
            "tags": rec.tags,
            "node": rec.node,
            "attempts": [
                {
                    "ordinal": a.ordinal,
                    "backend": a.backend,
                    "outcome": a.outcome,
                    "failure_kind": a.failure_kind,
                    "status": a.status,
                    "latency_ms": a.latency_ms,
                }
                for a in rec.attempts
            ],
        }
    )


def entry_cost(entry: Entry, field: str = "cost") -> Decimal | None:
    raw = entry.get(field)
    return None if raw is None else Decimal(raw)


def _request_row(e: Entry) -> dict[str, Any]:
    """The requests-table row of an entry: the entry's own keys in its order (a dict copy,
    cheaper than rebuilding it key by key), with the timestamp, money and attempt count
    converted."""
    row = e.copy()
    row["created_at"] = datetime.fromtimestamp(float(e["created_at"]), UTC)
    for k in ("cost", "fx_rate_try", "cost_try"):
        raw = e.get(k)
        row[k] = None if raw is None else Decimal(raw)
    row["attempts"] = len(e.get("attempts") or ())
    row.setdefault("tags", None)  # entries journaled before requests had tags
    row.setdefault("node", None)  # ... or a node
    return row


def existing_ids(conn: Connection, ids: Sequence[str]) -> set[str]:
    """The ids of `ids` already in the ledger (one query per 500 ids)."""
    return {r[0] for r in select_in(conn, _REQUESTS, "id", ids)}


def write_entries(
    engine: Engine,
    entries: Sequence[Entry],
    settle: Settle | None = None,
    listeners: Sequence[BatchListener] = (),
) -> int:
    """Insert the entries whose id is not in the ledger yet; returns how many were new.

    One transaction and, per batch: one query for the ids already written, one INSERT per
    table (bulk.insert_rows: COPY / executemany of plain dicts, no ORM object per row), the
    listeners' statements (rollups: one upsert per table for the batch's distinct keys;
    audit: one INSERT) and the budget settlement."""
    unique: dict[str, Entry] = {}
    for e in entries:
        unique.setdefault(str(e["id"]), e)
    if not unique:
        return 0
    with engine.begin() as conn:
        existing = existing_ids(conn, list(unique))
        new = [e for i, e in unique.items() if i not in existing]
        if not new:
            return 0
        rows = [_request_row(e) for e in new]
        legacy = [f for f in listeners if not isinstance(f, FreshListener)]
        if legacy:  # an old-style listener: ORM rows, before the rows are added
            orm = [RequestRow(**r) for r in rows]
            with Session(bind=conn) as session:
                for old in legacy:
                    old(session, orm)
        for fresh in listeners:
            if isinstance(fresh, FreshListener):
                fresh.write_fresh(conn, rows)
        insert_rows(conn, _REQUESTS, rows, compact_json=True)
        attempts = [{"request_id": e["id"], **a} for e in new for a in e.get("attempts") or ()]
        insert_rows(conn, _ATTEMPTS, attempts)
        if settle is not None:
            settle(conn, new)
    return len(new)
