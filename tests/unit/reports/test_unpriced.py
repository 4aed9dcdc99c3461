"""Requests with no known price (cost NULL in the ledger) are counted apart, never summed as zero.

Hand-built ledger (March 2026, USD, data class public; unpriced rows have cost, cost_try and
currency NULL, as the recorder writes them):
  acme   vertex-eu  2026-03-02  0.1          10 + 5 tokens
  acme   vertex-eu  2026-03-02  0.025        10 + 5
  acme   gpu-local  2026-03-02  NULL         100 + 40
  acme   gpu-local  2026-03-20  NULL         7 + 3
  globex bedrock-eu 2026-03-02  1.234567891  10 + 5
So acme: 4 requests, 2 unpriced (107 + 43 tokens), cost exactly 0.125 and incomplete;
globex: complete, 1.234567891; total: 5 requests, 2 unpriced, cost 1.359567891.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from datetime import UTC, date, datetime
from decimal import Decimal

from alembic import command
from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlmodel import Session

from gateway.admin import dashboard
from gateway.usage.db import alembic_config, migrate
from gateway.usage.report_format import to_csv, to_json, to_table
from gateway.usage.reports import (
    NoReference,
    Rates,
    RefPrice,
    Report,
    ReportQuery,
    ReportRow,
    run_report,
)
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import MONTHLY, RollupListener, RollupRow, aggregate, zone_resolver
from gateway.usage.tables import RequestRow
from tests.unit.reports.helpers import ZONES

ROLL = RollupRow.__table__  # type: ignore[attr-defined]
RATES = Rates(usd_try=Decimal("34.5"), kdv_rate=Decimal("0.20"))
MARCH = date(2026, 3, 1), date(2026, 3, 31)  # whole month: the monthly rollups
EARLY = date(2026, 3, 1), date(2026, 3, 19)  # part of a month (not the 20th): daily rollups


def _row(
    i: int,
    tenant: str,
    backend: str,
    cost: str | None,
    day: int = 2,
    tokens: tuple[int, int] = (10, 5),
) -> RequestRow:
    usd = None if cost is None else Decimal(cost)
    return RequestRow(
        id=f"u{i}",
        created_at=datetime(2026, 3, day, 9, i, tzinfo=UTC),
        tenant=tenant,
        app="chat",
        alias="default",
        backend=backend,
        model="m",
        data_class="public",
        status=200,
        prompt_tokens=tokens[0],
        completion_tokens=tokens[1],
        cost=usd,
        currency=None if usd is None else "USD",
        fx_rate_try=Decimal(34),
        cost_try=None if usd is None else usd * 34,
        ttft_ms=80.0,
    )


def _rows() -> list[RequestRow]:
    return [
        _row(1, "acme", "vertex-eu", "0.1"),
        _row(2, "acme", "vertex-eu", "0.025"),
        _row(3, "acme", "gpu-local", None, tokens=(100, 40)),
        _row(4, "acme", "gpu-local", None, day=20, tokens=(7, 3)),
        _row(5, "globex", "bedrock-eu", "1.234567891"),
    ]


def _insert(engine: Engine, rows: list[RequestRow]) -> None:
    with engine.begin() as conn:
        conn.execute(
            RequestRow.__table__.insert(),  # type: ignore[attr-defined]
            [r.model_dump() for r in rows],
        )


def _write_like_recorder(engine: Engine, rows: list[RequestRow]) -> None:
    listener = RollupListener(zone_resolver(ZONES))
    with Session(engine) as session:
        listener(session, rows)
        for r in rows:
            session.merge(r)
        session.commit()


def _snapshot(engine: Engine) -> list[dict[str, object]]:
    with engine.connect() as conn:
        return [
            dict(r._mapping)
            for t in (ROLL, MONTHLY)
            for r in conn.execute(select(t).order_by(*t.primary_key))
        ]


def _report(
    engine: Engine,
    span: tuple[date, date] = MARCH,
    group: tuple[str, ...] = ("tenant",),
    **kw: object,
) -> Report:
    return run_report(engine, ReportQuery(*span, group), rates=RATES, **kw)  # type: ignore[arg-type]


def _by(report: Report, key: str) -> dict[str, ReportRow]:
    return {r.group[key]: r for r in report.rows}


def test_aggregate_counts_unpriced_apart() -> None:
    deltas = aggregate(_rows(), zone_resolver(ZONES))
    unpriced = {k[3]: d for k, d in deltas.items() if d.unpriced_requests}
    assert set(unpriced) == {"gpu-local"}
    day2 = next(d for k, d in deltas.items() if k[3] == "gpu-local" and k[0].day == 2)
    assert (
        day2.requests,
        day2.unpriced_requests,
        day2.unpriced_prompt_tokens,
        day2.unpriced_completion_tokens,
    ) == (1, 1, 100, 40)
    assert day2.cost == 0 and day2.values()["cost_nanos"] == 0
    priced = sum((d.cost for d in deltas.values()), Decimal(0))
    assert priced == Decimal("1.359567891")


def test_incremental_equals_rebuild_and_replay_counts_once(engine: Engine) -> None:
    rows = _rows()
    _write_like_recorder(engine, [r.model_copy() for r in rows[:3]])
    _write_like_recorder(engine, [r.model_copy() for r in rows[2:]])  # row 3 replayed
    _write_like_recorder(engine, [r.model_copy() for r in rows])  # the whole journal again
    incremental = _snapshot(engine)
    daily = [r for r in incremental if "day" in r]
    assert sum(int(r["unpriced_requests"]) for r in daily) == 2  # type: ignore[call-overload]
    assert sum(int(r["requests"]) for r in daily) == 5  # type: ignore[call-overload]
    month = [r for r in incremental if "month" in r and r["backend"] == "gpu-local"]
    assert [
        (
            r["requests"],
            r["unpriced_requests"],
            r["unpriced_prompt_tokens"],
            r["unpriced_completion_tokens"],
            r["cost_nanos"],
        )
        for r in month
    ] == [(2, 2, 107, 43, 0)]
    rebuild(engine, zone_resolver(ZONES))
    assert _snapshot(engine) == incremental
    rebuild(engine, zone_resolver(ZONES), date(2026, 3, 20), date(2026, 3, 20))  # one day
    assert _snapshot(engine) == incremental


def test_report_counts_flags_and_exact_priced_sums(engine: Engine) -> None:
    _insert(engine, _rows())
    rebuild(engine, zone_resolver(ZONES))
    for span, n, tokens in ((MARCH, 2, (107, 43)), (EARLY, 1, (100, 40))):
        report = _report(engine, span)  # MARCH from the monthly rollups, EARLY from the daily
        acme, globex = _by(report, "tenant")["acme"], _by(report, "tenant")["globex"]
        assert (acme.requests, acme.unpriced_requests, acme.priced_requests) == (2 + n, n, 2)
        assert (acme.unpriced_prompt_tokens, acme.unpriced_completion_tokens) == tokens
        assert acme.cost == Decimal("0.125") and acme.cost_try == Decimal("4.25")
        assert acme.cost_complete is False
        assert globex.cost_complete is True and globex.unpriced_requests == 0
        assert globex.cost == Decimal("1.234567891")
        (total,) = report.totals
        assert (total.requests, total.unpriced_requests, total.cost_complete) == (3 + n, n, False)
        assert total.cost == Decimal("1.359567891")
        assert total.billing(RATES).net_try == Decimal("1.359567891") * Decimal("34.5")
    only_day2 = _report(engine, (date(2026, 3, 2), date(2026, 3, 2)), ("backend",))
    rows = _by(only_day2, "backend")
    assert rows["gpu-local"].unpriced_requests == rows["gpu-local"].requests == 1
    assert rows["gpu-local"].cost_complete is False and rows["gpu-local"].cost == 0
    assert rows["vertex-eu"].cost_complete and rows["bedrock-eu"].cost_complete


class Ref:
    def prices(self, data_class: str) -> list[RefPrice]:
        return [RefPrice("vertex-eu", Decimal("0.10"), Decimal("0.40"))]


def test_saving_compares_the_priced_requests_only(engine: Engine) -> None:
    _insert(engine, _rows())
    rebuild(engine, zone_resolver(ZONES))
    acme = _by(_report(engine, reference=Ref()), "tenant")["acme"]
    # 2 priced vertex-eu requests of 10 + 5 tokens; the 150 unpriced tokens are left out
    assert acme.cloud_equivalent == (20 * Decimal("0.10") + 10 * Decimal("0.40")) / 10**6
    assert acme.comparable_cost == Decimal("0.125")
    assert acme.saving == acme.cloud_equivalent - Decimal("0.125")


def test_formats_flag_the_incomplete_rows(engine: Engine) -> None:
    _insert(engine, _rows())
    rebuild(engine, zone_resolver(ZONES))
    report = _report(engine)
    doc = to_json(report)
    json.dumps(doc)
    acme, globex = doc["rows"]
    assert (acme["unpriced_requests"], acme["cost_complete"], acme["cost"]) == (2, False, "0.125")
    assert (acme["unpriced_prompt_tokens"], acme["unpriced_completion_tokens"]) == (107, 43)
    assert (globex["unpriced_requests"], globex["cost_complete"]) == (0, True)
    assert doc["totals"][0]["cost_complete"] is False and doc["cost_complete"] is False
    assert doc["totals"][0]["unpriced_requests"] == 2
    assert "2 of 5 requests had no known price" in doc["notes"]["unpriced"]
    assert "not zero" in doc["notes"]["cost_complete"]

    parsed = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert [(p["tenant"], p["unpriced_requests"], p["cost_complete"]) for p in parsed] == [
        ("acme", "2", "false"),
        ("globex", "0", "true"),
        ("TOTAL", "2", "false"),
    ]
    assert parsed[0]["cost"] == "0.125000" and parsed[0]["net_usd"] == "0.13"  # still numeric
    assert parsed[2]["cost"] == "1.359568"

    table = to_table(report).splitlines()
    head = table[1].split()
    lines = {t.split()[0]: dict(zip(head, t.split(), strict=True)) for t in table[3:6]}
    assert lines["acme"]["cost"] == "0.125000*" and lines["acme"]["net_try"] == "4.31*"
    assert lines["acme"]["saving"].endswith("*") and lines["acme"]["unpriced_requests"] == "2"
    assert lines["globex"]["cost"] == "1.234568" and "*" not in table[4]
    assert lines["TOTAL"]["cost"] == "1.359568*"
    assert table[-2].startswith("* cost incomplete: 2 of 5 requests had no known price")


def test_a_complete_report_has_no_mark(engine: Engine) -> None:
    _insert(engine, [r for r in _rows() if r.cost is not None])
    rebuild(engine, zone_resolver(ZONES))
    report = _report(engine)
    doc = to_json(report)
    assert doc["cost_complete"] is True and "unpriced" not in doc["notes"]
    assert all(r["cost_complete"] and r["unpriced_requests"] == 0 for r in doc["rows"])
    table = to_table(report)
    assert "*" not in table and "cost incomplete" not in table
    assert {p["cost_complete"] for p in csv.DictReader(io.StringIO(to_csv(report)))} == {"true"}
    page = dashboard.render(dashboard.load(engine, *MARCH, None, NoReference(), RATES))
    assert 'role="alert"' not in page and "(incomplete)" not in page


def _card(page: str, metric: str) -> str:
    start = page.index(f'data-metric="{metric}"')
    return page[start : page.index("</div>", start)]


def test_dashboard_warns_and_names_the_unpriced_backend(engine: Engine) -> None:
    _insert(engine, _rows())
    rebuild(engine, zone_resolver(ZONES))
    page = dashboard.render(dashboard.load(engine, *MARCH, None, NoReference(), RATES))
    warning = _card(page, "unpriced")
    assert 'role="alert"' in warning and "2 of 5 requests had no known price" in warning
    assert "gpu-local (2)" in warning and "vertex-eu" not in warning
    assert "(incomplete)" in _card(page, "cost (USD)")
    assert "(incomplete)" in _card(page, "total with KDV (TRY)")
    assert "<b>2</b>" in _card(page, "unpriced requests (USD)")
    scoped = dashboard.render(dashboard.load(engine, *MARCH, "globex", NoReference(), RATES))
    assert 'role="alert"' not in scoped  # globex's own traffic is all priced


def _downgrade(engine: Engine, revision: str) -> None:
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def _unpriced(snapshot: list[dict[str, object]]) -> list[Mapping[str, object]]:
    return [r for r in snapshot if r["unpriced_requests"]]


def test_migration_backfills_existing_rollups(engine: Engine) -> None:
    _insert(engine, _rows())
    rebuild(engine, zone_resolver(ZONES))
    expected = _snapshot(engine)
    assert len(_unpriced(expected)) == 3  # two daily rows, one monthly
    _downgrade(engine, "0004")  # rollups as they were before: no unpriced counts
    migrate(engine)  # 0005 adds the counts and back-fills them from the ledger
    assert _snapshot(engine) == expected
