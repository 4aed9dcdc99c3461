"""OIDC sign-in to the admin console against a real local issuer (tests/api/oidc_issuer.py) on
127.0.0.1, with a real SQLite ledger: the authorization code flow with PKCE as a browser walks
it (gateway -> issuer -> callback), the session it opens (the same kind a key opens), and each
way a sign-in must be refused."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer
from gateway.openai_api.auth import SESSION_COOKIE
from gateway.usage.db import make_engine
from tests.api.admin_console import CSRF, Browser, Console, Ledger, console, cookie_of, prepare
from tests.api.oidc_issuer import CLIENT_ID, CLIENT_SECRET, IssuerServer, LocalIssuer

REDIRECT = "http://127.0.0.1:8080/admin/oidc/callback"
SECRET_ENV = "GECIT_TEST_OIDC_SECRET"
ADMIN_USER = {"sub": "u-1", "email": "ayse@example.com.tr", "groups": ["staff", "gecit-admins"]}
ACME_USER = {"sub": "u-2", "email": "mehmet@acme.example", "gecit_tenant": "acme"}
MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


@dataclass
class Rig:
    gw: Console
    issuer: LocalIssuer


@pytest.fixture
def ledger(tmp_path: Path) -> Ledger:
    return prepare(tmp_path)


@pytest.fixture
def issuer() -> Iterator[LocalIssuer]:
    with IssuerServer(REDIRECT) as found:
        yield found


def oidc_settings(issuer: LocalIssuer, **extra: Any) -> dict[str, Any]:
    return {
        "oidc_issuer": issuer.url,
        "oidc_client_id": CLIENT_ID,
        "oidc_client_secret_env": SECRET_ENV,
        "oidc_redirect_url": REDIRECT,
        "oidc_admin_claim": "groups",
        "oidc_admin_value": "gecit-admins",
        "oidc_tenant_claim": "gecit_tenant",
        **extra,
    }


@pytest.fixture
def rig(
    ledger: Ledger,
    tmp_path: Path,
    openai_emulator: EmulatorServer,
    issuer: LocalIssuer,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Rig]:
    monkeypatch.setenv(SECRET_ENV, CLIENT_SECRET)
    with console(ledger, tmp_path, openai_emulator.url, **oidc_settings(issuer)) as gw:
        yield Rig(gw, issuer)


@dataclass
class Started:
    """A sign-in the browser started: its pre-session cookie and the issuer's redirect back."""

    cookie: str
    authorize: str  # the issuer URL the gateway sent the browser to

    def at_issuer(self, url: str | None = None) -> str:
        """The browser at the issuer (signed in there already): the callback URL it is sent
        back to, as a path and query on the gateway."""
        r = httpx.get(url or self.authorize, follow_redirects=False)
        assert r.status_code == 302, r.text
        back = urlsplit(r.headers["location"])
        assert f"{back.scheme}://{back.netloc}{back.path}" == REDIRECT
        return f"{back.path}?{back.query}"


def start(client: TestClient) -> Started:
    client.cookies.clear()
    r = client.get("/admin/login/oidc", follow_redirects=False)
    assert r.status_code == 303, r.text
    cookie = cookie_of(r, "gecit_oidc")
    assert cookie is not None
    return Started(cookie, r.headers["location"])


def callback(client: TestClient, path: str, cookie: str | None) -> httpx.Response:
    client.cookies.clear()
    headers = {"cookie": f"gecit_oidc={cookie}"} if cookie else {}
    return client.get(path, headers=headers, follow_redirects=False)


def browser_of(client: TestClient, r: httpx.Response) -> Browser | None:
    cookie = cookie_of(r, SESSION_COOKIE)
    if r.status_code != 200 or cookie is None:
        return None
    client.cookies.clear()
    dash = client.get("/admin/dashboard", headers={"cookie": f"{SESSION_COOKIE}={cookie}"})
    found = CSRF.search(dash.text)
    assert dash.status_code == 200 and found is not None, dash.text[:300]
    return Browser(client, cookie, found.group(1))


def sign_in(rig: Rig, user: dict[str, Any]) -> tuple[httpx.Response, Browser | None]:
    rig.issuer.user = user
    s = start(rig.gw.client)
    r = callback(rig.gw.client, s.at_issuer(), s.cookie)
    return r, browser_of(rig.gw.client, r)


def sessions(gw: Console) -> list[tuple[Any, ...]]:
    engine = make_engine(gw.ledger.db)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT actor, key_id, tenant FROM admin_sessions"))
            return [tuple(r) for r in rows]
    finally:
        engine.dispose()


def gateway_log(caplog: pytest.LogCaptureFixture) -> str:
    """What the gateway itself logged (the test's own HTTP client logs its URLs)."""
    mine = (r for r in caplog.records if r.name.startswith(("gateway", "uvicorn")))
    return "\n".join(r.getMessage() for r in mine)


def refused(r: httpx.Response, status: int, words: str) -> None:
    assert r.status_code == status, (r.status_code, r.text[:400])
    assert words in r.text, r.text[:400]
    assert cookie_of(r, SESSION_COOKIE) is None


def test_an_admin_signs_in_through_the_issuer(rig: Rig) -> None:
    r, browser = sign_in(rig, ADMIN_USER)
    assert browser is not None, r.text[:300]
    assert 'http-equiv="refresh"' in r.text and "/admin/dashboard" in r.text
    set_cookie = next(
        h for h in r.headers.get_list("set-cookie") if h.startswith(SESSION_COOKIE + "=")
    )
    low = set_cookie.lower()
    assert "httponly" in low and "samesite=strict" in low and "path=/admin" in low
    assert r.headers["referrer-policy"] == "no-referrer"
    page = browser.get("/admin/console/policy")
    assert page.status_code == 200 and "oidc:ayse@example.com.tr" in page.text
    [(actor, key_id, tenant)] = sessions(rig.gw)
    assert actor == "oidc:ayse@example.com.tr" and tenant is None
    assert str(key_id).startswith("oidc:")
    assert rig.issuer.pkce_passed == 1 and rig.issuer.pkce_failed == 0
    # the issuer was asked with PKCE S256 and the console's redirect, for this client
    q = parse_qs(urlsplit(start(rig.gw.client).authorize).query)
    assert q["code_challenge_method"] == ["S256"] and q["client_id"] == [CLIENT_ID]
    assert q["redirect_uri"] == [REDIRECT] and q["scope"] == ["openid email profile"]


def _pre_session_cookie(r: httpx.Response) -> dict[str, str]:
    header = next(h for h in r.headers.get_list("set-cookie") if h.startswith("gecit_oidc="))
    parts = [p.strip() for p in header.split(";")[1:]]
    return {p.split("=")[0].lower(): p.partition("=")[2].lower() for p in parts}


def test_the_pre_session_cookie_is_httponly_lax_narrow_and_short_lived(
    rig: Rig,
    ledger: Ledger,
    tmp_path: Path,
    openai_emulator: EmulatorServer,
    issuer: LocalIssuer,
) -> None:
    rig.gw.client.cookies.clear()
    flags = _pre_session_cookie(rig.gw.client.get("/admin/login/oidc", follow_redirects=False))
    assert "httponly" in flags and flags["samesite"] == "lax" and "secure" not in flags
    assert flags["path"] == "/admin/oidc" and flags["max-age"] == "600"
    off_loopback = oidc_settings(issuer, host="0.0.0.0")
    (tmp_path / "b").mkdir()
    with console(ledger, tmp_path / "b", openai_emulator.url, **off_loopback) as gw:
        r = gw.client.get("/admin/login/oidc", follow_redirects=False)
        assert r.status_code == 303 and "secure" in _pre_session_cookie(r)


def test_the_secret_goes_in_the_form_when_the_issuer_asks_for_client_secret_post(
    rig: Rig,
) -> None:
    rig.issuer.client_auth = "client_secret_post"
    assert sign_in(rig, ADMIN_USER)[1] is not None
    rig.issuer.client_auth = "client_secret_basic"  # cached discovery: still the form
    refused(sign_in(rig, ADMIN_USER)[0], 502, "token endpoint answered HTTP 401")


def test_without_a_secret_the_console_is_a_public_client_proven_by_pkce(
    ledger: Ledger,
    tmp_path: Path,
    openai_emulator: EmulatorServer,
    issuer: LocalIssuer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    issuer.client_auth = "none"
    with console(ledger, tmp_path, openai_emulator.url, **oidc_settings(issuer)) as gw:
        _r, browser = sign_in(Rig(gw, issuer), ADMIN_USER)
        assert browser is not None and issuer.pkce_passed == 1


def test_a_tenant_user_reads_only_its_tenant(rig: Rig) -> None:
    _r, acme = sign_in(rig, ACME_USER)
    assert acme is not None
    page = acme.get("/admin/dashboard", **MARCH)
    assert page.status_code == 200 and "tenant acme" in page.text and "Policy" not in page.text
    own = acme.get("/admin/reports/cost", group_by="tenant", **MARCH).json()
    assert {row["tenant"] for row in own["rows"]} == {"acme"}
    for path in ("/admin/dashboard", "/admin/reports/cost"):
        assert acme.get(path, tenant="globex", **MARCH).status_code == 403
    csv = acme.get("/admin/reports/cost", group_by="tenant", format="csv", **MARCH)
    assert csv.status_code == 200 and "globex" not in csv.text
    assert acme.get("/admin/console/policy").status_code == 403
    assert acme.get("/admin/policy").status_code == 403
    assert sessions(rig.gw)[0][2] == "acme"


def test_the_admin_claim_wins_over_a_tenant_claim(rig: Rig) -> None:
    _r, both = sign_in(rig, {**ACME_USER, "groups": "gecit-admins"})
    assert both is not None and both.get("/admin/console/policy").status_code == 200


def test_a_user_mapped_to_nothing_is_refused(rig: Rig) -> None:
    for user in (
        {"sub": "u-3", "email": "x@example.com", "groups": ["staff"]},
        {"sub": "u-4", "gecit_tenant": "acme/../globex"},  # not a tenant name
        {"sub": "u-5", "gecit_tenant": ["acme"]},
    ):
        r, browser = sign_in(rig, user)
        refused(r, 403, "no role here")
        assert browser is None
    assert sessions(rig.gw) == []


def test_logout_ends_an_oidc_session(rig: Rig) -> None:
    _r, browser = sign_in(rig, ADMIN_USER)
    assert browser is not None
    out = browser.post("/admin/logout", {"csrf": browser.csrf})
    assert out.status_code == 303 and out.headers["location"] == "/admin/login"
    for path in ("/admin/dashboard", "/admin/console/policy", "/admin/reports/cost"):
        assert browser.get(path).status_code == 401


def test_a_wrong_state_is_refused_before_the_code_is_used(rig: Rig) -> None:
    rig.issuer.user = ADMIN_USER
    s = start(rig.gw.client)
    back = urlsplit(s.at_issuer())
    q = {k: v[0] for k, v in parse_qs(back.query).items()}
    forged = f"{back.path}?{urlencode({**q, 'state': 'A' * 43})}"
    refused(callback(rig.gw.client, forged, s.cookie), 401, "not valid")
    no_state = f"{back.path}?{urlencode({'code': q['code']})}"
    refused(callback(rig.gw.client, no_state, s.cookie), 401, "not valid")
    assert rig.issuer.token_calls == 0  # refused before the code went anywhere


def test_a_state_is_used_once(rig: Rig) -> None:
    rig.issuer.user = ADMIN_USER
    s = start(rig.gw.client)
    path = s.at_issuer()
    assert browser_of(rig.gw.client, callback(rig.gw.client, path, s.cookie)) is not None
    refused(callback(rig.gw.client, path, s.cookie), 401, "already used")
    assert rig.issuer.token_calls == 1
    assert len(sessions(rig.gw)) == 1


def test_only_the_browser_that_started_a_sign_in_finishes_it(rig: Rig) -> None:
    rig.issuer.user = ADMIN_USER
    s = start(rig.gw.client)
    other = start(rig.gw.client)  # another browser's own pre-session cookie
    path = s.at_issuer()
    refused(callback(rig.gw.client, path, None), 401, "not valid")
    refused(callback(rig.gw.client, path, other.cookie), 401, "not valid")
    refused(callback(rig.gw.client, path, s.cookie), 401, "not valid")  # burnt by the attempt
    assert rig.issuer.token_calls == 0 and sessions(rig.gw) == []


def test_a_sign_in_expires(rig: Rig) -> None:
    rig.issuer.user = ADMIN_USER
    s = start(rig.gw.client)
    rig.gw.clock.offset = 600 + 1  # GECIT_OIDC_LOGIN_TTL_S's default
    refused(callback(rig.gw.client, s.at_issuer(), s.cookie), 401, "expired")


@pytest.mark.parametrize(
    ("knob", "words"),
    [
        ({"tamper": {"nonce": "not-this-sign-ins-nonce"}}, "nonce"),
        ({"foreign_key": True}, "signature does not verify"),
        ({"tamper": {"aud": "another-client"}}, "not for this gateway"),
        ({"tamper": {"aud": [CLIENT_ID, "x"], "azp": "x"}}, "another client"),
        ({"tamper": {"iss": "https://idp.example"}}, "another issuer"),
        ({"tamper": {"exp": int(time.time()) - 3600, "iat": int(time.time()) - 7200}}, "expired"),
        ({"tamper": {"iat": int(time.time()) + 3600}}, "in the future"),
    ],
    ids=["nonce", "signature", "audience", "azp", "issuer", "expired", "iat"],
)
def test_a_bad_id_token_is_refused(rig: Rig, knob: dict[str, Any], words: str) -> None:
    for name, value in knob.items():
        setattr(rig.issuer, name, value)
    r, browser = sign_in(rig, ADMIN_USER)
    refused(r, 401, words)
    assert browser is None and sessions(rig.gw) == []
    assert rig.issuer.pkce_passed == 1  # the exchange itself went through


def test_the_issuer_checks_the_pkce_verifier(rig: Rig) -> None:
    """A code issued for another challenge (an attacker's authorization request carrying
    this browser's state) is refused by the issuer: the gateway's verifier does not match."""
    rig.issuer.user = ADMIN_USER
    s = start(rig.gw.client)
    u = urlsplit(s.authorize)
    q = {k: v[0] for k, v in parse_qs(u.query).items()}
    q["code_challenge"] = "B" * 43
    swapped = f"{u.scheme}://{u.netloc}{u.path}?{urlencode(q)}"
    r = callback(rig.gw.client, s.at_issuer(swapped), s.cookie)
    refused(r, 502, "token endpoint answered HTTP 400")
    assert rig.issuer.pkce_failed == 1 and rig.issuer.pkce_passed == 0


def test_an_issuer_refusal_is_shown_and_ends_the_sign_in(rig: Rig) -> None:
    s = start(rig.gw.client)
    state = parse_qs(urlsplit(s.authorize).query)["state"][0]
    denied = "/admin/oidc/callback?" + urlencode(
        {"error": "access_denied", "error_description": "<script>x</script>", "state": state}
    )
    r = callback(rig.gw.client, denied, s.cookie)
    refused(r, 401, "did not sign you in (access_denied)")
    assert "<script>" not in r.text
    rig.issuer.user = ADMIN_USER
    code_back = f"/admin/oidc/callback?{urlencode({'code': 'c' * 20, 'state': state})}"
    refused(callback(rig.gw.client, code_back, s.cookie), 401, "not valid")


def test_a_discovery_document_for_another_issuer_is_refused(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.issuer.discovery_extra = {"issuer": "https://evil.example"}
    with caplog.at_level(logging.DEBUG):
        r = rig.gw.client.get("/admin/login/oidc", follow_redirects=False)
    refused(r, 502, "names another issuer")
    assert CLIENT_SECRET not in gateway_log(caplog) and CLIENT_SECRET not in r.text


def test_an_oversized_discovery_document_is_refused(
    ledger: Ledger,
    tmp_path: Path,
    openai_emulator: EmulatorServer,
    issuer: LocalIssuer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_ENV, CLIENT_SECRET)
    issuer.pad_discovery = 70_000
    settings = oidc_settings(issuer, oidc_max_response_bytes=64 * 1024)
    with console(ledger, tmp_path, openai_emulator.url, **settings) as gw:
        r = gw.client.get("/admin/login/oidc", follow_redirects=False)
        refused(r, 502, "larger than allowed")
        issuer.pad_discovery = 0  # not cached: the next sign-in asks again and goes through
        assert gw.client.get("/admin/login/oidc", follow_redirects=False).status_code == 303


def test_no_token_or_secret_reaches_a_page_or_the_log(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.issuer.tamper = {"aud": "another-client"}
    rig.issuer.user = ADMIN_USER
    with caplog.at_level(logging.DEBUG):
        s = start(rig.gw.client)
        path = s.at_issuer()
        r = callback(rig.gw.client, path, s.cookie)
    code = parse_qs(urlsplit(path).query)["code"][0]
    logged = gateway_log(caplog)
    for secret in (CLIENT_SECRET, code, s.cookie, "eyJ"):  # "eyJ": any JWT's first bytes
        assert secret not in r.text and secret not in logged
    assert "not for this gateway" in logged  # what was wrong is logged, in words


def test_a_rotated_signing_key_is_fetched_at_most_every_refresh_interval(rig: Rig) -> None:
    assert sign_in(rig, ADMIN_USER)[1] is not None
    assert rig.issuer.jwks_calls == 1
    rig.issuer.rotate()
    r, _ = sign_in(rig, ADMIN_USER)  # the new kid is unknown, the JWKS was fetched just now
    refused(r, 401, "a key the issuer does not publish")
    assert rig.issuer.jwks_calls == 1
    rig.gw.clock.offset = 30 + 1  # GECIT_OIDC_JWKS_REFRESH_S's default
    assert sign_in(rig, ADMIN_USER)[1] is not None
    assert rig.issuer.jwks_calls == 2


def test_a_sign_in_started_on_one_replica_finishes_on_another(
    ledger: Ledger,
    tmp_path: Path,
    openai_emulator: EmulatorServer,
    issuer: LocalIssuer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_ENV, CLIENT_SECRET)
    issuer.user = ACME_USER
    a_dir, b_dir = tmp_path / "a", tmp_path / "b"
    a_dir.mkdir(), b_dir.mkdir()
    url, settings = openai_emulator.url, oidc_settings(issuer)
    with console(ledger, a_dir, url, **settings) as a, console(ledger, b_dir, url, **settings) as b:
        s = start(a.client)
        r = callback(b.client, s.at_issuer(), s.cookie)
        on_b = browser_of(b.client, r)
        assert on_b is not None
        on_a = Browser(a.client, on_b.cookie, on_b.csrf)
        assert "tenant acme" in on_a.get("/admin/dashboard").text


def test_the_discovery_document_is_cached(rig: Rig) -> None:
    for _ in range(3):
        start(rig.gw.client)
    assert rig.issuer.discovery_calls == 1


def test_oidc_off_answers_404_and_the_login_page_offers_no_sso(
    ledger: Ledger, tmp_path: Path, openai_emulator: EmulatorServer
) -> None:
    with console(ledger, tmp_path, openai_emulator.url) as gw:
        for path in ("/admin/login/oidc", "/admin/oidc/callback?code=x&state=y"):
            assert gw.client.get(path, follow_redirects=False).status_code == 404
        assert "sign-in-oidc" not in gw.client.get("/admin/login").text


def test_the_login_page_offers_sso_when_on(rig: Rig) -> None:
    page = rig.gw.client.get("/admin/login")
    assert 'href="/admin/login/oidc"' in page.text


def test_turning_oidc_off_ends_its_sessions(
    ledger: Ledger,
    tmp_path: Path,
    openai_emulator: EmulatorServer,
    issuer: LocalIssuer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_ENV, CLIENT_SECRET)
    with console(ledger, tmp_path, openai_emulator.url, **oidc_settings(issuer)) as gw:
        _r, browser = sign_in(Rig(gw, issuer), ADMIN_USER)
        assert browser is not None
        cookie, csrf = browser.cookie, browser.csrf
    with console(ledger, tmp_path, openai_emulator.url) as off:
        assert Browser(off.client, cookie, csrf).get("/admin/dashboard").status_code == 401
