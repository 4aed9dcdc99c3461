"""/admin/reports/cost and /admin/dashboard: auth, tenant scope, formats, OpenAI error shape."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from gateway.admin.reports import build_router
from gateway.core.clock import SystemClock
from gateway.openai_api import errors as api_errors
from gateway.openai_api.auth import Authenticator, KeyCache
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.usage.db import make_engine, migrate
from gateway.usage.keys import create_key
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import zone_resolver
from gateway.usage.tables import RequestRow
from tests.unit.reports.helpers import ZONES, make_rows

ADMIN = "admin-secret-for-tests"
POLICY = """
version: 1
backends:
  gpu-local: {kind: openai_compat, zone: on_prem, model: m, base_url: "http://127.0.0.1:9"}
  vertex-eu:
    kind: openai_compat
    zone: cloud
    model: m
    base_url: "http://127.0.0.1:9"
    price: {input_per_mtok: "0.10", output_per_mtok: "0.40"}
aliases:
  default: {backends: [gpu-local, vertex-eu]}
"""


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'l.db'}")
    migrate(engine)
    with engine.begin() as conn:
        conn.execute(
            RequestRow.__table__.insert(),  # type: ignore[attr-defined]
            [r.model_dump() for r in make_rows(200)],
        )
    rebuild(engine, zone_resolver(ZONES))
    yield engine
    engine.dispose()


@pytest.fixture
def client(seeded: Engine) -> TestClient:
    return _client(seeded, POLICY)


def _client(seeded: Engine, policy: str) -> TestClient:
    clock = SystemClock()
    settings = Settings(admin_key=ADMIN)
    auth = Authenticator(KeyCache(seeded, clock), clock, keys_required=True, admin_key=ADMIN)
    app = FastAPI()
    api_errors.install(app)
    app.include_router(build_router())
    app.state.runtime = SimpleNamespace(
        policy=load_text(policy), clock=clock, engine=seeded, settings=settings, auth=auth
    )
    return TestClient(app)


def _h(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


RANGE = {"from": "2026-03-01", "to": "2026-03-31"}


def test_admin_reads_every_tenant_as_csv(client: TestClient) -> None:
    r = client.get(
        "/admin/reports/cost",
        headers=_h(ADMIN),
        params=RANGE | {"group_by": "tenant,backend", "format": "csv"},
    )
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert {x["tenant"] for x in rows} == {"acme", "globex", "TOTAL"}
    body = [x for x in rows if x["tenant"] != "TOTAL"]
    assert sum(int(x["requests"]) for x in body) == int(rows[-1]["requests"]) > 0


def test_tenant_key_sees_only_its_tenant(client: TestClient, seeded: Engine) -> None:
    _, key = create_key(seeded, "acme", now=1.0)
    r = client.get("/admin/reports/cost", headers=_h(key), params=RANGE)
    assert r.status_code == 200
    doc = r.json()
    assert doc["tenant"] == "acme" and [x["tenant"] for x in doc["rows"]] == ["acme"]
    other = client.get("/admin/reports/cost", headers=_h(key), params=RANGE | {"tenant": "globex"})
    assert other.status_code == 403
    assert other.json()["error"]["code"] == "tenant_scope"
    page = client.get("/admin/dashboard", headers=_h(key), params=RANGE)
    assert page.status_code == 200 and "tenant acme" in page.text


def test_refusals_are_openai_shaped(client: TestClient) -> None:
    r = client.get("/admin/reports/cost", params=RANGE)
    assert r.status_code == 401 and set(r.json()["error"]) >= {"message", "type", "code"}
    r = client.get("/admin/reports/cost", headers=_h("gk_nonsense"), params=RANGE)
    assert r.status_code == 401 and "nonsense" not in r.text
    r = client.get("/admin/reports/cost", headers=_h(ADMIN), params={"group_by": "colour"})
    assert r.status_code == 400 and r.json()["error"]["param"] == "group_by"
    r = client.get("/admin/reports/cost", headers=_h(ADMIN), params={"from": "March"})
    assert r.status_code == 400 and r.json()["error"]["param"] == "from"


def test_dashboard_has_every_chart_with_data(client: TestClient) -> None:
    r = client.get("/admin/dashboard", headers=_h(ADMIN), params=RANGE)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for section in ("cost-per-day", "onprem-share", "data-class-mix", "p95-ttft", "top-apps"):
        start = r.text.index(f'id="{section}"')
        chunk = r.text[start : r.text.index("</section>", start)]
        assert 'class="mark"' in chunk, section
        assert "/admin/reports/cost?" in chunk and "format=csv" in chunk
    assert "<script" not in r.text and "http://" not in r.text.replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )


def test_billing_figures_use_the_policy_rates(seeded: Engine) -> None:
    client = _client(seeded, POLICY + 'billing: {usd_try: "34.5", kdv_rate: "0.20"}\n')
    doc = client.get("/admin/reports/cost", headers=_h(ADMIN), params=RANGE).json()
    assert doc["rates"]["usd_try"] == "34.5" and doc["rates"]["kdv_rate"] == "0.20"
    for t in doc["totals"]:
        net_usd, net_try = Decimal(t["net_usd"]), Decimal(t["net_try"])
        assert net_try == net_usd * Decimal("34.5")  # exact, from the rollups
        assert Decimal(t["kdv_try"]) == net_try * Decimal("0.20")
        assert Decimal(t["gross_try"]) == net_try + Decimal(t["kdv_try"])
    r = client.get(
        "/admin/reports/cost",
        headers=_h(ADMIN),
        params=RANGE | {"group_by": "backend", "format": "csv"},
    )
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert {x["kdv_rate"] for x in rows} == {"0.20"}
    assert all(x["kdv_try"] and x["gross_try"] for x in rows)
    r = client.get("/admin/reports/cost", headers=_h(ADMIN), params=RANGE | {"format": "table"})
    assert r.text.startswith("rates: 1 USD = 34.5 TRY (policy billing.usd_try); KDV 20%")
    page = client.get("/admin/dashboard", headers=_h(ADMIN), params=RANGE).text
    assert 'data-metric="KDV (TRY)"' in page and "1 USD = 34.5 TRY" in page


def test_a_policy_without_billing_rates_says_so(client: TestClient) -> None:
    doc = client.get("/admin/reports/cost", headers=_h(ADMIN), params=RANGE).json()
    assert doc["rates"]["kdv_rate"] is None and doc["totals"][0]["kdv_try"] is None
    assert "not set" in doc["notes"]["kdv"] and "not set" in doc["notes"]["usd_try"]
    page = client.get("/admin/dashboard", headers=_h(ADMIN), params=RANGE).text
    start = page.index('data-metric="KDV (TRY)"')
    assert "not set in policy" in page[start : page.index("</div>", start)]
    assert "billing.kdv_rate is not set in the policy" in page
