"""API keys: `gk_<id>_<secret>`. Only SHA-256(secret) is stored; the key is shown once.

Every create, revoke and rotate writes a `key_change` entry to the hash-chained audit log in the
same transaction (`actor`: who asked, e.g. the signed-in tenant, "admin" or "cli"), so who could
call the gateway when is on record and cannot be edited away.

The secret is 32 random bytes, so a plain SHA-256 (no slow KDF) is enough: nobody can guess
their way to a preimage, and the hot-path check stays a hash and a constant-time compare.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, Engine

from gateway.usage.audit import AuditLog, KeyChangeEntry
from gateway.usage.sessions import end_sessions_of_key
from gateway.usage.tables import ApiKeyRow, TenantRow

PREFIX = "gk_"
API_SCOPE = "api"  # the OpenAI-compatible API, and its tenant's reports
ADMIN_SCOPE = "admin"  # every admin route: every tenant, the policy, the keys
_K = ApiKeyRow.__table__  # type: ignore[attr-defined]
_T = TenantRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class KeyInfo:
    id: str
    secret_hash: str
    tenant: str
    app: str
    scope: str
    name: str | None
    created_at: datetime
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def split_key(key: str) -> tuple[str, str] | None:
    """(id, secret) of a well-formed key, else None."""
    if not key.startswith(PREFIX):
        return None
    body = key[len(PREFIX) :]
    key_id, sep, secret = body.partition("_")
    if not sep or len(key_id) != 16 or len(secret) < 32:
        return None
    return "k" + key_id, secret


def matches(info: KeyInfo, secret: str) -> bool:
    return hmac.compare_digest(info.secret_hash, hash_secret(secret))


# the columns a KeyInfo is made of, in the order of its fields
_INFO_COLUMNS = ("id", "secret_hash", "tenant", "app", "scope", "name", "created_at", "revoked_at")


def _info(row: object) -> KeyInfo:
    r = row._mapping  # type: ignore[attr-defined]
    return KeyInfo(*(r[c] for c in _INFO_COLUMNS))


def create_key(
    engine: Engine,
    tenant: str,
    app: str = "default",
    *,
    scope: str = API_SCOPE,
    name: str | None = None,
    now: float,
    actor: str | None = None,
) -> tuple[KeyInfo, str]:
    """Store a new key; returns its info and the full key (shown once, never stored)."""
    with engine.begin() as conn:
        info, key = _insert_key(conn, tenant, app, scope, name, now)
        _audit(conn, "create", info, actor, now)
        return info, key


def _audit(
    conn: Connection,
    action: str,
    key: KeyInfo,
    actor: str | None,
    now: float,
    replaces: str | None = None,
) -> None:
    entry = KeyChangeEntry(
        action,
        key.id,
        key.tenant,
        key.app,
        key.scope,
        actor,
        replaces,
        at=datetime.fromtimestamp(now, UTC),
    )
    AuditLog(conn.engine).append_key_change_in(conn, entry)


def _insert_key(
    conn: Connection, tenant: str, app: str, scope: str, name: str | None, now: float
) -> tuple[KeyInfo, str]:
    public = os.urandom(8).hex()
    secret = os.urandom(32).hex()
    key_id = "k" + public
    ts = datetime.fromtimestamp(now, UTC)
    if conn.execute(select(_T.c.id).where(_T.c.id == tenant)).first() is None:
        conn.execute(_T.insert().values(id=tenant, created_at=ts))
    conn.execute(
        _K.insert().values(
            id=key_id,
            secret_hash=hash_secret(secret),
            tenant=tenant,
            app=app,
            scope=scope,
            name=name,
            created_at=ts,
        )
    )
    info = KeyInfo(key_id, hash_secret(secret), tenant, app, scope, name, ts, None)
    return info, f"{PREFIX}{public}_{secret}"


def get_key(engine: Engine, key_id: str) -> KeyInfo | None:
    with engine.connect() as conn:
        row = conn.execute(select(_K).where(_K.c.id == key_id)).first()
    return _info(row) if row is not None else None


def list_keys(engine: Engine, tenant: str | None = None) -> list[KeyInfo]:
    q = select(_K).order_by(_K.c.created_at)
    if tenant is not None:
        q = q.where(_K.c.tenant == tenant)
    with engine.connect() as conn:
        return [_info(r) for r in conn.execute(q)]


def revoke_key(engine: Engine, key_id: str, now: float, actor: str | None = None) -> bool:
    """Revoke the key and, in the same transaction, end the admin sessions it opened."""
    with engine.begin() as conn:
        row = conn.execute(select(_K).where(_K.c.id == key_id)).first()
        if row is None or not _revoke(conn, key_id, now):
            return False
        _audit(conn, "revoke", _info(row), actor, now)
        return True


def _revoke(conn: Connection, key_id: str, now: float) -> bool:
    done = conn.execute(
        update(_K)
        .where(_K.c.id == key_id, _K.c.revoked_at.is_(None))
        .values(revoked_at=datetime.fromtimestamp(now, UTC))
    )
    if done.rowcount == 1:
        end_sessions_of_key(conn, key_id, now)
    return done.rowcount == 1


def rotate_key(
    engine: Engine, key_id: str, now: float, actor: str | None = None
) -> tuple[KeyInfo, str] | None:
    """A new key with the old one's tenant, app, scope and name, and the old one revoked (its
    sessions ended), in one transaction: never both live, never neither. Returns the new
    key's info and the full key (shown once); None when `key_id` is not an active key."""
    with engine.begin() as conn:
        # the revoke is a conditional update: of two rotations at once, one wins
        row = conn.execute(select(_K).where(_K.c.id == key_id, _K.c.revoked_at.is_(None))).first()
        if row is None or not _revoke(conn, key_id, now):
            return None
        old = _info(row)
        info, key = _insert_key(conn, old.tenant, old.app, old.scope, old.name, now)
        _audit(conn, "rotate", info, actor, now, replaces=old.id)
        return info, key
