"""The ledger records the classifier's band per request (requests.sensitivity_band), on SQLite
and PostgreSQL; a row written without one stays NULL."""

from __future__ import annotations

import time
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import text

from gateway.usage.db import make_engine, migrate
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.pricing import Cost
from gateway.usage.records import UsageRecord
from tests.unit.usage.pg import pg_available, throwaway_database


def _write_and_read(url: str) -> dict[str, str | None]:
    engine = make_engine(url)
    try:
        migrate(engine)
        now = time.time()
        entries = [
            make_entry(
                UsageRecord(
                    request_id=rid,
                    created_at=now,
                    alias="chat",
                    status=200,
                    data_class="public",
                    sensitivity_band=band,
                ),
                Cost(Decimal("0.001"), "policy", Decimal(40)),
                None,
            )
            for rid, band in (("u", "uncertain"), ("c", "confident"), ("n", None))
        ]
        assert write_entries(engine, entries) == 3
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT id, sensitivity_band FROM requests")).all()
        return {r[0]: r[1] for r in rows}
    finally:
        engine.dispose()


EXPECTED = {"u": "uncertain", "c": "confident", "n": None}


def test_sqlite_ledger_records_the_band(tmp_path: Path) -> None:
    assert _write_and_read(f"sqlite:///{tmp_path / 'ledger.db'}") == EXPECTED


@pytest.mark.skipif(not pg_available(), reason="PostgreSQL is not running on 127.0.0.1:5432")
def test_postgres_ledger_records_the_band() -> None:
    with throwaway_database("band") as url:
        assert _write_and_read(url) == EXPECTED
