"""A gateway in-process with a real SQLite ledger and a real emulator behind it, for the admin
console's API tests: keys of two tenants and an admin-scope key, ledger rows of both tenants,
and a browser-like helper that signs in through the form and keeps its session cookie itself
(so a test can replay, drop or forge it)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from gateway.app import Seams, create_app
from gateway.openai_api.auth import SESSION_COOKIE
from gateway.policy.loader import load_file
from gateway.settings import Settings
from gateway.usage.db import create_schema, make_engine
from gateway.usage.keys import create_key
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import zone_resolver
from gateway.usage.tables import RequestRow
from tests.unit.reports.helpers import ZONES, make_rows

ADMIN = "console-admin-key-for-tests"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


class ShiftedClock:
    """The real clock plus an offset the test moves forward (session expiry)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def monotonic(self) -> float:
        return time.perf_counter() + self.offset


def policy_yaml(url: str, extra_alias: str = "") -> str:
    return (
        "version: 1\n"
        "backends:\n"
        f'  gpu-local: {{kind: openai_compat, zone: on_prem, base_url: "{url}", model: m}}\n'
        "aliases:\n"
        "  chat: {backends: [gpu-local]}\n" + extra_alias
    )


@dataclass
class Browser:
    """A signed-in browser: its session cookie and the CSRF token its pages carry."""

    client: TestClient
    cookie: str
    csrf: str
    jar: dict[str, str] = field(default_factory=dict)

    def headers(self, **extra: str) -> dict[str, str]:
        return {"cookie": f"{SESSION_COOKIE}={self.cookie}", **extra}

    def get(self, path: str, **params: str) -> httpx.Response:
        self.client.cookies.clear()
        return self.client.get(path, params=params, headers=self.headers())

    def post(self, path: str, data: dict[str, str], **headers: str) -> httpx.Response:
        self.client.cookies.clear()
        return self.client.post(
            path, data=data, headers=self.headers(**headers), follow_redirects=False
        )


def cookie_of(r: httpx.Response, name: str) -> str | None:
    """A cookie's value from Set-Cookie (read here, not by the client's jar, which keeps a
    Secure cookie from plain http)."""
    for header in r.headers.get_list("set-cookie"):
        first = header.split(";", 1)[0]
        if first.startswith(name + "="):
            return first[len(name) + 1 :].strip('"') or None
    return None


def sign_in(client: TestClient, key: str) -> tuple[httpx.Response, Browser | None]:
    """The sign-in form as a browser fills it: GET (the form and its CSRF cookie), POST."""
    client.cookies.clear()
    page = client.get("/admin/login")
    token = CSRF.search(page.text)
    login_cookie = cookie_of(page, "gecit_login_csrf")
    assert page.status_code == 200 and token is not None and login_cookie is not None
    client.cookies.clear()
    r = client.post(
        "/admin/login",
        data={"csrf": token.group(1), "key": key},
        headers={"cookie": f"gecit_login_csrf={login_cookie}"},
        follow_redirects=False,
    )
    cookie = cookie_of(r, SESSION_COOKIE)
    client.cookies.clear()
    if r.status_code != 303 or cookie is None:
        return r, None
    dash = client.get("/admin/dashboard", headers={"cookie": f"{SESSION_COOKIE}={cookie}"})
    found = CSRF.search(dash.text)
    assert dash.status_code == 200 and found is not None, dash.text[:300]
    return r, Browser(client, cookie, found.group(1))


@dataclass
class Ledger:
    db: str
    keys: dict[str, str]  # name -> the full key
    key_ids: dict[str, str]


@dataclass
class Console:
    client: TestClient
    ledger: Ledger
    clock: ShiftedClock
    policy_file: Path


def prepare(tmp: Path) -> Ledger:
    """A ledger with keys of tenants acme and globex, an admin-scope key (tenant ops) and the
    rows of both tenants (their rollups rebuilt)."""
    db = f"sqlite:///{tmp / 'ledger.db'}"
    engine = make_engine(db)
    create_schema(engine)
    keys, ids = {}, {}
    for tenant, scope in (("acme", "api"), ("globex", "api"), ("ops", "admin")):
        info, key = create_key(engine, tenant, "web", scope=scope, now=time.time())
        keys[tenant], ids[tenant] = key, info.id
    with engine.begin() as conn:
        conn.execute(
            RequestRow.__table__.insert(),  # type: ignore[attr-defined]
            [r.model_dump() for r in make_rows(60)],
        )
    rebuild(engine, zone_resolver(ZONES))
    engine.dispose()
    return Ledger(db, keys, ids)


@contextmanager
def console(ledger: Ledger, tmp: Path, emulator_url: str, **settings: Any) -> Iterator[Console]:
    """A gateway (one replica) over `ledger`; `settings` override the test defaults."""
    policy = tmp / "policy.yaml"
    if not policy.exists():
        policy.write_text(policy_yaml(emulator_url))
    clock = ShiftedClock()
    base: dict[str, Any] = {
        "database_url": ledger.db,
        "local_engine": False,
        "admin_key": ADMIN,
        "journal_path": str(tmp / "journal"),
        "probe_interval_s": 0,
        "policy_watch_s": 0,
        "policy_sync_s": 0,
        "policy": str(policy),
    }
    app = create_app(
        Settings(**{**base, **settings}), seams=Seams(clock=clock), policy=load_file(policy)
    )
    with TestClient(app) as client:
        yield Console(client, ledger, clock, policy)
