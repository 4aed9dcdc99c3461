"""Billing figures (cost before tax, KDV, total with KDV; USD and TRY) on a hand-computed ledger.

Ledger (USD, each row priced at an older 34 TRY/USD, so `cost_try` differs from `net_try`):
  acme   vertex-eu   0.1 + 0.025 = 0.125
  globex bedrock-eu  1.234567891
Policy: usd_try 34.5, kdv_rate 0.20. By hand:
  acme   net 0.125 USD, 0.125 x 34.5 = 4.3125 TRY; KDV 0.025 USD, 0.8625 TRY;
         gross 0.15 USD, 5.175 TRY  (half-up to the cent: 0.13 / 0.03 / 5.18, where half-even
         would give 0.12 / 0.02)
  globex net 1.234567891 USD, x 34.5 = 42.5925922395 TRY; KDV 0.2469135782 USD,
         8.5185184479 TRY; gross 1.4814814692 USD, 51.1111106874 TRY
  total  net 1.359567891 USD, 46.9050922395 TRY; KDV 0.2719135782 USD, 9.3810184479 TRY;
         gross 1.6314814692 USD, 56.2861106874 TRY
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from gateway.cli import main
from gateway.usage.report_format import to_csv, to_json, to_table
from gateway.usage.reports import Rates, ReportQuery, billing_figures, run_report
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import zone_resolver
from gateway.usage.tables import RequestRow
from tests.unit.reports.helpers import ZONES

RATES = Rates(usd_try=Decimal("34.5"), kdv_rate=Decimal("0.20"))
BY_TENANT = ReportQuery(date(2026, 3, 1), date(2026, 3, 31), ("tenant",))
POLICY = """
version: 1
backends:
  gpu-local: {kind: openai_compat, zone: on_prem, model: m, base_url: "http://127.0.0.1:9"}
  vertex-eu:
    kind: openai_compat
    zone: cloud
    model: m
    base_url: "http://127.0.0.1:9"
    price: {input_per_mtok: "0.10", output_per_mtok: "0.40"}
aliases:
  default: {backends: [gpu-local, vertex-eu]}
"""

ACME_EXACT = {
    "net_usd": "0.125",
    "net_try": "4.3125",
    "kdv_usd": "0.025",
    "kdv_try": "0.8625",
    "gross_usd": "0.15",
    "gross_try": "5.175",
}
GLOBEX_EXACT = {
    "net_usd": "1.234567891",
    "net_try": "42.5925922395",
    "kdv_usd": "0.2469135782",
    "kdv_try": "8.5185184479",
    "gross_usd": "1.4814814692",
    "gross_try": "51.1111106874",
}
TOTAL_EXACT = {
    "net_usd": "1.359567891",
    "net_try": "46.9050922395",
    "kdv_usd": "0.2719135782",
    "kdv_try": "9.3810184479",
    "gross_usd": "1.6314814692",
    "gross_try": "56.2861106874",
}
ACME_SHOWN = {
    "net_usd": "0.13",
    "net_try": "4.31",
    "kdv_usd": "0.03",
    "kdv_try": "0.86",
    "gross_usd": "0.15",
    "gross_try": "5.18",
}
GLOBEX_SHOWN = {
    "net_usd": "1.23",
    "net_try": "42.59",
    "kdv_usd": "0.25",
    "kdv_try": "8.52",
    "gross_usd": "1.48",
    "gross_try": "51.11",
}
TOTAL_SHOWN = {
    "net_usd": "1.36",
    "net_try": "46.91",
    "kdv_usd": "0.27",
    "kdv_try": "9.38",
    "gross_usd": "1.63",
    "gross_try": "56.29",
}
BILLING = tuple(ACME_EXACT)


def _row(i: int, tenant: str, backend: str, cost: str) -> RequestRow:
    usd = Decimal(cost)
    return RequestRow(
        id=f"k{i}",
        created_at=datetime(2026, 3, 2, 9, i, tzinfo=UTC),
        tenant=tenant,
        app="chat",
        alias="default",
        backend=backend,
        model="m",
        data_class="public",
        status=200,
        prompt_tokens=10,
        completion_tokens=5,
        cost=usd,
        currency="USD",
        fx_rate_try=Decimal(34),
        cost_try=usd * 34,
        ttft_ms=80.0,
    )


@pytest.fixture
def ledger(engine: Engine) -> Engine:
    rows = [
        _row(1, "acme", "vertex-eu", "0.1"),
        _row(2, "acme", "vertex-eu", "0.025"),
        _row(3, "globex", "bedrock-eu", "1.234567891"),
    ]
    with engine.begin() as conn:
        conn.execute(
            RequestRow.__table__.insert(),  # type: ignore[attr-defined]
            [r.model_dump() for r in rows],
        )
    rebuild(engine, zone_resolver(ZONES))
    return engine


def _pick(d: Mapping[str, object]) -> dict[str, object]:
    return {k: d[k] for k in BILLING}


def test_json_keeps_the_exact_figures(ledger: Engine) -> None:
    doc = to_json(run_report(ledger, BY_TENANT, rates=RATES))
    json.dumps(doc)
    assert doc["rates"] == {"usd_try": "34.5", "kdv_rate": "0.20", "source": "policy billing"}
    acme, globex = doc["rows"]
    assert (acme["tenant"], globex["tenant"]) == ("acme", "globex")
    assert _pick(acme) == ACME_EXACT
    assert _pick(globex) == GLOBEX_EXACT
    assert _pick(doc["totals"][0]) == TOTAL_EXACT
    # cost_try stays the ledger's figure at each request's own pricing rate (34)
    assert acme["cost"] == "0.125" and acme["cost_try"] == "4.25"
    assert "34.5" in doc["notes"]["usd_try"] and "20%" in doc["notes"]["kdv"]


def test_totals_are_the_exact_sum_of_the_rows(ledger: Engine) -> None:
    report = run_report(ledger, BY_TENANT, rates=RATES)
    total = report.totals[0].billing(RATES).as_dict()
    for name in BILLING:
        parts = [r.billing(RATES).as_dict()[name] for r in report.rows]
        assert sum((x for x in parts if x is not None), Decimal(0)) == total[name], name
        assert None not in parts


def test_csv_and_table_round_half_up_to_the_cent(ledger: Engine) -> None:
    report = run_report(ledger, BY_TENANT, rates=RATES)
    acme, globex, total = csv.DictReader(io.StringIO(to_csv(report)))
    assert _pick(acme) == ACME_SHOWN
    assert _pick(globex) == GLOBEX_SHOWN
    assert total["tenant"] == "TOTAL" and _pick(total) == TOTAL_SHOWN
    assert {(r["usd_try"], r["kdv_rate"]) for r in (acme, globex, total)} == {("34.5", "0.20")}
    table = to_table(report).splitlines()
    assert table[0] == (
        "rates: 1 USD = 34.5 TRY (policy billing.usd_try); KDV 20% (policy billing.kdv_rate)"
    )
    head = table[1].split()
    last = dict(zip(head[1:], table[-2].split()[1:], strict=True))  # the TOTAL line
    assert _pick(last) == TOTAL_SHOWN


def test_without_a_kdv_rate_the_report_says_so(ledger: Engine) -> None:
    report = run_report(ledger, BY_TENANT, rates=Rates(usd_try=Decimal("34.5")))
    doc = to_json(report)
    assert doc["rates"]["kdv_rate"] is None
    for row in [*doc["rows"], *doc["totals"]]:
        assert row["kdv_usd"] is row["kdv_try"] is row["gross_usd"] is row["gross_try"] is None
    assert doc["rows"][0]["net_try"] == "4.3125"  # what needs no KDV is still shown
    assert "not set" in doc["notes"]["kdv"] and "not zero" in doc["notes"]["kdv"]
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert {r["kdv_rate"] for r in rows} == {"not set in policy"}
    assert {r["kdv_try"] for r in rows} == {""} and rows[0]["net_try"] == "4.31"
    table = to_table(report)
    assert "billing.kdv_rate is not set in the policy" in table.splitlines()[0]
    assert " 0.00 " not in table


def test_without_any_rate_neither_try_nor_kdv_is_invented(ledger: Engine) -> None:
    doc = to_json(run_report(ledger, BY_TENANT))  # no rates at all
    assert doc["rates"]["usd_try"] is None and doc["rates"]["kdv_rate"] is None
    total = doc["totals"][0]
    assert total["net_usd"] == "1.359567891"
    assert [total[k] for k in BILLING if k != "net_usd"] == [None] * 5
    assert "billing.usd_try is not set" in doc["notes"]["usd_try"]


def test_an_explicit_zero_kdv_rate_is_zero_not_missing() -> None:
    fig = billing_figures(Decimal("2.5"), "USD", Rates(Decimal("34.5"), Decimal("0")))
    assert fig.kdv_try == 0 and fig.gross_try == Decimal("86.25")


def test_cli_uses_the_policy_rates(
    ledger: Engine, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = tmp_path / "p.yaml"
    policy.write_text(POLICY + 'billing: {usd_try: "34.5", kdv_rate: "0.20"}\n', encoding="utf-8")
    args = [
        "report",
        "--from",
        "2026-03-01",
        "--to",
        "2026-03-31",
        "--group-by",
        "tenant",
        "--database-url",
        db_url,
        "--policy",
        str(policy),
    ]
    assert main([*args, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert _pick(doc["totals"][0]) == TOTAL_EXACT
    assert main([*args, "--format", "table"]) == 0
    assert capsys.readouterr().out.startswith("rates: 1 USD = 34.5 TRY")
    bare = tmp_path / "bare.yaml"
    bare.write_text(POLICY, encoding="utf-8")  # no billing section at all
    assert main([*args[:-1], str(bare), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rates"] == {"usd_try": None, "kdv_rate": None, "source": "policy billing"}
    assert doc["totals"][0]["gross_usd"] is None
