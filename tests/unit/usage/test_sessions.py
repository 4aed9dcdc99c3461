"""The session store on a real SQLite ledger: only the token's hash is kept, a key holds at
most `per_key` live sessions (a new sign-in ends its oldest), expired and ended rows are
cleared by the next sign-in, and revoking a key ends its sessions in the same transaction."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from gateway.usage.db import make_engine, migrate
from gateway.usage.keys import create_key, revoke_key
from gateway.usage.sessions import SessionStore, token_hash

T0 = 1_800_000_000.0


def _store(tmp_path: Path, per_key: int = 2) -> SessionStore:
    engine = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    migrate(engine)
    return SessionStore(engine, ttl_s=60, per_key=per_key)


def _count(store: SessionStore) -> int:
    with store._engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM admin_sessions")).scalar_one())


def test_a_key_holds_at_most_per_key_sessions(tmp_path: Path) -> None:
    store = _store(tmp_path, per_key=2)
    tokens = [store.create("k1", "k1", "acme", T0 + i)[0] for i in range(3)]
    assert store.find(tokens[0], T0 + 3) is None  # the oldest made room
    assert all(store.find(t, T0 + 3) is not None for t in tokens[1:])
    other, _ = store.create("k2", "k2", "beta", T0 + 4)  # another key's count is its own
    assert store.find(tokens[1], T0 + 4) is not None and store.find(other, T0 + 4) is not None


def test_only_the_hash_is_stored_and_old_rows_are_cleared(tmp_path: Path) -> None:
    store = _store(tmp_path, per_key=5)
    token, csrf = store.create("admin", "admin-key:00", None, T0)
    found = store.find(token, T0 + 1)
    assert found is not None and found.csrf == csrf and found.tenant is None
    assert found.token_hash == token_hash(token) != token
    ended, _ = store.create("admin", "admin-key:00", None, T0 + 2)
    assert store.end(ended, T0 + 3) and not store.end(ended, T0 + 4)
    assert store.find(token, T0 + 61) is None  # expired
    store.create("admin", "admin-key:00", None, T0 + 62)  # clears the expired and the ended
    assert _count(store) == 1


def test_revoking_a_key_ends_its_sessions(tmp_path: Path) -> None:
    store = _store(tmp_path)
    info, _key = create_key(store._engine, "acme", now=T0)
    token, _ = store.create(info.id, info.id, "acme", T0)
    assert revoke_key(store._engine, info.id, T0 + 1)
    assert store.find(token, T0 + 2) is None
