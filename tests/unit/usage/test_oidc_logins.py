"""The store of OIDC sign-ins in progress, on SQLite and PostgreSQL: hashes only, each used
once and only by the browser that started it, expiring, and bounded in number."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.usage.db import make_engine, migrate
from gateway.usage.oidc_logins import PendingLogins, TooManyPending
from tests.unit.usage.pg import pg_available, throwaway_database

NOW = 1_780_000_000.0


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "postgresql":
        if not pg_available():
            pytest.skip("PostgreSQL is not running")
        with throwaway_database("oidc") as url:
            e = make_engine(url)
            migrate(e)
            yield e
            e.dispose()
        return
    e = make_engine(f"sqlite:///{tmp_path}/ledger.db")
    migrate(e)
    yield e
    e.dispose()


def test_a_sign_in_is_used_once_by_its_own_browser(engine: Engine) -> None:
    store = PendingLogins(engine, ttl_s=600, max_pending=10)
    store.start("state-a", "browser-a", NOW)
    with engine.connect() as conn:
        row = conn.execute(text("SELECT state_hash, browser_hash FROM oidc_logins")).one()
    assert "state-a" not in row and "browser-a" not in row and len(row[0]) == 64
    assert store.use("state-a", "browser-a", NOW + 1)
    assert not store.use("state-a", "browser-a", NOW + 2)  # once


def test_another_browser_burns_the_state(engine: Engine) -> None:
    store = PendingLogins(engine, ttl_s=600, max_pending=10)
    store.start("state-b", "browser-b", NOW)
    assert not store.use("state-b", "someone-else", NOW + 1)
    assert not store.use("state-b", "browser-b", NOW + 2)


def test_a_sign_in_expires(engine: Engine) -> None:
    store = PendingLogins(engine, ttl_s=600, max_pending=10)
    store.start("state-c", "browser-c", NOW)
    assert not store.use("state-c", "browser-c", NOW + 601)


def test_sign_ins_in_progress_are_bounded(engine: Engine) -> None:
    store = PendingLogins(engine, ttl_s=600, max_pending=3)
    for i in range(3):
        store.start(f"s{i}", "b", NOW)
    with pytest.raises(TooManyPending):
        store.start("s3", "b", NOW + 1)
    store.start("s4", "b", NOW + 601)  # the expired ones are dropped to make room
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM oidc_logins")).scalar_one() == 1
