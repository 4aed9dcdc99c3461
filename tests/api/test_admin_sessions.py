"""Browser sessions of the admin pages, against a real SQLite ledger and a real emulator: the
cookie's flags, CSRF on every form, tenant isolation, the one admin-scope rule, and the ways a
session ends (sign-out, revoking its key, expiry, a changed admin key), also across two
replicas on one ledger."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer
from gateway.openai_api.auth import SESSION_COOKIE
from gateway.usage.db import make_engine
from gateway.usage.keys import revoke_key
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

TTL = 600.0
KEY_CACHE_TTL_S = 5.0  # gateway.openai_api.auth.KeyCache default


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return prepare(tmp_path)


@pytest.fixture
def gw(ledger: Ledger, tmp_path: Path, openai_emulator: EmulatorServer) -> Iterator[Console]:
    with console(ledger, tmp_path, openai_emulator.url, session_ttl_s=TTL) as c:
        yield c


def _signed_in(gw: Console, key: str) -> Browser:
    _r, browser = sign_in(gw.client, key)
    assert browser is not None
    return browser


def _set_cookie(r: object, name: str) -> str:
    headers = r.headers.get_list("set-cookie")  # type: ignore[attr-defined]
    return next(h for h in headers if h.startswith(name + "="))


def test_sign_in_sets_an_httponly_strict_expiring_cookie(gw: Console) -> None:
    r, browser = sign_in(gw.client, ADMIN)
    assert r.status_code == 303 and r.headers["location"] == "/admin/dashboard"
    cookie = _set_cookie(r, SESSION_COOKIE)
    parts = {p.strip().split("=")[0].lower(): p.strip() for p in cookie.split(";")}
    assert "httponly" in parts and parts["samesite"].lower() == "samesite=strict"
    assert parts["path"] == "Path=/admin" and parts["max-age"] == f"Max-Age={int(TTL)}"
    assert "secure" not in parts  # the gateway listens on loopback: plain http://127.0.0.1
    assert browser is not None and len(browser.cookie) >= 40
    # only the token's hash is stored
    rows = _rows(gw, "SELECT token_hash, csrf FROM admin_sessions")
    assert len(rows) == 1 and rows[0][0] != browser.cookie and browser.cookie not in rows[0][0]


def test_cookies_are_secure_off_loopback(
    ledger: Ledger, tmp_path: Path, openai_emulator: EmulatorServer
) -> None:
    with console(ledger, tmp_path, openai_emulator.url, host="0.0.0.0") as c:
        page = c.client.get("/admin/login")
        assert "secure" in _set_cookie(page, "gecit_login_csrf").lower()
        r, _ = sign_in(c.client, ADMIN)
        assert r.status_code == 303
        assert "; secure" in _set_cookie(r, SESSION_COOKIE).lower()


def test_a_wrong_key_opens_no_session(gw: Console) -> None:
    r, browser = sign_in(gw.client, "gk_0000000000000000_" + "0" * 64)
    assert r.status_code == 401 and browser is None and "not accepted" in r.text
    assert SESSION_COOKIE not in r.headers.get("set-cookie", "")
    assert _rows(gw, "SELECT count(*) FROM admin_sessions")[0][0] == 0


def test_sign_in_needs_its_csrf_token(gw: Console) -> None:
    c = gw.client
    c.cookies.clear()
    c.get("/admin/login")  # the CSRF cookie, but the field is left out or wrong
    for data in ({"key": ADMIN}, {"key": ADMIN, "csrf": "forged"}):
        r = c.post("/admin/login", data=data, follow_redirects=False)
        assert r.status_code == 403 and SESSION_COOKIE not in r.headers.get("set-cookie", "")
    c.cookies.clear()  # a field without the cookie (another site's form) is refused as well
    r = c.post("/admin/login", data={"key": ADMIN, "csrf": "x" * 43}, follow_redirects=False)
    assert r.status_code == 403
    assert _rows(gw, "SELECT count(*) FROM admin_sessions")[0][0] == 0


FORMS = [
    ("/admin/logout", {}),
    ("/admin/console/policy", {"op": "validate", "text": "version: 1\n"}),
    ("/admin/console/policy", {"op": "diff", "text": "version: 1\n"}),
    ("/admin/console/policy", {"op": "explain", "text": "x", "model": "chat", "prompt": "hi"}),
    ("/admin/console/policy", {"op": "apply", "text": "version: 1\n"}),
    ("/admin/console/policy", {"op": "simulate", "text": "version: 1\n"}),
    ("/admin/console/policy/rollback", {"version": "1"}),
]


@pytest.mark.parametrize(("path", "data"), FORMS, ids=[f"{p}:{d.get('op')}" for p, d in FORMS])
def test_no_form_works_without_the_csrf_token(gw: Console, path: str, data: dict[str, str]) -> None:
    browser = _signed_in(gw, ADMIN)
    other = _signed_in(gw, gw.ledger.keys["ops"])  # a valid token, of another session
    sha = gw.client.get("/admin/policy", headers={"authorization": f"Bearer {ADMIN}"}).json()
    for token in (None, "", "forged", other.csrf):
        form = dict(data) if token is None else {**data, "csrf": token}
        r = browser.post(path, form)
        assert r.status_code == 403, (path, token, r.status_code)
        assert "CSRF" in r.text
    after = gw.client.get("/admin/policy", headers={"authorization": f"Bearer {ADMIN}"}).json()
    assert after["sha256"] == sha["sha256"]  # nothing applied, nothing rolled back
    assert browser.get("/admin/dashboard").status_code == 200  # and not signed out


def test_the_json_admin_api_on_a_session_needs_the_csrf_header(gw: Console) -> None:
    browser = _signed_in(gw, ADMIN)
    new = policy_yaml("http://127.0.0.1:9/v1", "  chat2: {backends: [gpu-local]}\n")
    gw.client.cookies.clear()
    put = gw.client.put("/admin/policy", content=new, headers=browser.headers())
    assert put.status_code == 403 and put.json()["error"]["code"] == "csrf_failed"
    explain = gw.client.post(
        "/admin/policy/explain",
        json={"model": "chat", "text": "merhaba"},
        headers=browser.headers(),
    )
    assert explain.status_code == 403
    put = gw.client.put(
        "/admin/policy", content=new, headers=browser.headers(**{"x-csrf-token": browser.csrf})
    )
    assert put.status_code == 200, put.text


def test_a_tenant_session_reads_only_its_tenant_and_never_the_policy(gw: Console) -> None:
    acme = _signed_in(gw, gw.ledger.keys["acme"])
    march = {"from": "2026-03-01", "to": "2026-03-31"}
    page = acme.get("/admin/dashboard", **march)
    assert page.status_code == 200 and "tenant acme" in page.text and "Policy" not in page.text
    own = acme.get("/admin/reports/cost", group_by="tenant", **march).json()
    assert {r["tenant"] for r in own["rows"]} == {"acme"}
    for path in ("/admin/dashboard", "/admin/reports/cost"):
        assert acme.get(path, tenant="globex", **march).status_code == 403
    csv = acme.get("/admin/reports/cost", group_by="tenant", format="csv", **march)
    assert csv.status_code == 200 and "globex" not in csv.text and "acme" in csv.text
    assert acme.get("/admin/console/policy").status_code == 403
    assert acme.get("/admin/policy").status_code == 403
    form = {"csrf": acme.csrf, "op": "validate", "text": "version: 1\n"}
    assert acme.post("/admin/console/policy", form).status_code == 403
    back = acme.post("/admin/console/policy/rollback", {"csrf": acme.csrf, "version": "1"})
    assert back.status_code == 403
    r = gw.client.put(
        "/admin/policy",
        content="version: 1\n",
        headers=acme.headers(**{"x-csrf-token": acme.csrf}),
    )
    assert r.status_code == 403


def test_an_admin_scope_key_is_admin_on_every_admin_route(gw: Console) -> None:
    bearer = {"authorization": f"Bearer {gw.ledger.keys['ops']}"}
    c = gw.client
    assert c.get("/admin/policy", headers=bearer).status_code == 200
    explain = c.post(
        "/admin/policy/explain", json={"model": "chat", "text": "merhaba"}, headers=bearer
    )
    assert explain.status_code == 200
    every = c.get(
        "/admin/reports/cost", params={"from": "2026-03-01", "to": "2026-03-31"}, headers=bearer
    ).json()
    assert {r["tenant"] for r in every["rows"]} == {"acme", "globex"}
    tenant = {"authorization": f"Bearer {gw.ledger.keys['acme']}"}
    assert c.get("/admin/policy", headers=tenant).status_code == 403
    ops = _signed_in(gw, gw.ledger.keys["ops"])
    assert ops.get("/admin/console/policy").status_code == 200


def test_sign_out_ends_the_session(gw: Console) -> None:
    browser = _signed_in(gw, ADMIN)
    r = browser.post("/admin/logout", {"csrf": browser.csrf})
    assert r.status_code == 303 and r.headers["location"] == "/admin/login"
    assert 'gecit_session=""' in _set_cookie(r, SESSION_COOKIE) or "Max-Age=0" in _set_cookie(
        r, SESSION_COOKIE
    )
    for path in ("/admin/dashboard", "/admin/reports/cost", "/admin/console/policy"):
        assert browser.get(path).status_code == 401, path
    assert "Sign in" in browser.get("/admin/dashboard").text


def test_revoking_a_key_ends_its_sessions(gw: Console) -> None:
    acme = _signed_in(gw, gw.ledger.keys["acme"])
    ops = _signed_in(gw, gw.ledger.keys["ops"])
    engine = make_engine(gw.ledger.db)
    try:
        assert revoke_key(engine, gw.ledger.key_ids["acme"], time.time())
    finally:
        engine.dispose()
    assert acme.get("/admin/dashboard").status_code == 401
    assert acme.get("/admin/reports/cost").status_code == 401
    assert ops.get("/admin/console/policy").status_code == 200  # another key's session lives
    ended = _rows(gw, "SELECT key_id, revoked_at FROM admin_sessions WHERE revoked_at IS NOT NULL")
    assert [r[0] for r in ended] == [gw.ledger.key_ids["acme"]]


def test_a_key_revoked_elsewhere_ends_its_sessions_within_the_key_cache_ttl(gw: Console) -> None:
    """Another process marks the key revoked without touching admin_sessions: every use of a
    session checks its key again (through the short-lived key cache)."""
    acme = _signed_in(gw, gw.ledger.keys["acme"])
    engine = make_engine(gw.ledger.db)
    try:
        with engine.begin() as conn:
            conn.execute(
                text("UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE id = :k"),
                {"k": gw.ledger.key_ids["acme"]},
            )
    finally:
        engine.dispose()
    gw.clock.offset = KEY_CACHE_TTL_S + 1
    assert acme.get("/admin/dashboard").status_code == 401


def test_a_session_expires(gw: Console) -> None:
    browser = _signed_in(gw, ADMIN)
    gw.clock.offset = TTL - 5
    assert browser.get("/admin/dashboard").status_code == 200
    gw.clock.offset = TTL + 1
    assert browser.get("/admin/dashboard").status_code == 401


def test_sessions_hold_across_replicas_and_end_with_a_changed_admin_key(
    ledger: Ledger, tmp_path: Path, openai_emulator: EmulatorServer
) -> None:
    url = openai_emulator.url
    a_dir, b_dir = tmp_path / "a", tmp_path / "b"
    a_dir.mkdir(), b_dir.mkdir()
    with console(ledger, a_dir, url) as a, console(ledger, b_dir, url) as b:
        browser = _signed_in(a, ADMIN)
        on_b = Browser(b.client, browser.cookie, browser.csrf)
        assert on_b.get("/admin/console/policy").status_code == 200
        assert on_b.post("/admin/logout", {"csrf": browser.csrf}).status_code == 303
        assert browser.get("/admin/dashboard").status_code == 401  # signed out on B, ends on A
        browser = _signed_in(a, ADMIN)
    with console(ledger, b_dir, url, admin_key="a-new-admin-key") as rotated:
        moved = Browser(rotated.client, browser.cookie, browser.csrf)
        assert moved.get("/admin/dashboard").status_code == 401


def _rows(gw: Console, sql: str) -> list[tuple[object, ...]]:
    engine = make_engine(gw.ledger.db)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql))]
    finally:
        engine.dispose()
