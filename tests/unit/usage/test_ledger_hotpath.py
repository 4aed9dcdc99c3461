"""The ledger writer's cheaper conversions store exactly what the slower ones did:
compact JSON reads back as the json.dumps text did, the quick SQLite bind processors give
SQLAlchemy's values, and the driver-SQL upsert / IN look-ups equal the Core statements."""

from __future__ import annotations

import dataclasses
import json
import math
import random
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import JSON, Boolean, DateTime, insert, select

from gateway.usage import bulk
from gateway.usage.audit import AuditRow
from gateway.usage.audit_hash import utc_iso
from gateway.usage.db import make_engine, migrate
from gateway.usage.jsoncodec import dumps
from gateway.usage.tables import BudgetHoldRow, RequestRow


def _same(a: str, b: str) -> bool:
    """Equal values read back (NaN spelled alike: compared through json.dumps)."""
    return json.dumps(json.loads(a), sort_keys=True) == json.dumps(json.loads(b), sort_keys=True)


def _value(rnd: random.Random, depth: int = 0) -> Any:
    leaves: list[Any] = [
        None,
        True,
        False,
        0,
        -7,
        2**63,
        2**64 + 1,
        1.5,
        -0.0,
        1e16,
        1e-7,
        math.nan,
        math.inf,
        "",
        "şİı€😀",
        "\ud800",
        "\u2028",
        'a"b\\c\n',
        (1, "x"),
    ]
    if depth > 2 or rnd.random() < 0.4:
        return rnd.choice(leaves)
    if rnd.random() < 0.5:
        return [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    keys: list[Any] = ["k", "İ", "z", "a", 1, "blocked"]
    return {rnd.choice(keys): _value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}


def test_compact_json_reads_back_as_json_dumps() -> None:
    rnd = random.Random(11)
    for _ in range(5000):
        v = _value(rnd)
        assert _same(dumps(v), json.dumps(v)), v
    trace = {
        "alias": "chat",
        "redact": True,
        "blocked": None,
        "candidates": [{"backend": "gpu", "zone": "on_prem", "estimated_usd": "0.0001"}],
        "sensitivity": {"entities": [{"type": "TCKN", "count": 1}], "note": "şğü"},
    }
    assert json.loads(dumps(trace)) == trace and " " not in dumps({"a": [1, 2]})
    assert dumps({"x": math.nan}) == json.dumps({"x": math.nan})  # not null


def test_compact_json_refuses_what_json_dumps_refuses() -> None:
    @dataclasses.dataclass
    class D:
        a: int = 1

    for bad in ({"d": D()}, {"t": datetime.now(UTC)}, {"d": date(2026, 1, 1)}):
        with pytest.raises(TypeError):
            json.dumps(bad)
        with pytest.raises(TypeError):
            dumps(bad)


def test_quick_sqlite_processors_match_sqlalchemy(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'q.db'}")
    dialect = engine.dialect
    rnd = random.Random(3)
    zones = [None, UTC, timezone(timedelta(hours=3)), timezone(timedelta(hours=-5, minutes=-30))]
    stamps: list[Any] = [None, date(2026, 3, 1)]
    for _ in range(3000):
        stamps.append(
            datetime(
                rnd.randint(1, 9999),
                rnd.randint(1, 12),
                rnd.randint(1, 28),
                rnd.randint(0, 23),
                rnd.randint(0, 59),
                rnd.randint(0, 59),
                rnd.choice([0, rnd.randint(0, 999999)]),
                tzinfo=rnd.choice(zones),
            )
        )
    types = [
        DateTime(),
        DateTime(timezone=True),
        RequestRow.__table__.c.created_at.type,  # type: ignore[attr-defined]
        AuditRow.__table__.c.at.type,
    ]  # type: ignore[attr-defined]
    for t in types:
        impl = t.dialect_impl(dialect)
        proc = impl.bind_processor(dialect)
        quick = bulk._quick(impl, proc, dialect, False)
        assert quick is not proc
        for v in stamps:
            try:
                want: Any = proc(v)
            except (ValueError, OverflowError, TypeError, AttributeError) as exc:
                with pytest.raises(type(exc)):
                    quick(v)
                continue
            assert quick(v) == want, v
    impl = Boolean().dialect_impl(dialect)
    proc = impl.bind_processor(dialect)
    quick = bulk._quick(impl, proc, dialect, False)
    for v in (True, False, None, 1, 0):
        assert quick(v) == proc(v) and type(quick(v)) is type(proc(v))
    for bad in (2, "x"):
        with pytest.raises((TypeError, ValueError)):
            proc(bad)
        with pytest.raises((TypeError, ValueError)):
            quick(bad)
    impl = JSON().dialect_impl(dialect)
    proc = impl.bind_processor(dialect)
    quick = bulk._quick(impl, proc, dialect, True)
    for v in (None, {"a": 1}, [1], "s", {"n": math.nan}):
        assert _same(quick(v), proc(v))
    assert bulk._quick(impl, proc, dialect, False) is proc
    engine.dispose()


def test_driver_sql_helpers_match_core(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'h.db'}")
    migrate(engine)
    holds = BudgetHoldRow.__table__  # type: ignore[attr-defined]
    now = datetime(2026, 3, 1, tzinfo=UTC)
    rows = [
        {
            "request_id": f"r{i}",
            "budget_id": f"key:k{i % 3}",
            "period": "2026-03",
            "amount": Decimal(i) / 7,
            "created_at": now,
        }
        for i in range(1200)
    ]
    with engine.begin() as conn:
        conn.execute(insert(holds), rows)
        ids = [f"r{i}" for i in range(0, 1300, 2)]
        cols = ("request_id", "budget_id", "period", "amount")
        got = sorted(bulk.select_in(conn, holds, "request_id", ids, cols))
        want = sorted(
            tuple(r)
            for r in conn.execute(
                select(*[holds.c[c] for c in cols]).where(holds.c.request_id.in_(ids))
            )
        )
        assert got == want and len(got) == 600
    engine.dispose()


def _utc_iso_before(ts: datetime) -> str:
    """audit.utc_iso as the chains so far were hashed with."""
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=UTC)
    elif ts.utcoffset():
        ts = ts.astimezone(UTC)
    return (
        f"{ts.year:04d}-{ts.month:02d}-{ts.day:02d}T{ts.hour:02d}:{ts.minute:02d}:"
        f"{ts.second:02d}.{ts.microsecond:06d}Z"
    )


def test_utc_iso_spells_as_before() -> None:
    rnd = random.Random(5)
    zones = [
        None,
        UTC,
        timezone(timedelta(0)),
        timezone(timedelta(hours=3)),
        timezone(timedelta(hours=-11, minutes=-15)),
    ]
    for _ in range(20000):
        ts = datetime(
            rnd.randint(2, 9998),
            rnd.randint(1, 12),
            rnd.randint(1, 28),
            rnd.randint(0, 23),
            rnd.randint(0, 59),
            rnd.randint(0, 59),
            rnd.choice([0, rnd.randint(0, 999999)]),
            tzinfo=rnd.choice(zones),
        )
        assert utc_iso(ts) == _utc_iso_before(ts), ts


def test_pricer_keeps_unit_prices_per_policy_object() -> None:
    from gateway.policy.loader import load_text
    from gateway.usage.pricing import Pricer, load_catalog

    text = """
version: 1
backends:
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9", model: g,
        hourly_cost_usd: "3.6"}
  bedrock: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: b,
            price: {input_per_mtok: "PRICE", output_per_mtok: "1.25"}}
aliases:
  chat: {backends: [gpu, bedrock]}
billing: {usd_try: "40", kdv_rate: "0.20"}
"""
    current = [load_text(text.replace("PRICE", "0.25")).policy]
    pricer = Pricer(lambda: current[0], load_catalog())
    first = pricer.price("bedrock", 1000, 100)
    assert pricer.price("bedrock", 1000, 100) == first
    assert first.amount == Decimal("0.00025") + Decimal("0.000125")
    current[0] = load_text(text.replace("PRICE", "0.50")).policy  # a reload: a new object
    assert pricer.price("bedrock", 1000, 100).amount == Decimal("0.0005") + Decimal("0.000125")
    assert pricer.price("gpu", 10, 10).amount is None  # on-prem: no throughput measured yet
    pricer.meter.observe("gpu", 100, 1.0)
    assert pricer.price("gpu", 10, 10).amount is not None  # follows the meter, never kept
    assert pricer.price("nope", 1, 1).amount is None
