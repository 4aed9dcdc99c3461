"""Accepted policy documents, shared by every replica through the ledger database.

A replica that accepts a new policy (admin PUT, file change, a deployment's new file) appends
it here; every replica polls the newest id and applies a newer document through its reloader.
The newest document anyone introduced wins. Blocking calls: run them off the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, Text, select
from sqlalchemy import text as sql
from sqlalchemy.engine import Engine
from sqlmodel import Field, SQLModel


class PolicyDocumentRow(SQLModel, table=True):
    __tablename__ = "policy_documents"

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(sa_column=Column(DateTime, nullable=False, index=True))
    sha256: str = Field(max_length=64, index=True)
    text: str = Field(sa_column=Column(Text, nullable=False))
    actor: str = Field(max_length=128)


@dataclass(frozen=True, slots=True)
class Head:
    """The newest document's id and digest: what replicas poll (one indexed row)."""

    id: int
    sha256: str


@dataclass(frozen=True, slots=True)
class StoredPolicy:
    id: int
    sha256: str
    text: str
    actor: str
    created_at: datetime


_T = PolicyDocumentRow.__table__  # type: ignore[attr-defined]


_APPEND_LOCK = 0x6765636970  # PostgreSQL advisory lock key for policy document appends


def newest(engine: Engine) -> Head | None:
    with engine.connect() as conn:
        row = conn.execute(select(_T.c.id, _T.c.sha256).order_by(_T.c.id.desc()).limit(1)).first()
    return Head(int(row[0]), str(row[1])) if row is not None else None


def load(engine: Engine, doc_id: int) -> StoredPolicy | None:
    with engine.connect() as conn:
        row = conn.execute(select(_T).where(_T.c.id == doc_id)).mappings().first()
    if row is None:
        return None
    return StoredPolicy(
        id=int(row["id"]),
        sha256=row["sha256"],
        text=row["text"],
        actor=row["actor"],
        created_at=row["created_at"],
    )


def known(engine: Engine, sha256: str) -> bool:
    """Was a document with this digest ever stored?"""
    with engine.connect() as conn:
        row = conn.execute(select(_T.c.id).where(_T.c.sha256 == sha256).limit(1)).first()
    return row is not None


def append(engine: Engine, text: str, sha256: str, actor: str, at: datetime | None = None) -> Head:
    """Store a document unless it already is the newest one. Returns the newest head.

    Replicas starting together would each see "not stored yet" and insert the same document;
    on PostgreSQL an advisory transaction lock makes the check-then-insert one step."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sql("SELECT pg_advisory_xact_lock(:k)"), {"k": _APPEND_LOCK})
        top = conn.execute(select(_T.c.id, _T.c.sha256).order_by(_T.c.id.desc()).limit(1)).first()
        if top is not None and top[1] == sha256:
            return Head(int(top[0]), sha256)
        new_id = conn.execute(
            _T.insert().values(
                created_at=at or datetime.now(UTC).replace(tzinfo=None),
                sha256=sha256,
                text=text,
                actor=actor[:128],
            )
        ).inserted_primary_key
    assert new_id is not None
    return Head(int(new_id[0]), sha256)


@dataclass(frozen=True, slots=True)
class Version:
    """One stored document without its text: what the policy page's history lists."""

    id: int
    sha256: str
    actor: str
    created_at: datetime


def history(engine: Engine, limit: int) -> list[Version]:
    """The newest `limit` documents, newest first."""
    q = select(_T.c.id, _T.c.sha256, _T.c.actor, _T.c.created_at).order_by(_T.c.id.desc())
    with engine.connect() as conn:
        rows = conn.execute(q.limit(limit)).all()
    return [Version(int(r[0]), str(r[1]), str(r[2]), r[3]) for r in rows]


def before(engine: Engine, doc_id: int) -> StoredPolicy | None:
    """The document stored just before `doc_id` (what that version changed), if any."""
    with engine.connect() as conn:
        row = conn.execute(
            select(_T.c.id).where(_T.c.id < doc_id).order_by(_T.c.id.desc()).limit(1)
        ).first()
    return load(engine, int(row[0])) if row is not None else None
