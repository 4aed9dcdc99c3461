"""The keys page in-process over a real SQLite ledger: keys are listed without their secrets; a
created or rotated key is shown once, in the answer to its form, and never again; revoking or
rotating a key ends its sessions; a tenant sees and manages only its own tenant's API keys and
budgets and cannot make an admin key; no form works without the session's CSRF token; the
running policy's rate limits are shown."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer
from gateway.openai_api.auth import ADMIN_ACTOR
from gateway.usage.budgets import set_budget
from gateway.usage.db import make_engine
from gateway.usage.keys import hash_secret, split_key
from tests.api.admin_console import (
    ADMIN,
    Browser,
    Console,
    Ledger,
    console,
    policy_yaml,
    prepare,
    sign_in,
)

KEY = re.compile(r'<p class="secret" id="new-key">(gk_[0-9a-f]{16}_[0-9a-f]{64})</p>')
LIMITS = (
    "rate_limits:\n"
    "  tenants: {acme: {requests_per_minute: 60}, globex: {requests_per_minute: 5}}\n"
    '  keys: {"*": {tokens_per_minute: 9000}}\n'
    "  aliases: {chat: {requests_per_minute: 600, tokens_per_minute: 100000}}\n"
)


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    found = prepare(tmp_path)
    engine = make_engine(found.db)
    try:
        now = time.time()
        set_budget(engine, "tenant", "acme", Decimal("500"), "TRY", now, tenant="acme")
        set_budget(engine, "tenant", "globex", Decimal("700"), "TRY", now, tenant="globex")
        kid = found.key_ids["acme"]
        set_budget(engine, "key", kid, Decimal("20"), "USD", now, tenant="acme")
        with engine.begin() as conn:  # some spend and a hold in flight
            conn.execute(
                text("UPDATE budgets SET spent = 123.45, reserved = 6.5 WHERE id = :i"),
                {"i": "tenant:acme"},
            )
    finally:
        engine.dispose()
    return found


@pytest.fixture
def gw(ledger: Ledger, tmp_path: Path, openai_emulator: EmulatorServer) -> Iterator[Console]:
    (tmp_path / "policy.yaml").write_text(policy_yaml(openai_emulator.url) + LIMITS)
    with console(ledger, tmp_path, openai_emulator.url) as c:
        yield c


def _signed_in(gw: Console, key: str) -> Browser:
    _r, browser = sign_in(gw.client, key)
    assert browser is not None
    return browser


def _rows(gw: Console, sql: str) -> list[tuple[object, ...]]:
    engine = make_engine(gw.ledger.db)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql))]
    finally:
        engine.dispose()


def _key_changes(gw: Console) -> list[tuple[object, ...]]:
    """(action, key id, actor) of each key_change entry of the audit chain, in order."""
    rows = _rows(gw, "SELECT detail FROM audit_log WHERE kind = 'key_change' ORDER BY seq")
    details = [json.loads(d) if isinstance(d, str) else d for (d,) in rows]
    return [(d["action"], d["key_id"], d["actor"]) for d in details]


def _listed(page: str) -> dict[str, str]:
    """key id -> active | revoked, as the page lists them."""
    return dict(re.findall(r'<tr data-key="([^"]+)" data-status="(\w+)">', page))


def _create(browser: Browser, **fields: str) -> tuple[int, str, str | None]:
    r = browser.post("/admin/console/keys/create", {"csrf": browser.csrf, **fields})
    found = KEY.search(r.text)
    return r.status_code, r.text, found.group(1) if found else None


def test_keys_are_listed_without_their_secrets(gw: Console) -> None:
    page = _signed_in(gw, ADMIN).get("/admin/console/keys")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert set(_listed(page.text)) == set(gw.ledger.key_ids.values())
    for name, key in gw.ledger.keys.items():
        secret = key.rsplit("_", 1)[1]
        assert secret not in page.text and hash_secret(secret) not in page.text
        assert f"gk_{gw.ledger.key_ids[name][1:]}_…" in page.text  # the public prefix
    assert 'id="new-key"' not in page.text


def test_a_created_key_is_shown_once_and_works(gw: Console) -> None:
    admin = _signed_in(gw, ADMIN)
    status, page, key = _create(admin, tenant="initech", app="billing", name="nightly <job>")
    assert status == 200 and key is not None
    assert page.count(key) == 1 and "nightly &lt;job&gt;" in page
    assert admin.post("/admin/console/keys/create", {"csrf": admin.csrf}).status_code == 400
    parts = split_key(key)
    assert parts is not None
    stored = _rows(gw, f"SELECT * FROM api_keys WHERE id = '{parts[0]}'")
    assert len(stored) == 1 and not any(parts[1] in str(v) for v in stored[0])
    again = admin.get("/admin/console/keys").text
    assert key not in again and parts[1] not in again and _listed(again)[parts[0]] == "active"
    bearer = {"authorization": f"Bearer {key}"}
    cost = gw.client.get("/admin/reports/cost", headers=bearer)
    assert cost.status_code == 200  # a tenant key of initech
    assert gw.client.get("/admin/policy", headers=bearer).status_code == 403
    _status, _page, ops = _create(admin, tenant="initech", admin="1")
    assert ops is not None
    assert gw.client.get("/admin/policy", headers={"authorization": f"Bearer {ops}"}).is_success


def test_revoke_ends_the_key_and_its_sessions(gw: Console) -> None:
    admin = _signed_in(gw, ADMIN)
    acme = _signed_in(gw, gw.ledger.keys["acme"])
    kid = gw.ledger.key_ids["acme"]
    r = admin.post("/admin/console/keys/revoke", {"csrf": admin.csrf, "key_id": kid})
    assert r.status_code == 200 and "revoked" in r.text and _listed(r.text)[kid] == "revoked"
    assert acme.get("/admin/dashboard").status_code == 401  # at once, on this session
    assert f'id="revoke-{kid}"' not in r.text  # nothing left to do with it
    assert _key_changes(gw)[-1] == ("revoke", kid, ADMIN_ACTOR)
    again = admin.post("/admin/console/keys/revoke", {"csrf": admin.csrf, "key_id": kid})
    assert again.status_code == 404 and "no active key" in again.text
    gw.clock.offset = 6.0  # past the key cache: the key itself is refused
    bearer = {"authorization": f"Bearer {gw.ledger.keys['acme']}"}
    assert gw.client.get("/admin/reports/cost", headers=bearer).status_code == 401


def test_rotate_shows_the_new_key_once_and_revokes_the_old(gw: Console) -> None:
    acme = _signed_in(gw, gw.ledger.keys["acme"])
    admin = _signed_in(gw, ADMIN)
    old = gw.ledger.key_ids["acme"]
    r = admin.post("/admin/console/keys/rotate", {"csrf": admin.csrf, "key_id": old})
    found = KEY.search(r.text)
    assert r.status_code == 200 and found is not None and r.text.count(found.group(1)) == 1
    new = split_key(found.group(1))
    assert new is not None
    listed = _listed(r.text)
    assert listed[old] == "revoked" and listed[new[0]] == "active"
    assert _rows(gw, f"SELECT tenant, app, scope FROM api_keys WHERE id = '{new[0]}'") == [
        ("acme", "web", "api")
    ]
    assert acme.get("/admin/dashboard").status_code == 401  # the old key's session ended
    assert _key_changes(gw)[-1] == ("rotate", new[0], ADMIN_ACTOR)
    fresh = _signed_in(gw, found.group(1))
    assert "tenant acme" in fresh.get("/admin/dashboard").text
    assert found.group(1) not in admin.get("/admin/console/keys").text


def test_a_tenant_sees_and_manages_only_its_own_api_keys(gw: Console) -> None:
    acme = _signed_in(gw, gw.ledger.keys["acme"])
    page = acme.get("/admin/console/keys")
    assert page.status_code == 200 and "tenant acme" in page.text
    ids = gw.ledger.key_ids
    assert set(_listed(page.text)) == {ids["acme"]}  # not globex's, not the admin-scope key
    assert 'name="admin"' not in page.text and 'name="tenant"' not in page.text
    before = _rows(gw, "SELECT id, revoked_at FROM api_keys ORDER BY id")
    for op in ("revoke", "rotate"):
        for other in (ids["globex"], ids["ops"], "knope"):
            r = acme.post(f"/admin/console/keys/{op}", {"csrf": acme.csrf, "key_id": other})
            assert r.status_code == 404 and "no active key" in r.text and not KEY.search(r.text)
    for fields in ({"tenant": "globex"}, {"admin": "1"}, {"tenant": "acme", "admin": "1"}):
        status, _page, key = _create(acme, **fields)
        assert status == 403 and key is None
    assert _rows(gw, "SELECT id, revoked_at FROM api_keys ORDER BY id") == before
    status, _page, key = _create(acme, app="mobile")
    assert status == 200 and key is not None
    made = split_key(key)
    assert made is not None
    assert _rows(gw, f"SELECT tenant, scope FROM api_keys WHERE id = '{made[0]}'") == [
        ("acme", "api")
    ]
    # the refused attempts left no entry; the tenant's own key is on record as its actor
    assert [c for c in _key_changes(gw) if c[0] != "create" or c[1] == made[0]] == [
        ("create", made[0], ids["acme"])
    ]


def test_an_admin_key_is_out_of_reach_of_its_own_tenant(gw: Console) -> None:
    """Rotating the admin-scope key filed under tenant ops would hand ops a new admin key."""
    _status, _page, key = _create(_signed_in(gw, ADMIN), tenant="ops", app="cron")
    assert key is not None
    ops_user = _signed_in(gw, key)
    page = ops_user.get("/admin/console/keys").text
    admin_key = gw.ledger.key_ids["ops"]
    assert admin_key not in _listed(page) and len(_listed(page)) == 1
    for op in ("rotate", "revoke"):
        form = {"csrf": ops_user.csrf, "key_id": admin_key}
        r = ops_user.post(f"/admin/console/keys/{op}", form)
        assert r.status_code == 404 and not KEY.search(r.text)
    assert _rows(gw, f"SELECT revoked_at FROM api_keys WHERE id = '{admin_key}'") == [(None,)]


def test_budgets_show_spent_reserved_and_limit_to_whom_they_belong(gw: Console) -> None:
    admin = _signed_in(gw, ADMIN).get("/admin/console/keys").text
    acme = _signed_in(gw, gw.ledger.keys["acme"]).get("/admin/console/keys").text
    kid = gw.ledger.key_ids["acme"]
    every = set(re.findall(r'<tr data-budget="([^"]+)">', admin))
    assert every == {"tenant:acme", "tenant:globex", f"key:{kid}"}
    assert set(re.findall(r'<tr data-budget="([^"]+)">', acme)) == {"tenant:acme", f"key:{kid}"}
    row = re.search(r'<tr data-budget="tenant:acme">(.*?)</tr>', acme)
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row.group(1))
    month = time.strftime("%Y-%m", time.gmtime())
    assert cells[2:9] == ["month", month, "TRY", "123.45", "6.50", "500.00", "370.05"]
    assert "globex" not in acme


def test_the_running_policy_rate_limits(gw: Console) -> None:
    def limits(page: str) -> list[tuple[str, ...]]:
        table = re.search(r'<table id="rate-limits">(.*?)</table>', page)
        assert table is not None
        return [
            tuple(re.findall(r"<td>(.*?)</td>", r))
            for r in re.findall(r"<tr>(<td>.*?)</tr>", table.group(1))
        ]

    admin = limits(_signed_in(gw, ADMIN).get("/admin/console/keys").text)
    assert admin == [
        ("tenant", "acme", "60", "—"),
        ("tenant", "globex", "5", "—"),
        ("key", "*", "—", "9,000"),
        ("alias", "chat", "600", "100,000"),
    ]
    acme = limits(_signed_in(gw, gw.ledger.keys["acme"]).get("/admin/console/keys").text)
    assert acme == [admin[0], admin[2], admin[3]]


BUDGETS_SQL = "SELECT id, amount_limit, span FROM budgets ORDER BY id"


@pytest.mark.parametrize("op", ["create", "revoke", "rotate", "budget", "budget-delete"])
def test_no_key_form_works_without_the_csrf_token(gw: Console, op: str) -> None:
    admin = _signed_in(gw, ADMIN)
    other = _signed_in(gw, gw.ledger.keys["ops"])
    before = _rows(gw, "SELECT id, revoked_at FROM api_keys ORDER BY id")
    budgets_before = _rows(gw, BUDGETS_SQL)
    form = {
        "tenant": "initech",
        "key_id": gw.ledger.key_ids["acme"],
        "scope": "tenant",
        "subject": "acme",
        "amount": "1 TRY",
        "budget_id": "tenant:acme",
    }
    for token in (None, "", "forged", other.csrf):
        sent = form if token is None else {**form, "csrf": token}
        r = admin.post(f"/admin/console/keys/{op}", sent)
        assert r.status_code == 403 and "CSRF" in r.text and not KEY.search(r.text)
    assert _rows(gw, "SELECT id, revoked_at FROM api_keys ORDER BY id") == before
    assert _rows(gw, BUDGETS_SQL) == budgets_before
    assert gw.client.get("/admin/console/keys").status_code == 401  # not signed in at all


def _budget(browser: Browser, **fields: str) -> tuple[int, str]:
    r = browser.post("/admin/console/keys/budget", {"csrf": browser.csrf, **fields})
    return r.status_code, r.text


def test_the_admin_sets_changes_and_deletes_budgets_of_every_scope(gw: Console) -> None:
    admin = _signed_in(gw, ADMIN)
    status, page = _budget(
        admin, scope="tag", subject="project=atlas", amount="50 USD", period="week"
    )
    assert status == 200 and "budget week:tag:project=atlas: 50.00 USD per week" in page
    assert '<tr data-budget="week:tag:project=atlas">' in page
    status, page = _budget(admin, scope="tenant", subject="acme", amount="900,5 TRY")
    assert status == 200  # the same budget: a new limit, its spend kept
    ((limit, spent),) = _rows(
        gw, "SELECT amount_limit, spent FROM budgets WHERE id = 'tenant:acme'"
    )
    assert (Decimal(str(limit)), Decimal(str(spent))) == (Decimal("900.5"), Decimal("123.45"))
    r = admin.post(
        "/admin/console/keys/budget-delete",
        {"csrf": admin.csrf, "budget_id": "week:tag:project=atlas"},
    )
    assert r.status_code == 200 and "deleted budget week:tag:project=atlas" in r.text
    assert _rows(gw, "SELECT id FROM budgets WHERE id = 'week:tag:project=atlas'") == []
    for bad in (
        {"scope": "tenant", "subject": "acme", "amount": "-5"},
        {"scope": "tenant", "subject": "acme", "amount": "5 EUR"},
        {"scope": "planet", "subject": "mars", "amount": "5"},
        {"scope": "tag", "subject": "no-equals-sign", "amount": "5"},
        {"scope": "tenant", "subject": "acme", "amount": "5", "period": "year"},
    ):
        status, page = _budget(admin, **bad)
        assert status == 400 and 'class="error" id="notice"' in page, bad


def test_a_tenant_sets_only_its_own_budgets(gw: Console) -> None:
    acme = _signed_in(gw, gw.ledger.keys["acme"])
    page = acme.get("/admin/console/keys").text
    assert '<option value="tag">' not in page and '<option value="alias">' not in page
    before = _rows(gw, BUDGETS_SQL)
    for form in (
        {"scope": "tenant", "subject": "globex", "amount": "1"},  # another tenant
        {"scope": "alias", "subject": "chat", "amount": "1"},  # spans tenants: admin only
        {"scope": "tag", "subject": "project=atlas", "amount": "1"},
        {"scope": "key", "subject": gw.ledger.key_ids["ops"], "amount": "1"},
    ):
        status, _page = _budget(acme, **form)
        assert status == 400, form
    r = acme.post(
        "/admin/console/keys/budget-delete", {"csrf": acme.csrf, "budget_id": "tenant:globex"}
    )
    assert r.status_code == 400 and "no budget" in r.text
    assert _rows(gw, BUDGETS_SQL) == before
    status, page = _budget(acme, scope="app", subject="acme/randevu", amount="10 TRY", period="day")
    assert status == 200 and '<tr data-budget="day:app:acme/randevu">' in page
    assert "globex" not in page
