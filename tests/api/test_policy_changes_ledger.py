"""Policy changes reach the ledger: the start-up policy and every admin PUT become a
`policy_changes` row (who, when, digest) and a hash-chained audit entry, written off the request
path; `gateway audit verify` still holds afterwards and catches an edited change entry."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from gateway.app import create_app
from gateway.cli import main as gateway_cli
from gateway.emulators.base import EmulatorServer
from gateway.policy.loader import load_text
from gateway.policy.reload import PolicyChange
from gateway.settings import Settings
from gateway.usage.audit import AuditLog
from gateway.usage.db import create_schema, make_engine
from gateway.usage.policy_changes import PolicyChangeLog

ADMIN = "policy-admin-key-for-tests"


def policy_yaml(url: str, objective: str) -> str:
    return f"""
version: 1
backends:
  local: {{kind: openai_compat, zone: on_prem, base_url: "{url}", model: m}}
aliases:
  chat: {{backends: [local]}}
defaults: {{objective: {objective}}}
"""


def _rows(db: str, sql: str) -> list[Any]:
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql)))
    finally:
        engine.dispose()


def _wait_rows(db: str, sql: str, n: int, timeout: float = 5.0) -> list[Any]:
    deadline = time.monotonic() + timeout
    while True:
        rows = _rows(db, sql)
        if len(rows) >= n or time.monotonic() > deadline:
            return rows
        time.sleep(0.05)


@pytest.fixture
def setup(openai_emulator: EmulatorServer, tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    settings = Settings(
        database_url=db,
        local_engine=False,
        admin_key=ADMIN,
        journal_path=str(tmp_path / "journal"),
        probe_interval_s=0,
        policy_sync_s=0,
    )
    app = create_app(settings, policy=load_text(policy_yaml(openai_emulator.url, "ordered")))
    with TestClient(app) as client:
        yield client, db


def test_admin_put_is_recorded_with_actor_and_hash_and_audit_verifies(
    setup: tuple[TestClient, str],
    openai_emulator: EmulatorServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    client, db = setup
    auth = {"authorization": f"Bearer {ADMIN}"}
    first = client.get("/admin/policy", headers=auth).json()["sha256"]
    put = client.put(
        "/admin/policy", headers=auth, content=policy_yaml(openai_emulator.url, "cheapest")
    )
    assert put.status_code == 200, put.text
    new = put.json()["sha256"]
    assert new != first
    # a refused document changes nothing and records nothing
    bad = client.put("/admin/policy", headers=auth, content="version: 1\nbackends: 3\n")
    assert bad.status_code == 422
    changes = _wait_rows(
        db, "SELECT actor, sha256, source, accepted, changed_at FROM policy_changes ORDER BY id", 2
    )
    assert [(r[0], r[1], r[3]) for r in changes] == [("startup", first, 1), ("admin", new, 1)]
    assert changes[1][2] == "admin-api" and changes[1][4] is not None
    audit = _wait_rows(
        db, "SELECT policy_hash, detail FROM audit_log WHERE kind = 'policy_change' ORDER BY seq", 2
    )
    assert [r[0] for r in audit] == [first, new]
    assert '"actor": "admin"' in audit[1][1] and first in audit[1][1]  # previous hash
    client.post(
        "/v1/chat/completions",
        json={"model": "chat", "messages": [{"role": "user", "content": "Merhaba"}]},
    )

    assert gateway_cli(["audit", "verify", "--database-url", db]) == 0
    assert "audit chain OK" in capsys.readouterr().out
    # editing who changed the policy breaks the chain at that entry
    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(
            text(
                "UPDATE audit_log SET detail = replace(detail, '\"admin\"', "
                "'\"someone-else\"') WHERE kind = 'policy_change'"
            )
        )
    engine.dispose()
    assert gateway_cli(["audit", "verify", "--database-url", db]) == 1
    assert "BROKEN" in capsys.readouterr().err


def test_restart_with_the_same_policy_records_no_second_startup_row(
    openai_emulator: EmulatorServer, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    settings = Settings(
        database_url=db,
        local_engine=False,
        journal_path=str(tmp_path / "j"),
        probe_interval_s=0,
        policy_sync_s=0,
    )
    for _ in range(2):
        app = create_app(settings, policy=load_text(policy_yaml(openai_emulator.url, "ordered")))
        with TestClient(app):
            pass
    assert len(_rows(db, "SELECT id FROM policy_changes")) == 1


async def test_change_recorded_after_the_database_comes_back(tmp_path: Path) -> None:
    """The sink never blocks its caller (event loop or another thread); a write that fails
    (here: the ledger's tables do not exist yet) is retried until it lands, in order."""
    engine = make_engine(f"sqlite:///{tmp_path / 'l.db'}")
    changes = PolicyChangeLog(engine, AuditLog(engine), retry_s=0.01, max_retry_s=0.05)
    await changes.start("a" * 64, "file.yaml", time.time())  # unreadable: no start-up row
    changes.record(PolicyChange("admin", time.time(), "b" * 64, "a" * 64, "admin-api"))
    await asyncio.to_thread(
        changes.record, PolicyChange("file-watch", time.time(), "c" * 64, "b" * 64, "p.yaml")
    )
    await asyncio.sleep(0.1)  # a few failed attempts
    create_schema(engine)
    await asyncio.wait_for(changes.flush(), 5)
    await changes.stop()
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT actor, sha256 FROM policy_changes ORDER BY id")).all()
    assert [tuple(r) for r in rows] == [("admin", "b" * 64), ("file-watch", "c" * 64)]
    assert AuditLog(engine).verify().ok
    engine.dispose()
