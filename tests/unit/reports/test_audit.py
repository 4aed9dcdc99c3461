"""The audit chain: appends link, verify holds, and any tampering is found and named."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.cli import main
from gateway.usage.audit import AuditLog, DecisionEntry, PolicyChangeEntry


def _decision(i: int) -> DecisionEntry:
    return DecisionEntry(
        request_id=f"req_{i:04d}",
        policy_hash="ab" * 32,
        data_class="personal",
        entities={"TCKN": 1, "PHONE_TR": 2},
        rule="personal-redact",
        destination="bedrock-eu",
        transfer_basis="scc:2025-01-10",
        redaction=True,
        at=datetime(2026, 1, 5, 10, 0, i % 60, 1234, UTC),
    )


def _fill(engine: Engine, n: int = 6) -> AuditLog:
    log = AuditLog(engine)
    log.append_policy_change(
        PolicyChangeEntry(
            policy_hash="cd" * 32, previous_hash=None, source="policies/default.yaml", actor="admin"
        )
    )
    log.append_decisions([_decision(i) for i in range(1, n)])
    return log


def test_chain_verifies_and_links(engine: Engine) -> None:
    log = _fill(engine)
    result = log.verify()
    assert result.ok and result.checked == 6
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT seq, prev_hash, hash, entities FROM audit_log ORDER BY seq")
        ).all()
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0][1] == "0" * 64
    assert all(rows[i][1] == rows[i - 1][2] for i in range(1, len(rows)))
    assert "TCKN" in str(rows[1][3])  # entity types and counts, never values


@pytest.mark.parametrize(
    "sql, seq, reason",
    [
        ("UPDATE audit_log SET destination = 'vertex-us' WHERE seq = 4", 4, "edited"),
        ("UPDATE audit_log SET redaction = false WHERE seq = 3", 3, "edited"),
        ("DELETE FROM audit_log WHERE seq = 2", 3, "gap"),
    ],
)
def test_tampering_is_named(engine: Engine, sql: str, seq: int, reason: str) -> None:
    log = _fill(engine)
    with engine.begin() as conn:
        conn.execute(text(sql))
    result = log.verify()
    assert not result.ok
    assert result.broken_seq == seq
    assert reason in (result.reason or "")
    assert f"#{seq}" in result.message()


def test_rewriting_a_hash_breaks_the_next_link(engine: Engine) -> None:
    log = _fill(engine)
    with engine.begin() as conn:  # a forger who recomputes row 2's hash still breaks row 3
        conn.execute(
            text("UPDATE audit_log SET rule = 'x', hash = :h WHERE seq = 2"), {"h": "f" * 64}
        )
    result = log.verify()
    assert not result.ok and result.broken_seq == 2


def test_truncating_the_tail_is_found(engine: Engine) -> None:
    log = _fill(engine)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM audit_log WHERE seq = 6"))
    result = log.verify()
    assert not result.ok and result.broken_seq is None
    assert "head" in result.message()


def test_concurrent_appenders_keep_one_chain(engine: Engine) -> None:
    log = AuditLog(engine)
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(10):
                log.append_decisions([_decision(t * 100 + i)])
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    result = log.verify()
    assert result.ok and result.checked == 40


def test_cli_verify_names_the_tampered_row(
    sqlite_url: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gateway.usage.db import make_engine, migrate

    eng = make_engine(sqlite_url)
    migrate(eng)
    _fill(eng)
    assert main(["audit", "verify", "--database-url", sqlite_url]) == 0
    assert "OK: 6 entries" in capsys.readouterr().out
    with eng.begin() as conn:
        conn.execute(text("UPDATE audit_log SET data_class = 'public' WHERE seq = 5"))
    eng.dispose()
    assert main(["audit", "verify", "--database-url", sqlite_url]) == 1
    err = capsys.readouterr().err
    assert "entry #5 (request req_0004)" in err


def test_listener_chains_new_requests_once(engine: Engine) -> None:
    from sqlmodel import Session

    from gateway.usage.audit import AuditListener
    from tests.unit.reports.helpers import ZONES, make_rows

    rows = make_rows(6)
    for r in rows:
        r.trace = {"redact": True, "sensitivity": {"entities": [{"type": "TCKN", "count": 2}]}}
    listener = AuditListener(
        AuditLog(engine),
        lambda: "ab" * 32,
        lambda b: "tr_scc" if b == "bedrock-eu" else None,
        ZONES.get,
    )
    for batch in (rows, rows[:3]):  # the second is a replay: nothing new to chain
        with Session(engine) as session:
            listener(session, [r.model_copy() for r in batch])
            for r in batch:
                session.merge(r.model_copy())
            session.commit()
    with engine.connect() as conn:
        got = conn.execute(
            text(
                "SELECT request_id, destination, transfer_basis, redaction, "
                "entities FROM audit_log ORDER BY seq"
            )
        ).all()
    assert [g[0] for g in got] == [r.id for r in rows]
    bedrock = next(g for g in got if g[1] == "bedrock-eu")
    assert bedrock[2] == "tr_scc" and bool(bedrock[3]) is True and "TCKN" in str(bedrock[4])
    local = next(g for g in got if g[1] == "gpu-local")
    assert bool(local[3]) is False  # on-prem gets the original text
    assert AuditLog(engine).verify().ok
