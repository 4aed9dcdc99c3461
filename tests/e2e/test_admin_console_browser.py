"""The admin console in a real browser: Debian's Chromium driven by Selenium through Debian's
chromedriver (nothing downloaded at run time), against two `gateway serve` replicas on one
PostgreSQL ledger and one Redis. Sign in; the dashboard; a new date range; a CSV download whose
totals equal the ledger; the policy page: a broken policy shows its line, the fixed one is
validated, diffed, explained, simulated (the figures the JSON endpoint computes) and applied,
replica B serves it, a roll back is served by B too; the keys page: a key created (its secret
shown once), used on replica B, revoked and refused there; sign out and be refused. Every
screenshot is checked to show something (pixel variance)."""

from __future__ import annotations

import csv
import io
import os
import shutil
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.usage.db import make_engine, migrate
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import zone_resolver
from gateway.usage.tables import RequestRow
from tests.e2e.png import luminance_variance
from tests.e2e.test_ledger_crash import Gateway
from tests.e2e.test_multi_replica import REDIS_URL, _redis_available
from tests.unit.reports.helpers import ZONES, make_rows
from tests.unit.usage.pg import pg_available, throwaway_database

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="chromium / chromium-driver are not installed (scripts/ci-system-deps.sh)",
    ),
    pytest.mark.skipif(not pg_available(), reason="PostgreSQL is not running"),
    pytest.mark.skipif(not _redis_available(), reason="Redis is not running"),
]

ADMIN = "browser-console-admin-key"
MIN_VARIANCE = 50.0  # a blank page is 0; a page of text and charts is in the hundreds


def _policy(url: str, alias: str = "") -> str:
    backend = '{kind: openai_compat, zone: %s, model: emu, base_url: "' + url + '/v1"%s}'
    price = ', price: {input_per_mtok: "0.10", output_per_mtok: "0.40"}'
    return (
        "version: 1\n"
        "backends:\n"
        f"  gpu-local: {backend % ('on_prem', '')}\n"
        f"  vertex-eu: {backend % ('cloud', price)}\n"
        f"  bedrock-eu: {backend % ('cloud', price)}\n"
        "aliases:\n"
        "  default: {backends: [gpu-local, vertex-eu]}\n" + alias
    )


@pytest.fixture
def replicas(tmp_path: Path) -> Iterator[tuple[Gateway, Gateway, str]]:
    prefix = f"gecit-test-{os.urandom(4).hex()}:"
    with EmulatorServer(openai_app) as emu, throwaway_database("console") as db_url:
        engine = make_engine(db_url)
        migrate(engine)
        with engine.begin() as conn:
            conn.execute(
                RequestRow.__table__.insert(),  # type: ignore[attr-defined]
                [r.model_dump() for r in make_rows(200)],
            )
        rebuild(engine, zone_resolver(ZONES))
        engine.dispose()
        gws = [Gateway(tmp_path, emu.url, db_url, name=n, policy=_policy(emu.url)) for n in "ab"]
        for gw in gws:
            gw.env.update(
                GECIT_ADMIN_KEY=ADMIN, GECIT_REDIS_URL=REDIS_URL, GECIT_REDIS_PREFIX=prefix
            )
        try:
            for gw in gws:
                gw.start()
            yield gws[0], gws[1], db_url
        finally:
            for gw in gws:
                gw.stop()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    driver = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=options)
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    driver.set_page_load_timeout(60)
    driver.downloads = downloads
    try:
        yield driver
    finally:
        driver.quit()


def _until(check: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _shot(driver: Any, tmp_path: Path, name: str) -> None:
    png = driver.get_screenshot_as_png()
    (tmp_path / f"{name}.png").write_bytes(png)
    assert luminance_variance(png) > MIN_VARIANCE, f"screenshot {name} is (nearly) blank"


def _models(url: str) -> set[str]:
    return {m["id"] for m in httpx.get(url + "/v1/models", timeout=5).json()["data"]}


def _ledger_march(db_url: str) -> tuple[int, Decimal]:
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            n, cost = conn.execute(
                text(
                    "SELECT count(*), coalesce(sum(cost), 0) FROM requests "
                    "WHERE created_at >= '2026-03-01' AND created_at < '2026-04-01'"
                )
            ).one()
    finally:
        engine.dispose()
    return int(n), Decimal(str(cost))


def test_admin_console_in_chromium(
    replicas: tuple[Gateway, Gateway, str], browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.expected_conditions import presence_of_element_located
    from selenium.webdriver.support.ui import WebDriverWait

    a, b, db_url = replicas
    d = browser

    def one(by: str, value: str) -> Any:
        return WebDriverWait(d, 20).until(presence_of_element_located((by, value)))

    # not signed in: refused, pointed at the sign-in page
    d.get(a.url + "/admin/dashboard")
    assert one(By.ID, "message").text.startswith("Sign in required")
    _submit(d, By.ID, "sign-in-link")
    one(By.ID, "key").send_keys(ADMIN)
    _submit(d, By.ID, "sign-in")
    _until(lambda: d.current_url.endswith("/admin/dashboard"), "the dashboard")
    cookie = d.get_cookie("gecit_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/admin"
    assert "admin (all tenants)" in one(By.ID, "nav").text
    _shot(d, tmp_path, "dashboard")

    # the date range form, then a CSV download whose totals are the ledger's
    for name, day in (("from", "2026-03-01"), ("to", "2026-03-31")):
        d.execute_script("arguments[0].value = arguments[1]", one(By.NAME, name), day)
    _submit(d, By.CSS_SELECTOR, 'form[action="/admin/dashboard"] button')
    _until(lambda: "from=2026-03-01" in d.current_url, "the new date range")
    assert "2026-03-01 … 2026-03-31" in one(By.CLASS_NAME, "sub").text
    count, cost = _ledger_march(db_url)
    shown = one(By.CSS_SELECTOR, '[data-metric="requests"] b').text
    assert int(shown.replace(",", "")) == count
    _shot(d, tmp_path, "dashboard-march")
    one(By.CSS_SELECTOR, "#cost-per-day a.csv").click()
    got = _until(
        lambda: [p for p in d.downloads.glob("*.csv") if p.stat().st_size > 0], "the CSV download"
    )
    rows = list(csv.reader(io.StringIO(got[0].read_text(encoding="utf-8"))))
    total = rows[-1]
    assert total[0] == "TOTAL" and got[0].name == "gecit-cost-2026-03-01-2026-03-31.csv"
    assert int(total[rows[0].index("requests")]) == count
    assert Decimal(total[rows[0].index("cost")]) == cost

    # the policy page: a broken policy shows its line
    _submit(d, By.ID, "policy-link")
    _until(lambda: d.current_url.endswith("/admin/console/policy"), "the policy page")
    running = one(By.ID, "policy-text").get_attribute("value")
    emu_url = running.split('base_url: "')[1].split("/v1")[0]
    _shot(d, tmp_path, "policy")
    broken = _policy(emu_url, "  chat2: {backends: [nowhere]}\n")
    bad_line = broken.splitlines().index("  chat2: {backends: [nowhere]}") + 1
    _paste(d, broken)
    # the vendored editor ran under the page's CSP: it numbered every line of the pasted text
    numbered = [
        e.text for e in d.find_elements(By.CSS_SELECTOR, ".CodeMirror-code .CodeMirror-linenumber")
    ]
    assert numbered == [str(n) for n in range(1, broken.count("\n") + 2)]
    _submit(d, By.ID, "validate")
    lines = _until(
        lambda: [
            e.get_attribute("data-line") for e in d.find_elements(By.CSS_SELECTOR, "li.problem")
        ],
        "the problems",
    )
    assert str(bad_line) in lines
    marked = d.execute_script(
        "return document.querySelector('.CodeMirror').CodeMirror.lineInfo(arguments[0]).bgClass",
        bad_line - 1,
    )
    assert "bad-line" in (marked or "")
    _shot(d, tmp_path, "policy-broken")
    _completion_step(d)

    # fixed: valid, its diff, an explain, then apply; replica B serves it
    fixed = _policy(emu_url, "  chat2: {backends: [gpu-local]}\n")
    _paste(d, fixed)
    _submit(d, By.ID, "validate")
    assert one(By.ID, "notice").text.startswith("valid")
    _submit(d, By.ID, "diff")
    assert "+  chat2: {backends: [gpu-local]}" in one(By.ID, "diff-result").text
    one(By.ID, "prompt").send_keys("Hastanın TCKN 10000000146, diyabet tanısı var")
    d.execute_script("arguments[0].value = 'chat2'", one(By.NAME, "model"))
    _submit(d, By.ID, "explain")
    assert one(By.ID, "explain-class").text == "special"
    assert "gpu-local" in one(By.ID, "explain-candidates").text
    _simulate_step(d, a.url, fixed, tmp_path)
    assert "chat2" not in _models(b.url)
    _submit(d, By.ID, "apply")
    assert "applied" in one(By.ID, "notice").text
    _until(lambda: "chat2" in _models(b.url), "replica B serving the new policy", timeout=10)
    answer = httpx.post(
        b.url + "/v1/chat/completions",
        json={"model": "chat2", "messages": [{"role": "user", "content": "merhaba"}]},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    _shot(d, tmp_path, "policy-applied")

    # roll back to the version before: B follows
    versions = [
        e.get_attribute("data-version")
        for e in d.find_elements(By.CSS_SELECTOR, "#history tr[data-version]")
    ]
    assert len(versions) >= 2
    _submit(d, By.ID, f"rollback-{versions[1]}")
    assert "rolled back" in one(By.ID, "notice").text
    _until(lambda: "chat2" not in _models(b.url), "replica B serving the roll back", timeout=10)

    _keys_step(d, b.url, tmp_path)

    # sign out: refused afterwards, in the browser and with the old cookie
    _submit(d, By.ID, "sign-out")
    _until(lambda: d.current_url.endswith("/admin/login"), "the sign-in page")
    d.get(a.url + "/admin/dashboard")
    assert one(By.ID, "message").text.startswith("Sign in required")
    _shot(d, tmp_path, "signed-out")
    refused = [
        e["message"] for e in d.get_log("browser") if "Content Security Policy" in e["message"]
    ]
    assert refused == []
    old = {"cookie": f"gecit_session={cookie['value']}"}
    for gw in (a, b):
        assert httpx.get(gw.url + "/admin/reports/cost", headers=old).status_code == 401


def _simulate_step(d: Any, url: str, policy: str, tmp_path: Path) -> None:
    """Simulate the editor's text over March: the page's figures are the endpoint's."""
    from selenium.webdriver.common.by import By

    for name, day in (("sim-from", "2026-03-01"), ("sim-to", "2026-03-31")):
        d.execute_script("arguments[0].value = arguments[1]", d.find_element(By.ID, name), day)
    _submit(d, By.ID, "simulate")
    api = httpx.post(
        url + "/admin/policy/simulate",
        json={"policy": policy, "from": "2026-03-01", "to": "2026-03-31"},
        headers={"authorization": f"Bearer {ADMIN}"},
        timeout=60,
    ).json()
    assert d.find_element(By.ID, "sim-rows").text == f"{api['rows']:,}" and api["rows"] > 0
    cell = d.find_element(By.CSS_SELECTOR, "#sim-cost-usd .predicted").text
    assert Decimal(cell.replace(",", "")) == Decimal(api["predicted"]["cost_usd"]).quantize(
        Decimal("0.000001")
    )
    shown = {
        e.get_attribute("data-backend")
        for e in d.find_elements(By.CSS_SELECTOR, "#sim-traffic tr[data-backend]")
    }
    assert shown == set(api["traffic_change"])
    _shot(d, tmp_path, "policy-simulated")


def _keys_step(d: Any, other_replica: str, tmp_path: Path) -> None:
    """Create a key (shown once), use it on the other replica, revoke it: refused there."""
    from selenium.webdriver.common.by import By

    _submit(d, By.ID, "keys-link")
    d.find_element(By.ID, "new-tenant").send_keys("initech")
    d.find_element(By.ID, "new-name").send_keys("browser test")
    _submit(d, By.ID, "create-key")
    key = d.find_element(By.ID, "new-key").text
    assert key.startswith("gk_")
    _shot(d, tmp_path, "key-created")
    key_id = "k" + key.split("_")[1]
    bearer = {"authorization": f"Bearer {key}"}
    assert httpx.get(other_replica + "/admin/reports/cost", headers=bearer).status_code == 200
    _submit(d, By.ID, "keys-link")  # the list again: the key is never shown twice
    assert key not in d.page_source and key.rsplit("_", 1)[1] not in d.page_source
    row = d.find_element(By.CSS_SELECTOR, f'tr[data-key="{key_id}"]')
    assert row.get_attribute("data-status") == "active"
    _submit(d, By.ID, f"revoke-{key_id}")
    assert "revoked" in d.find_element(By.ID, "notice").text
    row = d.find_element(By.CSS_SELECTOR, f'tr[data-key="{key_id}"]')
    assert row.get_attribute("data-status") == "revoked"
    _shot(d, tmp_path, "key-revoked")
    _until(
        lambda: httpx.get(other_replica + "/admin/reports/cost", headers=bearer).status_code == 401,
        "the other replica refusing the revoked key",
        timeout=15,
    )


def _submit(driver: Any, by: str, value: str) -> None:
    """Click what submits a form (or follows a link) and wait until the next page has loaded,
    so nothing is read from the page before it."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    # a mark on the old page's window: gone once another document has loaded. (Asking an old
    # element whether it is stale races the navigation inside chromedriver under load.)
    driver.execute_script("window.gecitOldPage = true")
    driver.find_element(by, value).click()
    WebDriverWait(driver, 60, ignored_exceptions=(WebDriverException,)).until(
        lambda drv: drv.execute_script(
            "return window.gecitOldPage === undefined && document.readyState === 'complete'"
        )
    )


def _paste(driver: Any, text_: str) -> None:
    """Put text into the editor as a paste does (one change)."""
    driver.execute_script(
        "document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0])", text_
    )


COMPLETE = """
const cm = document.querySelector('.CodeMirror').CodeMirror;
cm.setValue(arguments[0]);
cm.focus();
cm.setCursor(cm.lineCount() - 1, cm.getLine(cm.lineCount() - 1).length);
cm.execCommand('autocomplete');
return Array.from(document.querySelectorAll('.CodeMirror-hints li'), li => li.textContent);
"""


def _completion_step(d: Any) -> None:
    """Ctrl-Space completion offers the keys the policy's JSON Schema allows at the cursor (the
    schema is fetched once the page has loaded: ask until it has)."""
    top = _until(lambda: d.execute_script(COMPLETE, "version: 1\nal"), "top-level completion")
    assert top == ["aliases"]
    backend = d.execute_script(COMPLETE, "version: 1\nbackends:\n  gpu-local:\n    ")
    assert {"kind", "zone", "base_url", "model"} <= set(backend)
    rule = d.execute_script(COMPLETE, "rules:\n  - name: r\n    match:\n      data_")
    assert rule == ["data_classes"]
