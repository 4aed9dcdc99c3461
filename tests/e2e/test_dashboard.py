"""End to end: a real `gateway serve` over a seeded ledger; the dashboard rendered by headless
Chromium draws every chart with data, the screenshot is not blank, the CSV parses, and requests
sent through the gateway reach the rollups through the recorder's listener."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from gateway.emulators.base import EmulatorServer
from gateway.usage.db import make_engine, migrate
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import zone_resolver
from gateway.usage.tables import RequestRow
from tests.e2e.gateway_proc import GatewayProcess
from tests.e2e.png import png_pixels
from tests.unit.reports.helpers import ZONES, make_rows

pytestmark = pytest.mark.e2e

ADMIN = "e2e-admin-key-for-the-dashboard"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROME_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]
SECTIONS = ("cost-per-day", "onprem-share", "data-class-mix", "p95-ttft", "top-apps")
MARCH = {"from": "2026-03-01", "to": "2026-03-31"}


def _policy(emulator_url: str) -> str:
    backend = '{kind: openai_compat, zone: %s, model: emu, base_url: "' + emulator_url + '/v1"%s}'
    price = ', price: {input_per_mtok: "0.10", output_per_mtok: "0.40"}'
    return (
        f"version: 1\nbackends:\n  gpu-local: {backend % ('on_prem', '')}\n"
        f"  vertex-eu: {backend % ('cloud', price)}\n"
        f"  bedrock-eu: {backend % ('cloud', price)}\n"
        "aliases:\n  default: {backends: [gpu-local, vertex-eu]}\n"
    )


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GatewayProcess]:
    from gateway.emulators.openai import build_app

    tmp = tmp_path_factory.mktemp("dash")
    with EmulatorServer(build_app) as emu:
        g = GatewayProcess(
            tmp,
            "--policy",
            str(tmp / "policy.yaml"),
            "--no-local-engine",
            env={"GECIT_ADMIN_KEY": ADMIN},
        )
        (tmp / "policy.yaml").write_text(_policy(f"http://127.0.0.1:{emu.port}"))
        engine = make_engine(f"sqlite:///{g.db}")
        migrate(engine)
        with engine.begin() as conn:
            conn.execute(
                RequestRow.__table__.insert(),  # type: ignore[attr-defined]
                [r.model_dump() for r in make_rows(200)],
            )
        rebuild(engine, zone_resolver(ZONES))
        engine.dispose()
        g.start(ready_timeout=60)
        try:
            yield g
        finally:
            g.stop()


def _get(gw: GatewayProcess, path: str, **params: str) -> httpx.Response:
    return httpx.get(
        gw.url + path, params=params, timeout=30, headers={"authorization": f"Bearer {ADMIN}"}
    )


def _chromium(*args: str, tmp: Path) -> subprocess.CompletedProcess[bytes]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, *CHROME_FLAGS, f"--user-data-dir={tmp / 'profile'}", *args],
        capture_output=True,
        timeout=120,
        check=True,
    )


@pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (scripts/ci-system-deps.sh)"
)
def test_dashboard_renders_in_chromium(gw: GatewayProcess, tmp_path: Path) -> None:
    assert httpx.get(gw.url + "/admin/dashboard", timeout=10).status_code == 401
    page = _get(gw, "/admin/dashboard", **MARCH)
    assert page.status_code == 200
    html = tmp_path / "dashboard.html"
    # a saved copy: the charts' DOM is checked here; the signed-in browser flow (session
    # cookie, date form, CSV download) is tests/e2e/test_admin_console_browser.py
    html.write_text(page.text, encoding="utf-8")
    dom = _chromium(
        "--virtual-time-budget=3000", "--dump-dom", html.as_uri(), tmp=tmp_path
    ).stdout.decode()
    for section in SECTIONS:
        chunk = dom[dom.index(f'id="{section}"') :]
        chunk = chunk[: chunk.index("</section>")]
        values = [Decimal(v) for v in re.findall(r'class="mark"[^>]*data-value="([0-9.]+)"', chunk)]
        assert values and all(v > 0 for v in values), section
    shot = tmp_path / "dashboard.png"
    _chromium("--window-size=900,700", f"--screenshot={shot}", html.as_uri(), tmp=tmp_path)
    width, bpp, rows = png_pixels(shot.read_bytes())
    colours = {row[i : i + 3] for row in rows[::8] for i in range(0, width * bpp, 8 * bpp)}
    assert len(colours) >= 6, "the screenshot is (nearly) blank"
    blue = bytes((0x25, 0x63, 0xEB))  # the first series colour: bars were painted
    assert any(blue in row for row in rows)


def test_csv_download_is_valid_csv_with_totals(gw: GatewayProcess) -> None:
    r = _get(gw, "/admin/reports/cost", group_by="day,backend", format="csv", **MARCH)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(r.text)))
    assert rows[0][:4] == ["day", "backend", "currency", "requests"]
    body, total = rows[1:-1], rows[-1]
    assert total[0] == "TOTAL"
    n = rows[0].index("requests")
    cost = rows[0].index("cost")
    assert (
        sum(int(x[n]) for x in body)
        == int(total[n])
        == len([r for r in make_rows(200) if r.created_at.month == 3])
    )
    assert sum(Decimal(x[cost]) for x in body) == Decimal(total[cost])


def test_requests_through_the_gateway_reach_the_rollups(gw: GatewayProcess) -> None:
    for _ in range(3):
        r = httpx.post(
            gw.url + "/v1/chat/completions",
            timeout=30,
            json={"model": "default", "messages": [{"role": "user", "content": "merhaba"}]},
        )
        assert r.status_code == 200
    today = datetime.now(UTC).date().isoformat()
    for _ in range(50):  # the recorder writes off the request path
        doc = _get(
            gw, "/admin/reports/cost", group_by="backend", **{"from": today, "to": today}
        ).json()
        if doc["totals"] and doc["totals"][0]["requests"] >= 3:
            break
        time.sleep(0.1)
    assert doc["totals"][0]["requests"] == 3
    assert doc["rows"][0]["backend"] == "gpu-local" and doc["rows"][0]["on_prem_share"] == 1.0


def test_live_requests_are_audited_in_a_valid_chain(
    gw: GatewayProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    from gateway.cli import main

    r = httpx.post(
        gw.url + "/v1/chat/completions",
        timeout=30,
        json={"model": "default", "messages": [{"role": "user", "content": "TCKN 10000000146"}]},
    )
    assert r.status_code == 200
    url = f"sqlite:///{gw.db}"
    for _ in range(50):
        if main(["audit", "verify", "--database-url", url]) == 0:
            out = capsys.readouterr().out
            if int(re.search(r"(\d+) entries", out).group(1)) >= 1:  # type: ignore[union-attr]
                break
        time.sleep(0.1)
    assert "audit chain OK" in out
    for f in (gw.db, gw.db.with_name(gw.db.name + "-wal")):  # entity types, never values
        assert not f.exists() or b"10000000146" not in f.read_bytes()
