"""OIDC sign-in in a real browser: Debian's Chromium (Selenium, nothing downloaded) against a
`gateway serve` process and the local test issuer named `localhost`, so the issuer is another
site than the gateway at 127.0.0.1 and the cookies' SameSite rules are those of a real
deployment: the pre-session cookie (Lax) must ride the issuer's redirect back, and the session
cookie (Strict) must reach the dashboard after it. Then sign out, and be refused."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from tests.api.oidc_issuer import CLIENT_ID, CLIENT_SECRET, IssuerServer
from tests.e2e import test_admin_console_browser as console_browser
from tests.e2e.test_ledger_crash import Gateway

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        shutil.which("chromium") is None or shutil.which("chromedriver") is None,
        reason="chromium / chromium-driver are not installed (scripts/ci-system-deps.sh)",
    ),
]

browser = console_browser.browser  # the same headless Chromium fixture
USER = {"sub": "u-9", "email": "zeynep@example.com.tr", "groups": ["gecit-admins"]}


def test_oidc_sign_in_in_chromium(tmp_path: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    with EmulatorServer(openai_app) as emu:
        gw = Gateway(tmp_path, emu.url, f"sqlite:///{tmp_path / 'ledger.db'}")
        redirect = f"{gw.url}/admin/oidc/callback"
        with IssuerServer(redirect, host="localhost") as issuer:
            issuer.user = USER
            gw.env.update(
                GECIT_OIDC_ISSUER=issuer.url,
                GECIT_OIDC_CLIENT_ID=CLIENT_ID,
                GECIT_OIDC_CLIENT_SECRET=CLIENT_SECRET,
                GECIT_OIDC_REDIRECT_URL=redirect,
                GECIT_OIDC_ADMIN_VALUE="gecit-admins",
            )
            gw.start()
            try:
                d.get(gw.url + "/admin/login")
                console_browser._submit(d, By.ID, "sign-in-oidc")
                console_browser._until(
                    lambda: (
                        d.current_url == gw.url + "/admin/dashboard"
                        and d.find_elements(By.ID, "nav")
                    ),
                    "the dashboard, signed in through the issuer",
                )
                nav = d.find_element(By.ID, "nav").text
                assert "oidc:zeynep@example.com.tr" in nav and "admin (all tenants)" in nav
                cookie = d.get_cookie("gecit_session")
                assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
                assert issuer.pkce_passed == 1 and issuer.token_calls == 1
                console_browser._shot(d, tmp_path, "oidc-dashboard")
                d.get(gw.url + "/admin/console/policy")
                assert d.find_elements(By.ID, "policy-link")
                console_browser._submit(d, By.ID, "sign-out")
                d.get(gw.url + "/admin/dashboard")
                message = d.find_element(By.ID, "message").text
                assert message.startswith("Sign in required")
            finally:
                gw.stop()
