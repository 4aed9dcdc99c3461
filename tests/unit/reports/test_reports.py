"""Report figures from rollups match figures computed directly from the ledger rows."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from gateway.cli import main
from gateway.usage.report_format import to_csv, to_json, to_table
from gateway.usage.reports import RefPrice, ReportError, ReportQuery, run_report
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import zone_resolver
from gateway.usage.tables import RequestRow
from tests.unit.reports.helpers import ZONES, make_rows

MARCH = ReportQuery(start=date(2026, 3, 1), end=date(2026, 3, 31), group_by=("tenant", "backend"))


class Ref:
    """bedrock-eu takes public+personal; vertex-eu only public; nothing takes special."""

    def prices(self, data_class: str) -> list[RefPrice]:
        cheap = RefPrice("vertex-eu", Decimal("0.10"), Decimal("0.40"))
        dear = RefPrice("bedrock-eu", Decimal("3"), Decimal("15"))
        return {"public": [cheap, dear], "personal": [dear]}.get(data_class, [])


def _load(engine: Engine, n: int = 300) -> list[RequestRow]:
    rows = make_rows(n)
    with engine.begin() as conn:
        conn.execute(
            RequestRow.__table__.insert(),  # type: ignore[attr-defined]
            [r.model_dump() for r in rows],
        )
    rebuild(engine, zone_resolver(ZONES))
    return [r for r in rows if r.created_at.date() <= date(2026, 3, 31)]


def test_grouped_figures_match_the_ledger(engine: Engine) -> None:
    rows = _load(engine)
    report = run_report(engine, MARCH, Ref())
    assert len(report.rows) == 6  # 2 tenants x 3 backends
    for r in report.rows:
        mine = [
            x for x in rows if x.tenant == r.group["tenant"] and x.backend == r.group["backend"]
        ]
        assert r.requests == len(mine)
        assert r.errors == sum(1 for x in mine if x.status >= 400)
        assert r.prompt_tokens == sum(x.prompt_tokens for x in mine)
        assert r.cost == sum((x.cost or Decimal(0) for x in mine), Decimal(0))
        assert r.on_prem_share == (1.0 if ZONES[r.group["backend"]] == "on_prem" else 0.0)
        expect = Decimal(0)
        for x in mine:
            if x.data_class == "public":
                expect += (
                    x.prompt_tokens * Decimal("0.10") + x.completion_tokens * Decimal("0.40")
                ) / 10**6
            elif x.data_class == "personal":
                expect += (x.prompt_tokens * 3 + x.completion_tokens * 15) / Decimal(10**6)
        # the minimum is taken per (data class) rollup slice; prices are linear, so exact
        assert r.cloud_equivalent == expect
    total = report.totals[0]
    assert total.requests == len(rows)
    assert total.cost_try == sum((x.cost_try or Decimal(0) for x in rows), Decimal(0))


def test_p95_from_merged_buckets(engine: Engine) -> None:
    rows = _load(engine)
    report = run_report(engine, ReportQuery(date(2026, 3, 1), date(2026, 3, 31), ("backend",)))
    for r in report.rows:
        ttfts = sorted(
            x.ttft_ms for x in rows if x.backend == r.group["backend"] and x.ttft_ms is not None
        )
        true_p95 = ttfts[int(0.95 * len(ttfts)) - 1]
        assert r.p95_ttft_ms is not None
        assert true_p95 <= r.p95_ttft_ms  # an upper bound at bucket resolution
        assert r.p95_ttft_ms <= 2 * max(true_p95, 50)


def test_monthly_and_daily_paths_agree(engine: Engine) -> None:
    _load(engine)  # Mar 15 .. May 10: days of March and May from daily, April from monthly
    by_day = run_report(
        engine, ReportQuery(date(2026, 3, 15), date(2026, 5, 10), ("day", "tenant")), Ref()
    )
    by_tenant = run_report(
        engine, ReportQuery(date(2026, 3, 15), date(2026, 5, 10), ("tenant",)), Ref()
    )
    for r in by_tenant.rows:
        days = [d for d in by_day.rows if d.group["tenant"] == r.group["tenant"]]
        assert r.requests == sum(d.requests for d in days) > 0
        assert r.cost == sum((d.cost for d in days), Decimal(0))
        assert r.buckets == [sum(b) for b in zip(*(d.buckets for d in days), strict=True)]
    assert {d.group["day"][:7] for d in by_day.rows} == {"2026-03", "2026-04", "2026-05"}


def test_tenant_scope_and_day_grouping(engine: Engine) -> None:
    _load(engine)
    q = ReportQuery(date(2026, 3, 2), date(2026, 3, 3), ("day", "tenant"), tenant="acme")
    report = run_report(engine, q, Ref())
    assert {r.group["tenant"] for r in report.rows} == {"acme"}
    assert [r.group["day"] for r in report.rows] == ["2026-03-02", "2026-03-03"]


def test_bad_queries_are_refused() -> None:
    with pytest.raises(ReportError, match="unknown group-by"):
        ReportQuery(date(2026, 3, 1), date(2026, 3, 2), ("tenant", "colour"))
    with pytest.raises(ReportError, match="ends before"):
        ReportQuery(date(2026, 3, 2), date(2026, 3, 1))


def test_formats(engine: Engine) -> None:
    _load(engine)
    report = run_report(engine, MARCH, Ref())
    parsed = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert list(parsed[0])[:3] == ["tenant", "backend", "currency"]
    body = [p for p in parsed if p["tenant"] != "TOTAL"]
    total = [p for p in parsed if p["tenant"] == "TOTAL"]
    assert len(total) == 1
    assert sum(int(p["requests"]) for p in body) == int(total[0]["requests"])
    assert sum(Decimal(p["cost"]) for p in body) == Decimal(total[0]["cost"])
    doc = to_json(report)
    json.dumps(doc)
    assert doc["totals"][0]["requests"] == report.totals[0].requests
    table = to_table(report).splitlines()
    assert table[0].startswith("rates: ")  # the rates used head the table
    assert table[1].split()[:2] == ["tenant", "backend"] and table[-2].startswith("TOTAL")


def test_cli_report_csv(
    engine: Engine, db_url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = _load(engine)
    code = main(
        [
            "report",
            "--from",
            "2026-03-01",
            "--to",
            "2026-03-31",
            "--group-by",
            "tenant,data_class",
            "--format",
            "csv",
            "--database-url",
            db_url,
        ]
    )
    assert code == 0
    parsed = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert parsed[-1]["tenant"] == "TOTAL"
    assert int(parsed[-1]["requests"]) == len(rows)
    assert main(["report", "--group-by", "tenant,flavour", "--database-url", db_url]) == 2
