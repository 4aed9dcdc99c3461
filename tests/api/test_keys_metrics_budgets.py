"""Keys, metrics and budgets at the edge, in-process against real emulators and a real SQLite
ledger: the key check (unknown / revoked / missing / required), GET /metrics after traffic, the
budget gate's `on_prem_only` and `refuse` actions, and the app's periodic sweep of stale budget
holds."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from gateway.app import Seams, create_app
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app as openai_app
from gateway.policy.loader import load_text
from gateway.settings import Settings
from gateway.usage import budgets as store
from gateway.usage.db import create_schema, make_engine
from gateway.usage.keys import create_key, revoke_key

KEY_TTL_S = 5.0  # gateway.openai_api.auth.KeyCache default


class ShiftedClock:
    """The real clock plus an offset the test moves forward (the key cache's TTL)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def monotonic(self) -> float:
        return time.perf_counter() + self.offset


def policy_yaml(cloud: str, local: str) -> str:
    return f"""
version: 1
backends:
  cloud: {{kind: openai_compat, zone: cloud, base_url: "{cloud}", model: m,
          price: {{input_per_mtok: "1000", output_per_mtok: "1000"}}}}
  local: {{kind: openai_compat, zone: on_prem, base_url: "{local}", model: m}}
aliases:
  chat: {{backends: [cloud, local]}}
defaults: {{objective: ordered}}
billing:
  on_budget_exhausted: refuse
  tenant_budgets:
    acme: {{amount: "0.01", currency: USD, on_exhausted: on_prem_only}}
    beta: {{amount: "0.01", currency: USD}}
"""


@dataclass
class Env:
    client: TestClient
    db: str
    keys: dict[str, str]
    clock: ShiftedClock
    cloud: EmulatorServer
    local: EmulatorServer

    def ask(self, key: str | None = None, **headers: str) -> Any:
        if key is not None:
            headers["authorization"] = f"Bearer {key}"
        return self.client.post(
            "/v1/chat/completions",
            headers=headers,
            json={"model": "chat", "messages": [{"role": "user", "content": "Bugün hava nasıl?"}]},
        )

    def rows(self, sql: str, n: int = 1, timeout: float = 5.0) -> list[Any]:
        engine = make_engine(self.db)
        deadline = time.monotonic() + timeout
        try:
            while True:
                with engine.connect() as conn:
                    found = list(conn.execute(text(sql)))
                if len(found) >= n or time.monotonic() > deadline:
                    return found
                time.sleep(0.05)
        finally:
            engine.dispose()


@pytest.fixture(scope="module")
def emulators() -> Iterator[tuple[EmulatorServer, EmulatorServer]]:
    with EmulatorServer(openai_app) as cloud, EmulatorServer(openai_app) as local:
        yield cloud, local


def _prepare_db(tmp: Path) -> tuple[str, dict[str, str]]:
    db = f"sqlite:///{tmp / 'ledger.db'}"
    engine = make_engine(db)
    create_schema(engine)
    keys = {t: create_key(engine, t, "web", now=time.time())[1] for t in ("acme", "beta")}
    engine.dispose()
    return db, keys


def _start(
    emulators: tuple[EmulatorServer, EmulatorServer], tmp: Path, **settings: Any
) -> Iterator[Env]:
    cloud, local = emulators
    for e in emulators:
        e.state.reset()
    db, keys = _prepare_db(tmp)
    settings = {"probe_interval_s": 0, "policy_sync_s": 0, **settings}
    clock = ShiftedClock()
    app = create_app(
        Settings(database_url=db, local_engine=False, journal_path=str(tmp / "j"), **settings),
        seams=Seams(clock=clock),
        policy=load_text(policy_yaml(cloud.url, local.url)),
    )
    with TestClient(app) as client:
        yield Env(client, db, keys, clock, cloud, local)


@pytest.fixture
def env(emulators: tuple[EmulatorServer, EmulatorServer], tmp_path: Path) -> Iterator[Env]:
    yield from _start(emulators, tmp_path)


def _openai_error(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    err: dict[str, Any] = r.json()["error"]
    assert set(err) >= {"message", "type", "param", "code"}
    return err


# ---- keys ----------------------------------------------------------------------------------
def test_unknown_or_malformed_key_is_401_in_the_openai_shape(env: Env) -> None:
    unknown = "gk_" + "ab" * 8 + "_" + "cd" * 32
    for key in (unknown, "gk_short"):
        err = _openai_error(env.ask(key), 401)
        assert err["type"] == "authentication_error" and err["code"] == "invalid_api_key"
        assert err["message"] == "invalid API key" and key not in r_text(err)
    assert env.cloud.state.requests == [] and env.local.state.requests == []


def r_text(err: dict[str, Any]) -> str:
    return " ".join(str(v) for v in err.values())


def test_revoked_key_is_refused_once_the_cache_ttl_has_passed(env: Env) -> None:
    key = env.keys["beta"]
    r = env.client.get("/v1/models", headers={"authorization": f"Bearer {key}"})
    assert r.status_code == 200
    engine = make_engine(env.db)
    assert revoke_key(engine, "k" + key.split("_")[1], time.time())
    engine.dispose()
    env.clock.offset += KEY_TTL_S + 0.1
    err = _openai_error(env.ask(key), 401)
    assert err["message"] == "invalid API key"
    assert env.cloud.state.requests == [] and env.local.state.requests == []


def _key_table_unreadable(db: str) -> None:
    """What a database restart looks like to a key look-up: the read fails."""
    engine = make_engine(db)
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE api_keys RENAME TO api_keys_away"))
    engine.dispose()


def test_a_key_seen_lately_is_served_while_the_key_store_is_unreadable(
    emulators: tuple[EmulatorServer, EmulatorServer], tmp_path: Path
) -> None:
    """A PostgreSQL restart once turned every request of the next seconds into an unhandled
    500 with no ledger row: the key cache's TTL ran out and the look-up raised."""
    for env in _start(emulators, tmp_path, require_keys=True, key_stale_s=60.0):
        acme, beta = env.keys["acme"], env.keys["beta"]
        assert env.ask(acme).status_code == 200
        _key_table_unreadable(env.db)
        env.clock.offset += KEY_TTL_S + 0.1
        served = env.ask(acme)
        assert served.status_code == 200, served.text
        rid = served.headers["x-request-id"]
        assert env.rows(f"SELECT tenant FROM requests WHERE id = '{rid}'") == [("acme",)]
        # a key not read lately: 503 in the OpenAI shape with Retry-After, never a 500
        unseen = env.ask(beta)
        err = _openai_error(unseen, 503)
        assert err["code"] == "key_store_unavailable" and unseen.headers["retry-after"] == "1"
        # the stand-in expires `key_stale_s` after the record was read
        env.clock.offset += 60.0
        assert _openai_error(env.ask(acme), 503)["code"] == "key_store_unavailable"


def test_no_key_on_loopback_is_the_default_tenant(env: Env) -> None:
    assert env.ask().status_code == 200
    # an OpenAI SDK's placeholder key is not a Geçit key: also the default tenant
    assert env.ask("sk-placeholder").status_code == 200
    rows = env.rows("SELECT tenant, key_id FROM requests WHERE status = 200", 2)
    assert [tuple(r) for r in rows] == [("default", None), ("default", None)]


def test_keys_required_refuses_a_missing_key_and_serves_a_valid_one(
    emulators: tuple[EmulatorServer, EmulatorServer], tmp_path: Path
) -> None:
    for env in _start(emulators, tmp_path, require_keys=True):
        err = _openai_error(env.ask(), 401)
        assert "missing API key" in err["message"]
        assert _openai_error(env.ask("sk-placeholder"), 401)["message"] == "invalid API key"
        ok = env.ask(env.keys["acme"])
        assert ok.status_code == 200, ok.text
        rows = env.rows("SELECT tenant, key_id FROM requests WHERE status = 200")
        assert [r[0] for r in rows] == ["acme"] and rows[0][1] is not None


# ---- metrics -------------------------------------------------------------------------------
def _sample(body: str, name: str, **labels: str) -> float | None:
    for line in body.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


def test_metrics_move_after_a_request(env: Env) -> None:
    before = env.client.get("/metrics").text
    assert (
        _sample(before, "gecit_requests_total", backend="cloud", data_class="public", status="200")
        is None
    )
    assert env.ask().headers["x-gecit-backend"] == "cloud"
    body = env.client.get("/metrics").text
    assert (
        _sample(body, "gecit_requests_total", backend="cloud", data_class="public", status="200")
        == 1.0
    )
    prompt = _sample(
        body, "gecit_tokens_total", backend="cloud", data_class="public", kind="prompt"
    )
    completion = _sample(
        body, "gecit_tokens_total", backend="cloud", data_class="public", kind="completion"
    )
    assert prompt and prompt > 0 and completion and completion > 0
    assert _sample(body, "gecit_cost_usd_total", backend="cloud", data_class="public")
    assert _sample(body, "gecit_budget_remaining", budget="tenant:acme", currency="USD") == 0.01
    assert _sample(body, "gecit_budget_remaining", budget="tenant:beta", currency="USD")


# ---- budgets -------------------------------------------------------------------------------
def test_exhausted_on_prem_only_budget_keeps_only_on_prem_candidates(env: Env) -> None:
    # control: without a budget the ordered alias goes to the cloud first
    assert env.ask().headers["x-gecit-backend"] == "cloud"
    env.cloud.state.reset()
    # acme's 0.01 USD cannot hold a cloud call (512 output tokens at 1000 USD/Mtok)
    r = env.ask(env.keys["acme"])
    assert r.status_code == 200, r.text
    assert r.headers["x-gecit-backend"] == "local"
    assert env.cloud.state.requests == [] and len(env.local.state.requests) == 1
    row = env.rows("SELECT backend, status FROM requests WHERE tenant = 'acme'")
    assert tuple(row[0]) == ("local", 200)
    holds = env.rows("SELECT count(*) FROM budget_holds")
    assert holds[0][0] == 0  # nothing left reserved


def test_exhausted_refuse_budget_is_429_naming_the_budget(env: Env) -> None:
    err = _openai_error(env.ask(env.keys["beta"]), 429)
    assert err["code"] == "budget_exhausted" and err["type"] == "rate_limit_error"
    assert "tenant 'beta'" in err["message"]
    assert env.cloud.state.requests == [] and env.local.state.requests == []
    assert env.rows("SELECT status FROM requests WHERE tenant = 'beta'")[0][0] == 429


def test_lifespan_sweeps_holds_left_by_a_dead_process(
    emulators: tuple[EmulatorServer, EmulatorServer], tmp_path: Path
) -> None:
    db, _ = _prepare_db(tmp_path)
    engine = make_engine(db)
    now = time.time()
    store.set_budget(engine, "tenant", "acme", Decimal("0.01"), "USD", now)
    bid = store.budget_id("tenant", "acme")
    # a process reserved for two requests 2 minutes ago and died; a live one reserved now
    assert store.reserve(engine, "req_dead1", {bid: Decimal("0.002")}, now - 120) == []
    assert store.reserve(engine, "req_dead2", {bid: Decimal("0.003")}, now - 120) == []
    assert store.reserve(engine, "req_live", {bid: Decimal("0.001")}, now) == []
    engine.dispose()
    extra = {"budget_sweep_s": 0.05, "budget_hold_stale_s": 60}
    for env in _start_existing(emulators, tmp_path, db, extra):
        rows = env.rows("SELECT request_id FROM budget_holds WHERE request_id != 'req_live'", n=0)
        deadline = time.monotonic() + 5
        while rows and time.monotonic() < deadline:
            time.sleep(0.05)
            rows = env.rows(
                "SELECT request_id FROM budget_holds WHERE request_id != 'req_live'", n=0
            )
        assert rows == []
        left = env.rows("SELECT request_id FROM budget_holds")
        assert [r[0] for r in left] == ["req_live"]  # a fresh hold is not touched
        reserved, spent = env.rows(f"SELECT reserved, spent FROM budgets WHERE id = '{bid}'")[0]
        assert Decimal(str(reserved)) == Decimal("0.001") and Decimal(str(spent)) == 0


def _start_existing(
    emulators: tuple[EmulatorServer, EmulatorServer], tmp: Path, db: str, extra: dict[str, Any]
) -> Iterator[Env]:
    cloud, local = emulators
    clock = ShiftedClock()
    app = create_app(
        Settings(
            database_url=db,
            local_engine=False,
            journal_path=str(tmp / "j2"),
            probe_interval_s=0,
            policy_sync_s=0,
            **extra,
        ),
        seams=Seams(clock=clock),
        policy=load_text(policy_yaml(cloud.url, local.url)),
    )
    with TestClient(app) as client:
        yield Env(client, db, {}, clock, cloud, local)


def test_a_budget_created_after_start_up_holds_from_the_first_request(env: Env) -> None:
    # the gate's snapshot refreshes every second; a key budgeted just now must not get a
    # free second of unreserved cloud calls (two replicas overspent by more than one request)
    engine = make_engine(env.db)
    try:
        info, key = create_key(engine, "gamma", "web", now=time.time())
        store.set_budget(engine, "key", info.id, Decimal("0.000001"), "USD", time.time())
    finally:
        engine.dispose()
    r = env.ask(key)
    assert r.status_code in (200, 429), r.text
    assert env.cloud.state.requests == [], "an exhausted budget must not reach the cloud"
