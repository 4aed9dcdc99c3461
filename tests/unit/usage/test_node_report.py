"""The per-node report over ledger rows written by the real ledger writer, on SQLite and
PostgreSQL: exact sums per node, the cloud comparison only for priced traffic whose data class
an allowed cloud backend may take, unpriced requests outside every cost figure, a node name
longer than its column fitted, rows without a node and outside the range left out."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal, localcontext
from pathlib import Path

import pytest

from gateway.policy.loader import load_text
from gateway.usage.cloud_reference import PolicyCloudReference
from gateway.usage.db import make_engine, migrate
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.node_report import NodeQuery, NodeReport, run_node_report
from gateway.usage.pricing import Cost
from gateway.usage.records import UsageRecord
from gateway.usage.reports import QUOTIENT, ReportError
from tests.unit.usage.pg import pg_available, throwaway_database

DAY = date(2026, 11, 3)
LONG = "n" * 300
POLICY = load_text("""
version: 1
backends:
  gpus: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9/v1", model: m}
  cheap: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9/v1", model: m,
          price: {input_per_mtok: "0.5", output_per_mtok: "1.5"}}
  dear: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9/v1", model: m,
         price: {input_per_mtok: "3", output_per_mtok: "15"}}
aliases:
  chat: {backends: [gpus]}
""").policy

# id, node, data_class, prompt, completion, latency ms, cost (None: unknown), day
ROWS = (
    ("a", "n1", "public", 1000, 500, 1500.0, "0.002", DAY),
    ("b", "n1", "public", 2000, 1500, 2500.0, "0.004", DAY),
    ("c", "n1", "personal", 100, 1000, 1000.0, "0.001", DAY),  # no cloud may take it
    ("d", "n1", "public", 0, 200, 500.0, None, DAY),  # unpriced
    ("e", LONG, "public", 0, 1_000_000, 3_600_000.0, "1.5", DAY),
    ("f", None, "public", 10, 10, 10.0, "9", DAY),  # not a pool
    ("g", "n1", "public", 10, 10, 10.0, "9", date(2026, 11, 4)),  # outside the range
)


def _report(url: str) -> NodeReport:
    engine = make_engine(url)
    try:
        migrate(engine)
        entries = []
        for rid, node, dc, prompt, completion, latency, cost, day in ROWS:
            entry = make_entry(
                _record(rid, node, dc, prompt, completion, latency, day),
                Cost(None if cost is None else Decimal(cost), "on_prem"),
                None,
            )
            entries.append(entry)
        assert write_entries(engine, entries) == len(ROWS)
        return run_node_report(engine, NodeQuery(DAY, DAY), PolicyCloudReference(POLICY))
    finally:
        engine.dispose()


def _record(
    rid: str, node: str | None, dc: str, prompt: int, completion: int, latency: float, day: date
) -> UsageRecord:
    ts = datetime(day.year, day.month, day.day, 12, tzinfo=UTC).timestamp()
    return UsageRecord(
        request_id=rid,
        created_at=ts,
        alias="chat",
        status=200,
        backend="gpus",
        data_class=dc,
        prompt_tokens=prompt,
        completion_tokens=completion,
        latency_ms=latency,
        node=node,
    )


def _check(report: NodeReport) -> None:
    with localcontext(QUOTIENT):  # the report's quotients: 34 significant digits
        _check_figures(report)


def _check_figures(report: NodeReport) -> None:
    assert [r.node for r in report.rows] == ["n1", "n" * 128]  # fitted to the column
    n1, long = report.rows
    assert (n1.requests, n1.completion_tokens, n1.unpriced_requests) == (4, 3200, 1)
    assert n1.busy_seconds == Decimal("5.5")
    assert n1.utilisation(report.query.hours) == Decimal("5.5") / 86400
    assert n1.tokens_per_s == Decimal(3200) / Decimal("5.5")
    assert n1.cost == Decimal("0.007")
    assert n1.cost_per_mtok == Decimal("0.007") * 1_000_000 / 3000
    # public priced traffic only (a, b): the cheaper cloud, 3000 in + 2000 out
    assert n1.cloud_equivalent == Decimal("0.0045")
    assert n1.comparable_cost == Decimal("0.006")
    assert n1.cloud_per_mtok == Decimal("2.25")
    assert n1.saving == Decimal("-0.0015")
    assert long.busy_seconds == 3600 and long.tokens_per_s == Decimal(1_000_000) / 3600
    assert long.cost_per_mtok == Decimal("1.5") == long.cloud_per_mtok


def test_sqlite_node_report(tmp_path: Path) -> None:
    _check(_report(f"sqlite:///{tmp_path / 'ledger.db'}"))


@pytest.mark.skipif(not pg_available(), reason="PostgreSQL is not running on 127.0.0.1:5432")
def test_postgres_node_report() -> None:
    with throwaway_database("nodes") as url:
        _check(_report(url))


def test_reversed_range_is_refused() -> None:
    with pytest.raises(ReportError, match="ends before it starts"):
        NodeQuery(DAY, date(2026, 11, 2))
