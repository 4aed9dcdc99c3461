"""Pins of what the ledger writer stores (its fast paths must not change it): the audit chain's
canonical bytes and hashes of fixed entries, computed with the code that wrote the existing chains,
and the JSON values read back. A faster writer must reproduce them byte for byte, or old chains stop
verifying."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.engine import Engine

from gateway.usage.audit import GENESIS, AuditListener, AuditLog, AuditRow
from gateway.usage.audit_hash import canonical_bytes, chain_hash
from gateway.usage.db import make_engine, migrate
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.pricing import Cost
from gateway.usage.records import AttemptRecord, UsageRecord
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import MONTHLY, RollupListener, RollupRow
from gateway.usage.tables import RequestRow
from tests.unit.usage.pg import pg_available, throwaway_database

ZONES = {"gpu": "on_prem", "bedrock": "cloud"}

DECISION: dict[str, Any] = {
    "seq": 7,
    "at": datetime(2026, 3, 1, 9, 5, 7, 123456, tzinfo=UTC),
    "kind": "decision",
    "request_id": "req-İş-1",
    "policy_hash": "ab" * 32,
    "data_class": "personal",
    "entities": {"PHONE": 2, "TCKN": 1, "İBAN": 3},
    "rule": "kişisel",
    "destination": "bedrock",
    "transfer_basis": "scc",
    "redaction": True,
    "detail": {"blocked": True},
}
POLICY_CHANGE: dict[str, Any] = dict(
    DECISION,
    kind="policy_change",
    entities=None,
    detail={
        "previous_hash": None,
        "source": "p.yaml",
        "accepted": True,
        "actor": "ops",
        "problems": 0,
        "ratio": 0.5,
    },
)

# computed with the writer as of commit 361d046 (before the issue-7 hot-path work)
WRITTEN_HASHES = [
    (1, "4c92e6a0e4bd3e59220d01d3feae9c54969655b90c3be3066a9e49483ecc04d0"),
    (2, "5226d08625b7c921bb2ae0f0abe5e14c89c613e1feb059880e37ced153af3c37"),
    (3, "1c342d18b708bca46fe7f04cd7aca0d87cd9358ae259b7c5c84db9220fccfc48"),
]


def test_canonical_bytes_and_hash_are_pinned() -> None:
    assert canonical_bytes(DECISION) == (
        '{"at":"2026-03-01T09:05:07.123456Z","data_class":"personal","destination":"bedrock",'
        '"detail":{"blocked":true},"entities":{"PHONE":2,"TCKN":1,"İBAN":3},"kind":"decision",'
        '"policy_hash":"' + "ab" * 32 + '","redaction":true,"request_id":"req-İş-1",'
        '"rule":"kişisel","seq":7,"transfer_basis":"scc"}'
    ).encode("utf-8")
    assert (
        chain_hash(DECISION, GENESIS)
        == "b12a1e52bcd1e0042761792594e6439b898825f31a5b39529568acdf89464215"
    )
    assert canonical_bytes(POLICY_CHANGE) == (
        '{"at":"2026-03-01T09:05:07.123456Z","data_class":"personal","destination":"bedrock",'
        '"detail":{"accepted":true,"actor":"ops","previous_hash":null,"problems":0,'
        '"ratio":0.5,"source":"p.yaml"},"entities":null,"kind":"policy_change",'
        '"policy_hash":"' + "ab" * 32 + '","redaction":true,"request_id":"req-İş-1",'
        '"rule":"kişisel","seq":7,"transfer_basis":"scc"}'
    ).encode("utf-8")
    assert (
        chain_hash(POLICY_CHANGE, "cd" * 32)
        == "ec4e26e20de3fb0ea1ad428f36e9a0dea5ff4317da8a94ad2f05e1baae1cdebd"
    )


def _trace(i: int) -> dict[str, Any]:
    return {
        "redact": True,
        "blocked": {"reason": "x"} if i == 2 else None,
        "sensitivity": {
            "entities": [
                {"type": "TCKN", "count": 2},
                {"type": "PHONE"},
                {"type": "İBAN", "count": 1},
            ]
        },
        "note": "şğü ı €",
        "ratio": 0.25,
    }


def _entries() -> list[dict[str, Any]]:
    out = []
    for i in range(3):
        backend = ("bedrock", "gpu", None)[i]
        rec = UsageRecord(
            request_id=f"pin-{i}",
            created_at=1772355907.123456 + i,
            alias="chat",
            status=200 if i != 1 else 502,
            tenant="acme",
            key_id="k1",
            backend=backend,
            model="m",
            data_class="personal",
            rule="r",
            prompt_tokens=10,
            completion_tokens=5,
            ttft_ms=40.5,
            attempts=[AttemptRecord(1, backend or "x", "ok", None, 200, 1.5)],
            trace=_trace(i),
        )
        out.append(make_entry(rec, Cost(Decimal("0.0012"), "policy", Decimal(40)), 12.5))
    return out


@pytest.fixture(params=["sqlite", "pg"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        eng = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
        migrate(eng)
        yield eng
        eng.dispose()
        return
    if not pg_available():
        pytest.skip("PostgreSQL is not running")
    with throwaway_database("pin") as url:
        eng = make_engine(url)
        migrate(eng)
        yield eng
        eng.dispose()


def test_written_chain_and_json_are_pinned(engine: Engine) -> None:
    listeners = [
        RollupListener(ZONES.get),
        AuditListener(
            AuditLog(engine),
            lambda: "ab" * 32,
            lambda b: "scc" if b == "bedrock" else None,
            ZONES.get,
        ),
    ]
    assert write_entries(engine, _entries(), None, listeners) == 3
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT seq, hash FROM audit_log ORDER BY seq")).all()
        assert [(int(s), h) for s, h in rows] == WRITTEN_HASHES
        log = AuditRow.__table__  # type: ignore[attr-defined]
        got = conn.execute(select(log.c.entities, log.c.detail).order_by(log.c.seq)).all()
        assert [tuple(r) for r in got] == [({"İBAN": 1, "PHONE": 1, "TCKN": 2}, None)] * 2 + [
            ({"İBAN": 1, "PHONE": 1, "TCKN": 2}, {"blocked": True})
        ]
        req = RequestRow.__table__  # type: ignore[attr-defined]
        traces = conn.execute(
            select(req.c.id, req.c.trace, req.c.cost, req.c.cost_try, req.c.created_at).order_by(
                req.c.id
            )
        ).all()
        for i, (rid, trace, cost, cost_try, created) in enumerate(traces):
            assert rid == f"pin-{i}" and trace == _trace(i)
            assert cost == Decimal("0.0012") and cost_try == Decimal("0.048")
            assert created.replace(tzinfo=UTC) == datetime.fromtimestamp(1772355907.123456 + i, UTC)
    assert AuditLog(engine).verify().ok
    roll = RollupRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        incremental = [
            tuple(r)
            for t in (roll, MONTHLY)
            for r in conn.execute(select(t).order_by(*t.primary_key))
        ]
    rebuild(engine, ZONES.get)
    with engine.connect() as conn:
        assert [
            tuple(r)
            for t in (roll, MONTHLY)
            for r in conn.execute(select(t).order_by(*t.primary_key))
        ] == incremental
