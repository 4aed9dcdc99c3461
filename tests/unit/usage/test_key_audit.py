"""Every key create, revoke and rotate leaves a `key_change` entry in the hash-chained audit log,
written in the transaction that changes the key: who could call the gateway, when, on whose
word. The entry never holds the secret or its hash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.usage.audit import AuditLog
from gateway.usage.db import make_engine, migrate
from gateway.usage.keys import create_key, revoke_key, rotate_key, split_key


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'k.db'}")
    migrate(engine)
    return engine


def _changes(engine: Engine) -> list[dict[str, object]]:
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT kind, at, detail FROM audit_log WHERE kind = 'key_change' ORDER BY seq")
        ).all()
    out = []
    for kind, at, detail in rows:
        assert kind == "key_change" and at is not None
        out.append(json.loads(detail) if isinstance(detail, str) else dict(detail))
    return out


def test_create_revoke_and_rotate_are_chained_with_their_actor(engine: Engine) -> None:
    info, key = create_key(engine, "acme", "web", name="nightly", now=1.0, actor="cli")
    other, _ = create_key(engine, "acme", "batch", scope="admin", now=2.0, actor="admin")
    rotated = rotate_key(engine, other.id, 3.0, actor="admin")
    assert rotated is not None
    assert revoke_key(engine, info.id, 4.0, actor="kabc")
    changes = _changes(engine)
    assert [(c["action"], c["key_id"], c["actor"]) for c in changes] == [
        ("create", info.id, "cli"),
        ("create", other.id, "admin"),
        ("rotate", rotated[0].id, "admin"),
        ("revoke", info.id, "kabc"),
    ]
    assert changes[2]["replaces"] == other.id and changes[2]["scope"] == "admin"
    assert (changes[0]["tenant"], changes[0]["app"], changes[0]["scope"]) == ("acme", "web", "api")
    assert AuditLog(engine).verify().ok
    parts = split_key(key)
    assert parts is not None
    with engine.connect() as conn:
        dump = str(conn.execute(text("SELECT * FROM audit_log")).all())
    assert parts[1] not in dump and info.secret_hash not in dump  # never the secret, nor its hash


def test_a_refused_change_writes_no_entry(engine: Engine) -> None:
    info, _ = create_key(engine, "acme", now=1.0)
    assert revoke_key(engine, info.id, 2.0)
    assert not revoke_key(engine, info.id, 3.0)  # already revoked
    assert not revoke_key(engine, "knope", 3.0)
    assert rotate_key(engine, info.id, 4.0) is None
    assert [c["action"] for c in _changes(engine)] == ["create", "revoke"]


def test_an_edited_key_entry_breaks_the_chain(engine: Engine) -> None:
    info, _ = create_key(engine, "acme", now=1.0, actor="cli")
    revoke_key(engine, info.id, 2.0, actor="cli")
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE audit_log SET detail = :d WHERE kind = 'key_change' AND seq = 1"),
            {"d": json.dumps({"action": "create", "key_id": info.id, "actor": "someone else"})},
        )
    result = AuditLog(engine).verify()
    assert not result.ok and result.broken_seq == 1


def test_the_cli_is_on_record_as_cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gateway.cli import main

    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("GECIT_DATABASE_URL", url)
    assert main(["keys", "create", "--tenant", "acme"]) == 0
    key_id = capsys.readouterr().out.split()[2]
    assert main(["keys", "rotate", key_id]) == 0
    engine = make_engine(url)
    try:
        assert [(c["action"], c["actor"]) for c in _changes(engine)] == [
            ("create", "cli"),
            ("rotate", "cli"),
        ]
        assert _changes(engine)[1]["replaces"] == key_id
    finally:
        engine.dispose()
