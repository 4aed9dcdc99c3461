"""Simulate on the policy page, in-process over a real SQLite ledger: the edited text (never
applied) replays the recorded requests and the page shows the figures the JSON endpoint
computes (cost in USD and TRY with KDV, on-prem share, refused, SLO misses, traffic per
backend), escaped; a broken text shows its problems; bad ranges are one-line notices; only the
admin scope may simulate, and only with the session's CSRF token."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from gateway.emulators.base import EmulatorServer
from tests.api.admin_console import ADMIN, Browser, Console, console, prepare, sign_in

MARCH = {"from": "2026-03-01", "to": "2026-03-31"}
BEARER = {"authorization": f"Bearer {ADMIN}"}


def _new_policy(url: str) -> str:
    """The ledger's alias `default` sent to a priced cloud first, with billing rates."""
    price = 'price: {input_per_mtok: "0.10", output_per_mtok: "0.40"}'
    return (
        "version: 1\n"
        "backends:\n"
        f'  gpu-local: {{kind: openai_compat, zone: on_prem, base_url: "{url}", model: m}}\n'
        f'  vertex-eu: {{kind: openai_compat, zone: cloud, base_url: "{url}", model: m, {price}}}\n'
        "aliases:\n"
        "  chat: {backends: [gpu-local]}\n"
        "  default: {backends: [vertex-eu, gpu-local]}\n"
        'billing: {usd_try: "34.25", kdv_rate: "0.20"}\n'
    )


@pytest.fixture
def gw(tmp_path: Path, openai_emulator: EmulatorServer) -> Iterator[Console]:
    with console(prepare(tmp_path), tmp_path, openai_emulator.url) as c:
        yield c


@pytest.fixture
def admin(gw: Console) -> Browser:
    _r, browser = sign_in(gw.client, ADMIN)
    assert browser is not None
    return browser


def _cells(page: str, row: str) -> tuple[str, str]:
    found = re.search(
        rf'<tr id="sim-{row}">.*?<td class="recorded">(.*?)</td><td class="predicted">(.*?)</td>',
        page,
    )
    assert found is not None, row
    return unescape(found.group(1)), unescape(found.group(2))


def _num(cell: str) -> Decimal:
    return Decimal(cell.replace(",", ""))


def _api(gw: Console, text: str, tenant: str | None = None) -> dict[str, Any]:
    body = {"policy": text, **MARCH, "tenant": tenant}
    r = gw.client.post("/admin/policy/simulate", json=body, headers=BEARER)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _simulate(browser: Browser, text: str, **fields: str) -> str:
    form = {"csrf": browser.csrf, "op": "simulate", "text": text, **MARCH, **fields}
    page = browser.post("/admin/console/policy", form)
    assert page.status_code == 200
    return page.text


def test_the_page_shows_the_figures_the_simulation_computes(
    gw: Console, admin: Browser, openai_emulator: EmulatorServer
) -> None:
    running = gw.client.get("/admin/policy", headers=BEARER).json()["sha256"]
    text = _new_policy(openai_emulator.url)
    page = _simulate(admin, text)
    api = _api(gw, text)
    rec, pred = api["recorded"], api["predicted"]
    assert 'id="simulate-result"' in page and api["rows"] > 0
    assert re.search(r'id="sim-rows">([\d,]+)<', page).group(1) == f"{api['rows']:,}"  # type: ignore[union-attr]
    cent, micro = Decimal("0.01"), Decimal("0.000001")
    usd = _cells(page, "cost-usd")
    assert _num(usd[0]) == Decimal(rec["cost_usd"]).quantize(micro)
    assert _num(usd[1]) == Decimal(pred["cost_usd"]).quantize(micro)
    kdv = _cells(page, "cost-try-kdv")
    assert _num(kdv[1]) == Decimal(pred["gross_try"]).quantize(cent)
    assert Decimal(pred["gross_try"]) == Decimal(pred["cost_usd"]) * Decimal("34.25") * Decimal(
        "1.20"
    )
    for row, key in (("refused", "refused"), ("slo-misses", "slo_misses")):
        assert _cells(page, row) == (f"{rec[key]:,}", f"{pred[key]:,}")
    share = _cells(page, "on-prem")
    assert share[1] == f"{100 * pred['on_prem_share']:.1f} %"
    # traffic gained and lost per backend, as the endpoint counts it
    moved = dict(re.findall(r'<tr data-backend="([^"]+)">(?:<td>.*?</td>){3}<td>(.*?)</td>', page))
    assert moved.keys() == api["traffic_change"].keys()
    for backend, change in api["traffic_change"].items():
        assert int(moved[backend].replace(",", "")) == change
    assert api["changed_backend"] > 0 and api["traffic_change"]["vertex-eu"] > 0
    after = gw.client.get("/admin/policy", headers=BEARER).json()["sha256"]
    assert after == running  # simulated, never applied


def test_one_tenant_and_escaped_input(
    gw: Console, admin: Browser, openai_emulator: EmulatorServer
) -> None:
    text = _new_policy(openai_emulator.url)
    page = _simulate(admin, text, sim_tenant="acme")
    rows = re.search(r'id="sim-rows">([\d,]+)<', page)
    assert rows is not None and int(rows.group(1)) == _api(gw, text, "acme")["rows"]
    assert 0 < int(rows.group(1)) < _api(gw, text)["rows"]
    hostile = '<script>alert("x")</script>'
    page = _simulate(admin, text, sim_tenant=hostile)
    assert hostile not in page and "tenant &lt;script&gt;" in page
    assert 'value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"' in page


@pytest.mark.parametrize(
    ("fields", "notice"),
    [
        ({"from": "2026-03-31", "to": "2026-03-01"}, "the range ends before it starts"),
        ({"from": "yesterday"}, "a day is YYYY-MM-DD"),
        ({"from": "2020-01-01", "to": "2026-03-01"}, "the range is longer than 366 days"),
        ({"sim_tenant": "t" * 129}, "the tenant name is too long"),
    ],
)
def test_a_bad_range_is_a_notice(
    admin: Browser, openai_emulator: EmulatorServer, fields: dict[str, str], notice: str
) -> None:
    page = _simulate(admin, _new_policy(openai_emulator.url), **fields)
    assert f'<div class="error" id="notice">{notice}</div>' in page
    assert 'id="simulate-result"' not in page


def test_a_broken_text_shows_its_problems_and_no_figures(admin: Browser) -> None:
    broken = "version: 1\nbackends: {}\naliases:\n  chat: {backends: [nowhere]}\n"
    page = _simulate(admin, broken)
    assert 'class="problem" data-line="4"' in page and "nothing to simulate" in page
    assert 'id="simulate-result"' not in page


def test_only_the_admin_scope_and_only_with_the_csrf_token(
    gw: Console, admin: Browser, openai_emulator: EmulatorServer
) -> None:
    text = _new_policy(openai_emulator.url)
    form = {"op": "simulate", "text": text, **MARCH}
    for token in (None, "forged"):
        sent = form if token is None else {**form, "csrf": token}
        r = admin.post("/admin/console/policy", sent)
        assert r.status_code == 403 and "CSRF" in r.text and "simulate-result" not in r.text
    _r, acme = sign_in(gw.client, gw.ledger.keys["acme"])
    assert acme is not None
    r = acme.post("/admin/console/policy", {**form, "csrf": acme.csrf})
    assert r.status_code == 403 and "simulate-result" not in r.text
