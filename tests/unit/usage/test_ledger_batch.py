"""The batched ledger write (one statement per table per batch): Core inserts, rollups aggregated
per key, the audit chain computed in Python, budgets settled per budget. Replays change nothing."""

from __future__ import annotations

import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.engine import Engine

from gateway.usage import budgets
from gateway.usage.audit import AuditListener, AuditLog
from gateway.usage.db import make_engine, migrate
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.pricing import Cost
from gateway.usage.records import AttemptRecord, UsageRecord
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import MONTHLY, RollupListener, RollupRow

ZONES = {"gpu": "on_prem", "bedrock": "cloud"}
ROLL = RollupRow.__table__  # type: ignore[attr-defined]


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    eng = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    migrate(eng)
    yield eng
    eng.dispose()


def _entries(n: int, now: float) -> list[dict[str, object]]:
    out = []
    for i in range(n):
        backend = ("gpu", "bedrock")[i % 2]
        rec = UsageRecord(
            request_id=f"b{i:04d}",
            created_at=now - 86400 * (i % 3),
            alias="chat",
            status=200 if i % 7 else 500,
            tenant="acme",
            key_id="k1",
            backend=backend,
            model="m",
            data_class="personal",
            rule="r",
            prompt_tokens=10 + i,
            completion_tokens=5,
            ttft_ms=float(i * 40 % 3000),
            attempts=[AttemptRecord(1, backend, "ok", None, 200, 1.0)],
            trace={"redact": True, "sensitivity": {"entities": [{"type": "TCKN"}]}},
        )
        cost = Cost(None if i % 5 == 0 else Decimal(i) / 1000, "policy", Decimal(40))
        out.append(make_entry(rec, cost, None))
    return out


def _rollups(engine: Engine) -> list[tuple[object, ...]]:
    with engine.connect() as conn:
        return [
            tuple(r)
            for t in (ROLL, MONTHLY)
            for r in conn.execute(select(t).order_by(*t.primary_key))
        ]


def test_batch_write_is_exact_and_replay_safe(engine: Engine) -> None:
    now = time.time()
    budgets.set_budget(engine, "key", "k1", Decimal(100), "USD", now)
    budgets.set_budget(engine, "tenant", "acme", Decimal(100), "TRY", now)
    entries = _entries(40, now)
    for e in entries[:12]:  # several holds on the same budgets in one batch
        assert (
            budgets.reserve(
                engine, str(e["id"]), {"key:k1": Decimal("0.5"), "tenant:acme": Decimal(2)}, now
            )
            == []
        )
    listeners = [
        RollupListener(ZONES.get),
        AuditListener(
            AuditLog(engine),
            lambda: "ab" * 32,
            lambda b: "scc" if b == "bedrock" else None,
            ZONES.get,
        ),
    ]
    assert write_entries(engine, entries[:25], budgets.settle, listeners) == 25
    assert write_entries(engine, entries, budgets.settle, listeners) == 15  # 25 replayed
    assert write_entries(engine, entries, budgets.settle, listeners) == 0
    incremental = _rollups(engine)
    rebuild(engine, ZONES.get)
    assert _rollups(engine) == incremental
    assert AuditLog(engine).verify().ok
    with engine.connect() as conn:
        audited = conn.execute(
            text("SELECT request_id, redaction, transfer_basis FROM audit_log ORDER BY seq")
        ).all()
        assert sorted(a[0] for a in audited) == sorted(str(e["id"]) for e in entries)
        b1 = next(a for a in audited if a[0] == "b0001")  # bedrock: cloud, redacted
        assert bool(b1[1]) and b1[2] == "scc"
        assert conn.execute(text("SELECT count(*) FROM budget_holds")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM attempts")).scalar_one() == 40
    views = {v.id: v for v in budgets.all_budgets(engine)}
    held = entries[:12]
    usd = sum(
        (Decimal(str(e["cost"])) if e["cost"] is not None else Decimal("0.5") for e in held),
        Decimal(0),
    )
    try_ = sum(
        (Decimal(str(e["cost_try"])) if e["cost_try"] is not None else Decimal(2) for e in held),
        Decimal(0),
    )
    assert views["key:k1"].spent == usd and views["key:k1"].reserved == 0
    assert views["tenant:acme"].spent == try_ and views["tenant:acme"].reserved == 0


def test_canonical_form_is_the_json_dumps_form() -> None:
    """The audit hash input (orjson) is byte for byte what json.dumps wrote before, so chains
    written by older versions still verify."""
    import json
    import random
    from datetime import UTC, datetime

    from gateway.usage.audit_hash import HASHED_FIELDS, canonical_bytes

    rnd = random.Random(7)
    alphabet = [chr(i) for i in range(0x250)] + list("ıİşğüöçÇ€😀\u2028\u2029\x7f\ufeff")
    for n in range(3000):
        word = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 10)))
        fields: dict[str, object] = {k: None for k in HASHED_FIELDS}
        fields.update(
            seq=n,
            at=datetime(2026, 3, 1, 9, 5, 7, n, tzinfo=UTC),
            kind="decision",
            request_id=word,
            entities={word: n, "TCKN": 2},
            redaction=bool(n % 2),
            detail={"source": word, "accepted": True, "problems": n, "actor": None},
        )
        if n % 3 == 0:
            fields["detail"] = {"ratio": 0.1 * n}  # a float: the json.dumps spelling
        body = dict(fields, at=f"2026-03-01T09:05:07.{n:06d}Z")
        want = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert canonical_bytes(fields) == want.encode("utf-8")
