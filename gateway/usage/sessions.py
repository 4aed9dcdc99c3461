"""Admin browser sessions in the ledger database, which every replica shares (Redis is
optional; the database is not), so a sign-in on one replica holds on all and a sign-out or a
revoked key ends it on all at once. Only SHA-256 of the cookie's token is stored.

Blocking calls: run them off the event loop."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, or_, select, update
from sqlalchemy.engine import Connection, Engine

from gateway.usage.tables import AdminSessionRow

_S = AdminSessionRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class SessionInfo:
    token_hash: str
    csrf: str
    actor: str
    key_id: str
    tenant: str | None  # None: the admin scope
    expires_at: datetime


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


class SessionStore:
    """Create, find and end sessions. `per_key` bounds the live sessions one key may hold:
    a new sign-in past it ends that key's oldest, so no key can grow the table without end."""

    def __init__(self, engine: Engine, *, ttl_s: float, per_key: int) -> None:
        self._engine = engine
        self.ttl_s = ttl_s
        self._per_key = per_key

    def create(self, actor: str, key_id: str, tenant: str | None, now: float) -> tuple[str, str]:
        """A new session; returns (the cookie's token, the CSRF token). The token is shown to
        the browser once and stored only hashed."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self._engine.begin() as conn:
            self._prune(conn, key_id, now)
            conn.execute(
                _S.insert().values(
                    token_hash=token_hash(token),
                    csrf=csrf,
                    actor=actor[:128],
                    key_id=key_id[:64],
                    tenant=tenant,
                    created_at=_at(now),
                    expires_at=_at(now + self.ttl_s),
                )
            )
        return token, csrf

    def _prune(self, conn: Connection, key_id: str, now: float) -> None:
        conn.execute(
            delete(_S).where(or_(_S.c.expires_at <= _at(now), _S.c.revoked_at.is_not(None)))
        )
        live = conn.execute(
            select(_S.c.token_hash).where(_S.c.key_id == key_id).order_by(_S.c.created_at.desc())
        ).all()
        stale = [r[0] for r in live[self._per_key - 1 :]]
        if stale:
            conn.execute(delete(_S).where(_S.c.token_hash.in_(stale)))

    def find(self, token: str, now: float) -> SessionInfo | None:
        """The live session of this cookie token (not expired, not ended), else None."""
        with self._engine.connect() as conn:
            row = (
                conn.execute(
                    select(_S).where(
                        _S.c.token_hash == token_hash(token),
                        _S.c.revoked_at.is_(None),
                        _S.c.expires_at > _at(now),
                    )
                )
                .mappings()
                .first()
            )
        if row is None:
            return None
        return SessionInfo(
            token_hash=row["token_hash"],
            csrf=row["csrf"],
            actor=row["actor"],
            key_id=row["key_id"],
            tenant=row["tenant"],
            expires_at=row["expires_at"],
        )

    def end(self, token: str, now: float) -> bool:
        with self._engine.begin() as conn:
            done = conn.execute(
                update(_S)
                .where(_S.c.token_hash == token_hash(token), _S.c.revoked_at.is_(None))
                .values(revoked_at=_at(now))
            )
        return done.rowcount == 1


def end_sessions_of_key(conn: Connection, key_id: str, now: float) -> int:
    """In the caller's transaction (revoking a key): end every session it opened."""
    done = conn.execute(
        update(_S)
        .where(_S.c.key_id == key_id, _S.c.revoked_at.is_(None))
        .values(revoked_at=_at(now))
    )
    return int(done.rowcount)
