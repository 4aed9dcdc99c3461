"""Append-only, hash-chained audit log of routing decisions, policy changes and API key changes
(KVKK.md §3.2).

Every entry stores `prev_hash` and `hash = sha256(canonical JSON of its fields + prev_hash)`, so
editing, deleting or re-ordering any entry breaks the chain from that entry on; `verify()` names
the first broken one. No prompt or completion text and no identifier values are ever stored:
only entity TYPES and counts.

Appends serialise across replicas through a single chain-head row (`audit_head`, id 1): on
PostgreSQL it is read `SELECT ... FOR UPDATE`; on SQLite the head is touched with an UPDATE first,
which takes the database's single write lock before the head is read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, DateTime, Table, insert, select, update
from sqlalchemy.engine import Connection, Engine, RowMapping
from sqlmodel import Field, SQLModel

from gateway.core.clock import Clock, SystemClock
from gateway.usage.audit_hash import chain_hash, dumps_canonical, utc_iso
from gateway.usage.bulk import insert_rows

GENESIS = "0" * 64
HEAD_ID = 1


class AuditRow(SQLModel, table=True):
    __tablename__ = "audit_log"

    seq: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    kind: str = Field(max_length=16)  # decision | policy_change | key_change
    request_id: str | None = Field(default=None, index=True, max_length=64)
    policy_hash: str | None = Field(default=None, max_length=64)
    data_class: str | None = Field(default=None, max_length=16)
    entities: dict[str, int] | None = Field(default=None, sa_column=Column(JSON))
    rule: str | None = Field(default=None, max_length=128)
    destination: str | None = Field(default=None, max_length=128)
    transfer_basis: str | None = Field(default=None, max_length=128)
    redaction: bool = False
    detail: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)


class AuditHeadRow(SQLModel, table=True):
    """The chain head: the last entry's seq and hash. Locked by every append."""

    __tablename__ = "audit_head"

    id: int = Field(primary_key=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    hash: str = Field(max_length=64)


@dataclass(frozen=True, slots=True)
class DecisionEntry:
    """One routing decision. `destination` is the backend that served (None when blocked)."""

    request_id: str
    policy_hash: str | None
    data_class: str | None
    entities: Mapping[str, int]
    rule: str | None
    destination: str | None
    transfer_basis: str | None
    redaction: bool
    blocked: bool = False
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PolicyChangeEntry:
    policy_hash: str
    previous_hash: str | None
    source: str
    accepted: bool = True
    actor: str | None = None
    problems: int = 0
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class KeyChangeEntry:
    """A key created, revoked or rotated (`replaces`: the rotated key's id). Never the secret
    or its hash: who may call the gateway, not how."""

    action: str  # create | revoke | rotate
    key_id: str
    tenant: str
    app: str
    scope: str
    actor: str | None
    replaces: str | None = None
    at: datetime | None = None


@dataclass(frozen=True, slots=True)
class VerifyResult:
    ok: bool
    checked: int
    broken_seq: int | None = None
    broken_request_id: str | None = None
    reason: str | None = None

    def message(self) -> str:
        if self.ok:
            return f"audit chain OK: {self.checked} entries verified"
        who = f" (request {self.broken_request_id})" if self.broken_request_id else ""
        where = f"entry #{self.broken_seq}{who}" if self.broken_seq is not None else "chain head"
        return f"audit chain BROKEN at {where}: {self.reason}"


def sa_table(name: str) -> Table:
    return SQLModel.metadata.tables[name]


def _tables() -> tuple[Table, Table]:
    return AuditRow.__table__, AuditHeadRow.__table__  # type: ignore[attr-defined]


@dataclass
class AuditLog:
    engine: Engine
    clock: Clock = field(default_factory=SystemClock)

    def append_decisions(self, entries: Sequence[DecisionEntry]) -> int:
        """Chain and write a batch of decisions in one transaction; returns the last seq."""
        return self._append([self._decision_fields(e) for e in entries])

    def append_policy_change(self, entry: PolicyChangeEntry) -> int:
        return self._append([self._policy_change_fields(entry)])

    def append_policy_change_in(self, conn: Connection, entry: PolicyChangeEntry) -> int:
        """As append_policy_change, inside the caller's transaction (the policy_changes row)."""
        return self._append_conn(conn, [self._policy_change_fields(entry)])

    def _policy_change_fields(self, entry: PolicyChangeEntry) -> dict[str, Any]:
        detail = {
            "previous_hash": entry.previous_hash,
            "source": entry.source,
            "accepted": entry.accepted,
            "actor": entry.actor,
            "problems": entry.problems,
        }
        return self._base("policy_change", entry.at) | {
            "policy_hash": entry.policy_hash,
            "detail": detail,
        }

    def append_key_change_in(self, conn: Connection, entry: KeyChangeEntry) -> int:
        """A key change, inside the transaction that makes it: never one without the other."""
        detail = {
            "action": entry.action,
            "key_id": entry.key_id,
            "tenant": entry.tenant,
            "app": entry.app,
            "scope": entry.scope,
            "actor": entry.actor,
            "replaces": entry.replaces,
        }
        return self._append_conn(conn, [self._base("key_change", entry.at) | {"detail": detail}])

    def append_in(self, conn: Connection, entries: Sequence[DecisionEntry]) -> int:
        """As append_decisions, inside the caller's transaction (e.g. the ledger write)."""
        return self._append_conn(conn, [self._decision_fields(e) for e in entries])

    def _base(self, kind: str, at: datetime | None) -> dict[str, Any]:
        when = at or datetime.fromtimestamp(self.clock.now(), UTC)
        return {
            "at": when,
            "kind": kind,
            "request_id": None,
            "policy_hash": None,
            "data_class": None,
            "entities": None,
            "rule": None,
            "destination": None,
            "transfer_basis": None,
            "redaction": False,
            "detail": None,
        }

    def _decision_fields(self, e: DecisionEntry) -> dict[str, Any]:
        return self._base("decision", e.at) | {
            "request_id": e.request_id,
            "policy_hash": e.policy_hash,
            "data_class": e.data_class,
            "entities": {str(k): int(v) for k, v in sorted(e.entities.items())},
            "rule": e.rule,
            "destination": e.destination,
            "transfer_basis": e.transfer_basis,
            "redaction": bool(e.redaction),
            "detail": {"blocked": True} if e.blocked else None,
        }

    def _append(self, rows: list[dict[str, Any]]) -> int:
        with self.engine.begin() as conn:
            return self._append_conn(conn, rows)

    def _append_conn(self, conn: Connection, rows: list[dict[str, Any]]) -> int:
        seq, prev = lock_head(conn)
        if not rows:
            return seq
        log, _ = _tables()
        for row in rows:
            seq += 1
            # the hash covers what the database will hand back: microsecond UTC timestamps
            row["at"] = _normalise(row["at"])
            row["seq"] = seq
            row["prev_hash"] = prev
            row["hash"] = prev = chain_hash(row, prev)
        insert_rows(conn, log, rows)
        _set_head(conn, seq, prev)
        return seq

    def verify(self, batch: int = 5000) -> VerifyResult:
        with self.engine.connect() as conn:
            return verify_chain(conn, batch)


def _normalise(ts: datetime) -> datetime:
    if ts.tzinfo is UTC:
        return ts
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=UTC)
    return ts.astimezone(UTC)


def _set_head(conn: Connection, seq: int, hash_: str) -> None:
    name = conn.dialect.name
    if name in ("sqlite", "postgresql"):
        m = "?" if name == "sqlite" else "%s"
        conn.exec_driver_sql(
            f"UPDATE audit_head SET seq={m}, hash={m} WHERE audit_head.id = {m}",
            (seq, hash_, HEAD_ID),
        )
        return
    _, head = _tables()
    conn.execute(update(head).where(head.c.id == HEAD_ID).values(seq=seq, hash=hash_))


def lock_head(conn: Connection) -> tuple[int, str]:
    """Take the chain lock and return (last seq, last hash); creates the head when missing."""
    _, head = _tables()
    # driver SQL: what SQLAlchemy rendered for these Core statements, without building and
    # compiling them at every ledger batch
    if conn.dialect.name == "sqlite":
        # an UPDATE takes SQLite's write lock now, before the head is read
        conn.exec_driver_sql(
            "UPDATE audit_head SET seq=audit_head.seq WHERE audit_head.id = ?", (HEAD_ID,)
        )
        row = conn.exec_driver_sql(
            "SELECT audit_head.seq, audit_head.hash FROM audit_head WHERE audit_head.id = ?",
            (HEAD_ID,),
        ).first()
    elif conn.dialect.name == "postgresql":
        row = conn.exec_driver_sql(
            "SELECT audit_head.seq, audit_head.hash FROM audit_head "
            "WHERE audit_head.id = %s FOR UPDATE",
            (HEAD_ID,),
        ).first()
    else:
        row = conn.execute(
            select(head.c.seq, head.c.hash).where(head.c.id == HEAD_ID).with_for_update()
        ).first()
    if row is None:
        conn.execute(insert(head).values(id=HEAD_ID, seq=0, hash=GENESIS))
        row = conn.execute(
            select(head.c.seq, head.c.hash).where(head.c.id == HEAD_ID).with_for_update()
        ).first()
        assert row is not None
    return int(row[0]), str(row[1])


def _rows(
    conn: Connection, batch: int, after: int = 0, upto: int | None = None
) -> Iterator[RowMapping]:
    log, _ = _tables()
    last = after
    while True:
        q = select(log).where(log.c.seq > last)
        if upto is not None:
            q = q.where(log.c.seq <= upto)
        chunk = conn.execute(q.order_by(log.c.seq).limit(batch)).mappings().all()
        if not chunk:
            return
        yield from chunk
        last = int(chunk[-1]["seq"])


def _head(conn: Connection) -> tuple[int, str]:
    _, head = _tables()
    h = conn.execute(select(head.c.seq, head.c.hash).where(head.c.id == HEAD_ID)).first()
    return (int(h[0]), str(h[1])) if h is not None else (0, GENESIS)


def verify_chain(conn: Connection, batch: int = 5000) -> VerifyResult:
    """Walk the chain in seq order; the first entry whose link or hash does not hold is named.

    Safe while the gateway keeps appending: the head is read FIRST and the log walked up to it
    (an append commits its entries and the head together), then entries appended meanwhile
    are walked up to the new head. Entries past a head that no longer moves are an error."""
    prev, expected, checked = GENESIS, 1, 0
    head_seq, head_hash = _head(conn)
    while True:
        for row in _rows(conn, batch, after=expected - 1, upto=head_seq):
            seq, rid = int(row["seq"]), row["request_id"]
            reason = None
            if seq != expected:
                reason = f"sequence gap: expected #{expected}, found #{seq} (entries removed)"
            elif row["prev_hash"] != prev:
                reason = "prev_hash does not match the previous entry's hash"
            elif chain_hash(dict(row), prev) != row["hash"]:
                reason = "content does not match its hash (entry edited)"
            if reason is not None:
                return VerifyResult(False, checked, seq, rid, reason)
            prev, expected, checked = row["hash"], seq + 1, checked + 1
        if head_seq != expected - 1 or head_hash != prev:
            return VerifyResult(
                False,
                checked,
                None,
                None,
                f"head says #{head_seq} but the log ends at #{expected - 1} "
                "(entries removed from the end, or the head was edited)",
            )
        log, _ = _tables()
        beyond = conn.execute(select(log.c.seq).where(log.c.seq > head_seq).limit(1)).first()
        if beyond is None:
            return VerifyResult(True, checked)
        new_seq, new_hash = _head(conn)
        if new_seq <= head_seq:
            return VerifyResult(
                False,
                checked,
                int(beyond[0]),
                None,
                f"entries after the chain head #{head_seq} (added around it)",
            )
        head_seq, head_hash = new_seq, new_hash


def _entities(trace: Mapping[str, Any] | None) -> dict[str, int]:
    sens = (trace or {}).get("sensitivity") or {}
    out: dict[str, int] = {}
    for item in sens.get("entities") or ():
        if (type(item) is dict or isinstance(item, Mapping)) and "type" in item:
            kind = str(item["type"])
            out[kind] = out.get(kind, 0) + int(item.get("count", 1))
    return out


@dataclass
class AuditListener:
    """A recorder batch listener: chains one decision entry per NEW request of the batch,
    inside the ledger transaction (so a request is in both or in neither). The trace gives
    class, rule, redaction and entity counts; `basis_of(backend)` names the destination's KVKK
    transfer basis and `policy_hash()` the running policy's digest."""

    log: AuditLog
    policy_hash: Callable[[], str | None]
    basis_of: Callable[[str], str | None]
    zone_of: Callable[[str], str | None]

    def write_fresh(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """The ledger writer's form: `rows` are the batch's request-row dicts that are not in
        the ledger yet; their entries are chained in Python and written in one INSERT.

        The hot path of the ledger writer, so it builds each entry's hashed body
        directly instead of going through _decision_fields / _append_conn / canonical_bytes:
        the same fields and the same canonical JSON (its entities are ints and its detail
        is {"blocked": true} or null, so canonical_bytes' float walk is known to find
        nothing), hence byte for byte the same hash (tests/unit/usage/test_ledger_pin)."""
        if not rows:
            return
        digest = self.policy_hash()
        basis: dict[str, str | None] = {}
        cloud: dict[str, bool] = {}
        seq, prev = lock_head(conn)
        sha256 = hashlib.sha256
        out = []
        for r in rows:
            backend = r["backend"]
            trace = r["trace"] or {}
            if backend:
                if backend not in basis:
                    basis[backend] = self.basis_of(backend)
                    cloud[backend] = self.zone_of(backend) == "cloud"
                transfer, to_cloud = basis[backend], cloud[backend]
            else:
                transfer, to_cloud = None, False
            entities = _entities(trace)  # unsorted: the hash sorts, JSON objects are unordered
            # the hash covers what the database will hand back: microsecond UTC timestamps
            at = _normalise(r["created_at"])
            seq += 1
            body = {
                "seq": seq,
                "at": utc_iso(at),
                "kind": "decision",
                "request_id": r["id"],
                "policy_hash": digest,
                "data_class": r["data_class"],
                "entities": entities,
                "rule": r["rule"],
                "destination": backend,
                "transfer_basis": transfer,
                # the engine redacts only what leaves for the cloud
                "redaction": bool(trace.get("redact")) and to_cloud,
                "detail": {"blocked": True} if trace.get("blocked") else None,
            }
            digest_hex = sha256(dumps_canonical(body, False) + prev.encode()).hexdigest()
            body["at"] = at
            body["prev_hash"] = prev
            body["hash"] = prev = digest_hex
            out.append(body)
        log, _ = _tables()
        insert_rows(conn, log, out, compact_json=True)
        _set_head(conn, seq, prev)

    def __call__(self, session: Any, rows: Sequence[Any]) -> None:
        if not rows:
            return
        conn = session.connection()
        req = sa_table("requests")
        ids = [r.id for r in rows]
        seen = set(conn.execute(select(req.c.id).where(req.c.id.in_(ids))).scalars())
        digest = self.policy_hash()
        entries = []
        for r in rows:
            if r.id in seen:
                continue
            trace = r.trace or {}
            entries.append(
                DecisionEntry(
                    request_id=r.id,
                    policy_hash=digest,
                    data_class=r.data_class,
                    entities=_entities(trace),
                    rule=r.rule,
                    destination=r.backend,
                    transfer_basis=self.basis_of(r.backend) if r.backend else None,
                    # the engine redacts only what leaves for the cloud
                    redaction=bool(trace.get("redact"))
                    and bool(r.backend)
                    and self.zone_of(r.backend) == "cloud",
                    blocked=bool(trace.get("blocked")),
                    at=r.created_at,
                )
            )
        self.log.append_in(conn, entries)
