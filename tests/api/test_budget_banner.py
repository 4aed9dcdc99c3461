"""The dashboard's budget banner, through sign-in on a real SQLite ledger: a tenant sees its own
budgets that are >= 80 % spent or exhausted and nobody else's; the admin sees every one; names
are escaped; no banner when nothing runs low."""

from __future__ import annotations

import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from gateway.emulators.base import EmulatorServer
from gateway.usage import budget_admin, budgets
from gateway.usage.budget_admin import BudgetRequest
from gateway.usage.db import make_engine
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.pricing import Cost
from gateway.usage.records import UsageRecord
from tests.api.admin_console import ADMIN, Console, Ledger, console, prepare, sign_in


def _spend(ledger: Ledger, bid: str, rid: str, usd: str) -> None:
    engine = make_engine(ledger.db)
    now = time.time()
    try:
        assert budgets.reserve(engine, rid, {bid: Decimal(usd)}, now) == []
        rec = UsageRecord(request_id=rid, created_at=now, alias="chat", status=200)
        write_entries(
            engine, [make_entry(rec, Cost(Decimal(usd), "policy", None), None)], budgets.settle
        )
    finally:
        engine.dispose()


@pytest.fixture
def gw(tmp_path: Path, openai_emulator: EmulatorServer) -> Iterator[Console]:
    ledger = prepare(tmp_path)
    engine = make_engine(ledger.db)
    now = time.time()
    try:
        for req in (
            BudgetRequest("tenant", "acme", "10 USD"),  # 85 % spent below
            BudgetRequest("app", "acme/web", "10 USD", "day"),  # 20 %: no banner
            BudgetRequest("tenant", "globex", "1 USD", "week"),  # exhausted below
            BudgetRequest("tenant", "<b>evil</b>", "1 USD", "day"),  # exhausted, a hostile name
        ):
            budget_admin.create_budget(engine, req, now)
    finally:
        engine.dispose()
    _spend(ledger, "tenant:acme", "r1", "8.5")
    _spend(ledger, "day:app:acme/web", "r2", "2")
    _spend(ledger, "week:tenant:globex", "r3", "1")
    _spend(ledger, "day:tenant:<b>evil</b>", "r4", "1")
    with console(ledger, tmp_path, openai_emulator.url) as c:
        yield c


def _page(gw: Console, key: str) -> str:
    _r, browser = sign_in(gw.client, key)
    assert browser is not None
    page = browser.get("/admin/dashboard")
    assert page.status_code == 200
    return page.text


def test_a_tenant_sees_only_its_own_budgets_running_low(gw: Console) -> None:
    text = _page(gw, gw.ledger.keys["acme"])
    assert 'class="budget-banner" data-level="low"' in text
    assert "monthly budget of tenant &#x27;acme&#x27; (10 USD): 85% spent" in text
    assert "acme/web" not in text.split("budget-banner", 1)[1].split("</div>", 1)[0]
    assert "globex" not in text and "evil" not in text


def test_the_admin_sees_every_budget_escaped_exhausted_first(gw: Console) -> None:
    text = _page(gw, ADMIN)
    banner = text.split('class="budget-banner"', 1)[1].split("</div>", 1)[0]
    assert 'data-level="exhausted"' in banner and "Budget exhausted" in banner
    assert "<b>evil</b>" not in text and "&lt;b&gt;evil&lt;/b&gt;" in banner
    assert banner.index("globex") < banner.index("acme")  # exhausted before low
    assert "weekly budget of tenant &#x27;globex&#x27; (1 USD): exhausted" in banner


def test_no_banner_when_nothing_runs_low(gw: Console) -> None:
    text = _page(gw, gw.ledger.keys["globex"])
    assert "budget-banner" in text  # globex's weekly budget is spent
    engine = make_engine(gw.ledger.db)
    try:
        budget_admin.delete_budget(engine, "week:tenant:globex", tenant="globex")
    finally:
        engine.dispose()
    assert "budget-banner" not in _page(gw, gw.ledger.keys["globex"])
