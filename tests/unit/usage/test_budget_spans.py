"""Budgets over a day, an ISO week or a month, per tenant / app / key / alias / tag: period keys,
ids, reservation and roll-over, settlement exactly once, and the migration of monthly budgets
made before spans existed. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.usage import budget_admin, budgets
from gateway.usage.budget_admin import BudgetInputError, BudgetRequest
from gateway.usage.budget_periods import budget_id, check_subject, period_key, span_of_id
from gateway.usage.db import make_engine, migrate
from gateway.usage.keys import create_key
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.pricing import Cost
from gateway.usage.records import UsageRecord
from tests.unit.usage.pg import pg_available, throwaway_database


def _ts(text_: str) -> float:
    return datetime.fromisoformat(text_).replace(tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("at", "day", "week", "month"),
    [
        ("2026-12-31T23:59:59", "2026-12-31", "2026-W53", "2026-12"),
        ("2027-01-01T00:00:00", "2027-01-01", "2026-W53", "2027-01"),  # ISO week of the old year
        ("2024-12-30T12:00:00", "2024-12-30", "2025-W01", "2024-12"),  # ...and of the new one
        ("2026-03-02T00:00:00", "2026-03-02", "2026-W10", "2026-03"),  # a Monday starts a week
        ("2026-03-01T23:59:59", "2026-03-01", "2026-W09", "2026-03"),
    ],
)
def test_period_keys_are_utc_days_iso_weeks_and_months(
    at: str, day: str, week: str, month: str
) -> None:
    ts = _ts(at)
    assert (period_key("day", ts), period_key("week", ts), period_key("month", ts)) == (
        day,
        week,
        month,
    )


def test_ids_keep_the_monthly_form_and_say_their_span() -> None:
    assert budget_id("tenant", "acme") == "tenant:acme"  # as before spans existed
    assert budget_id("tag", "project=day", "day") == "day:tag:project=day"
    assert [span_of_id(b) for b in ("tenant:day", "day:tenant:x", "week:tag:a=b")] == [
        "month",
        "day",
        "week",
    ]


@pytest.mark.parametrize(
    ("scope", "subject"),
    [
        ("app", "acme"),  # no TENANT/APP
        ("app", "acme/a/b"),
        ("tag", "project"),
        ("tag", "Project=x"),  # tag names are lower case
        ("tag", "project=a b"),
        ("tenant", ""),
        ("tenant", "a\nb"),
        ("alias", "x" * 129),
        ("model", "chat"),
    ],
)
def test_bad_subjects_are_refused(scope: str, subject: str) -> None:
    with pytest.raises(ValueError):
        check_subject(scope, subject)


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        eng = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
        migrate(eng)
        yield eng
        eng.dispose()
        return
    if not pg_available():
        pytest.skip("PostgreSQL is not running")
    with throwaway_database("spans") as url:
        eng = make_engine(url)
        migrate(eng)
        yield eng
        eng.dispose()


def _entry(rid: str, usd: str, tenant: str = "acme", tags: str | None = None) -> dict[str, object]:
    rec = UsageRecord(
        request_id=rid,
        created_at=_ts("2026-03-04T10:00:00"),
        alias="chat",
        status=200,
        tenant=tenant,
        app="web",
        backend="cloud",
        model="m",
        prompt_tokens=10,
        completion_tokens=5,
        tags=tags,
    )
    return make_entry(rec, Cost(Decimal(usd), "policy", Decimal(40)), None)


def test_a_daily_tag_budget_holds_rolls_over_and_settles_once(engine: Engine) -> None:
    day1 = _ts("2026-03-04T10:00:00")
    view = budget_admin.create_budget(
        engine, BudgetRequest("tag", "project=atlas", "1 USD", "day"), day1
    )
    assert view.id == "day:tag:project=atlas" and view.period == "2026-03-04"
    assert view.tenant is None and view.describe() == "daily budget of tag 'project=atlas' (1 USD)"
    bid = view.id
    assert budgets.reserve(engine, "r1", {bid: Decimal("0.6")}, day1) == []
    refused = budgets.reserve(engine, "r2", {bid: Decimal("0.6")}, day1)
    assert [v.id for v in refused] == [bid]  # 0.6 + 0.6 > 1: no room, nothing held
    entries = [_entry("r1", "0.5", tags="project=atlas")]
    assert write_entries(engine, entries, budgets.settle) == 1
    assert write_entries(engine, entries, budgets.settle) == 0  # a replayed journal
    (after,) = budgets.load_budgets(engine, [bid])
    assert (after.spent, after.reserved) == (Decimal("0.5"), Decimal(0))
    # the next UTC day: the first reservation rolls the counters over
    day2 = _ts("2026-03-05T00:00:01")
    assert budgets.reserve(engine, "r3", {bid: Decimal("0.9")}, day2) == []
    (rolled,) = budgets.load_budgets(engine, [bid])
    assert (rolled.period, rolled.spent, rolled.reserved) == ("2026-03-05", 0, Decimal("0.9"))


def test_a_hold_of_the_old_period_never_counts_in_the_new_one(engine: Engine) -> None:
    mon = _ts("2026-03-08T23:59:00")  # Sunday: ISO week 10 ends
    view = budget_admin.create_budget(engine, BudgetRequest("alias", "chat", "2 USD", "week"), mon)
    assert budgets.reserve(engine, "old", {view.id: Decimal(1)}, mon) == []
    assert budgets.reserve(engine, "new", {view.id: Decimal(1)}, mon + 120) == []  # week 11
    write_entries(engine, [_entry("old", "0.7"), _entry("new", "0.4")], budgets.settle)
    (v,) = budgets.load_budgets(engine, [view.id])
    assert (v.period, v.spent, v.reserved) == ("2026-W11", Decimal("0.4"), Decimal(0))


def test_the_admin_api_creates_lists_and_deletes_within_a_tenants_reach(engine: Engine) -> None:
    now = _ts("2026-03-04T10:00:00")
    info, _secret = create_key(engine, "acme", "web", now=now)
    made = [
        budget_admin.create_budget(engine, BudgetRequest("tenant", "acme", "100"), now),
        budget_admin.create_budget(engine, BudgetRequest("app", "acme/web", "5 USD", "day"), now),
        budget_admin.create_budget(
            engine, BudgetRequest("key", info.id, "20 USD", "week"), now, tenant="acme"
        ),
        budget_admin.create_budget(engine, BudgetRequest("tag", "team=ml", "9 USD", "week"), now),
        budget_admin.create_budget(engine, BudgetRequest("tenant", "beta", "7 TRY"), now),
    ]
    assert [v.tenant for v in made] == ["acme", "acme", "acme", None, "beta"]
    assert len(budget_admin.list_budgets(engine)) == 5
    mine = {v.id for v in budget_admin.list_budgets(engine, tenant="acme")}
    assert mine == {"tenant:acme", "day:app:acme/web", f"week:key:{info.id}"}
    with pytest.raises(BudgetInputError, match="no budget"):
        budget_admin.delete_budget(engine, "tenant:beta", tenant="acme")  # not acme's
    with pytest.raises(BudgetInputError, match="in tenant 'acme'"):
        budget_admin.create_budget(engine, BudgetRequest("tenant", "beta", "1"), now, tenant="acme")
    with pytest.raises(BudgetInputError, match="no key"):
        budget_admin.create_budget(engine, BudgetRequest("key", "k_nope", "1"), now)
    with pytest.raises(BudgetInputError, match="day, week or month"):
        budget_admin.create_budget(engine, BudgetRequest("tenant", "acme", "1", "year"), now)
    for bad in ("0", "-3", "NaN", "1e400", "5 EUR", "1 2 3", ""):
        with pytest.raises(BudgetInputError):
            budget_admin.create_budget(engine, BudgetRequest("tenant", "acme", bad), now)
    # a second create of the same scope, subject and period changes the limit, keeps spend
    assert budgets.reserve(engine, "x", {"day:app:acme/web": Decimal(1)}, now) == []
    changed = budget_admin.create_budget(
        engine, BudgetRequest("app", "acme/web", "8 USD", "day"), now
    )
    assert (changed.limit, changed.reserved) == (Decimal(8), Decimal(1))
    gone = budget_admin.delete_budget(engine, "day:app:acme/web", tenant="acme")
    assert gone.id == "day:app:acme/web"
    assert "day:app:acme/web" not in {v.id for v in budget_admin.list_budgets(engine)}


def test_monthly_budgets_made_before_spans_keep_working(engine: Engine) -> None:
    """0009 -> 0010: existing rows become monthly budgets of their tenant, ids unchanged."""
    now = _ts("2026-03-04T10:00:00")
    from alembic import command

    from gateway.usage.db import alembic_config

    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0009")
    info, _ = create_key(engine, "acme", "web", now=now)
    with engine.begin() as conn:
        for bid, scope, subject in (
            ("tenant:acme", "tenant", "acme"),
            (f"key:{info.id}", "key", info.id),
        ):
            conn.execute(
                text(
                    "INSERT INTO budgets (id, scope, subject, currency, amount_limit, period, "
                    "spent, reserved, updated_at) VALUES (:i, :s, :u, 'USD', 10, '2026-03', 4, 0, "
                    ":t)"
                ),
                {"i": bid, "s": scope, "u": subject, "t": datetime(2026, 3, 1)},
            )
    migrate(engine)
    views = {v.id: v for v in budgets.all_budgets(engine)}
    assert {(v.span, v.tenant, v.spent) for v in views.values()} == {("month", "acme", Decimal(4))}
    assert budgets.reserve(engine, "r", {"tenant:acme": Decimal(6)}, now) == []
    assert budgets.reserve(engine, "s", {"tenant:acme": Decimal("0.01")}, now) != []


def test_two_replicas_never_overbook_a_weekly_alias_budget(engine: Engine) -> None:
    """Two engines (two replicas' pools) on one database, 8 threads racing: the conditional
    update lets exactly limit / amount reservations through, never one more."""
    import threading

    now = _ts("2026-03-04T10:00:00")
    view = budget_admin.create_budget(engine, BudgetRequest("alias", "chat", "1 USD", "week"), now)
    other = make_engine(engine.url.render_as_string(hide_password=False))
    took: list[str] = []
    lock = threading.Lock()

    def worker(w: int) -> None:
        eng = (engine, other)[w % 2]
        for i in range(5):
            rid = f"w{w}-{i}"
            if budgets.reserve(eng, rid, {view.id: Decimal("0.1")}, now) == []:
                with lock:
                    took.append(rid)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(8)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        other.dispose()
    (after,) = budgets.load_budgets(engine, [view.id])
    assert len(took) == 10 and after.reserved == Decimal(1) and after.spent == 0
