"""Budget alerts end to end: budgets spent through the real reservation and ledger write, the
alert loop of two replicas (each its own engine and pool) sharing one database, and a real HTTP
receiver on 127.0.0.1 that checks every delivery's HMAC itself. Each threshold arrives once per
budget and period; a receiver that fails gets the same signed body again, later."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.service.budget_alerts import BudgetAlerter, Delivery
from gateway.service.webhook import Webhook
from gateway.usage import budget_admin, budgets
from gateway.usage.budget_admin import BudgetRequest
from gateway.usage.db import make_engine, migrate
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.pricing import Cost
from gateway.usage.records import UsageRecord
from tests.unit.usage.pg import pg_available, throwaway_database

pytestmark = pytest.mark.e2e

SECRET = "s3cret-for-budget-alerts-only"


@dataclass
class Receiver:
    url: str
    fail_first: int = 0
    now: Callable[[], float] = time.time  # the receiver's clock (the tests move theirs)
    posts: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    good: list[dict[str, object]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _signed_ok(headers: dict[str, str], body: bytes, now: float) -> bool:
    """The receiver's side, written here from the documented format, not from our code."""
    ts = headers.get("x-gecit-timestamp", "")
    if not ts.isdigit() or abs(now - int(ts)) > 300:
        return False
    want = hmac.new(SECRET.encode(), ts.encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest("sha256=" + want, headers.get("x-gecit-signature", ""))


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    rec = Receiver("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            with rec.lock:
                rec.posts.append((headers, body))
                failing = len(rec.posts) <= rec.fail_first
                ok = not failing and _signed_ok(headers, body, rec.now())
                if ok:
                    rec.good.append(json.loads(body))
            self.send_response(204 if ok else (500 if failing else 401))
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    rec.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/budget"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield rec
    server.shutdown()
    server.server_close()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ledger.db'}"
        return
    if not pg_available():
        pytest.skip("PostgreSQL is not running")
    with throwaway_database("alerts") as url:
        yield url


class Clock:
    def __init__(self, now: float) -> None:
        self.t = now

    def now(self) -> float:
        return self.t

    def monotonic(self) -> float:
        return self.t


def _spend(engine: Engine, rid: str, usd: str, now: float, bid: str = "tenant:acme") -> None:
    """One request through the budget path: reserve, then the ledger write settles it."""
    assert budgets.reserve(engine, rid, {bid: Decimal(usd)}, now) == []
    rec = UsageRecord(
        request_id=rid, created_at=now, alias="chat", status=200, tenant="acme", backend="c"
    )
    write_entries(
        engine, [make_entry(rec, Cost(Decimal(usd), "policy", None), None)], budgets.settle
    )


def _alerter(engine: Engine, url: str, clock: Clock, **kw: float) -> BudgetAlerter:
    return BudgetAlerter(
        engine,
        lambda: budgets.all_budgets(engine),
        Webhook(url, SECRET, timeout_s=5),
        clock,
        Delivery(**kw),  # type: ignore[arg-type]
    )


def test_two_replicas_send_each_threshold_once_signed(
    receiver: Receiver, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock(time.time())
    receiver.now = clock.now
    engines = [make_engine(db_url), make_engine(db_url)]  # one pool per replica
    migrate(engines[0])
    budget_admin.create_budget(engines[0], BudgetRequest("tenant", "acme", "10 USD"), clock.t)
    replicas = [_alerter(e, receiver.url, clock) for e in engines]

    async def rounds(n: int) -> None:
        for _ in range(n):  # both replicas at once, several times: they race for every row
            await asyncio.gather(*(r.run_once() for r in replicas))

    try:
        steps = [("a", "3"), ("b", "2.5"), ("c", "3"), ("d", "1"), ("e", "0.5")]
        seen = []
        for rid, usd in steps:  # 30 %, 55 %, 85 %, 95 %, 100 %
            _spend(engines[0], rid, usd, clock.t)
            asyncio.run(rounds(3))
            seen.append(sorted(int(str(g["threshold"])) for g in receiver.good))
        assert seen == [[], [50], [50, 80], [50, 80], [50, 80, 100]]
        assert len(receiver.posts) == 3  # nothing sent twice, nothing unsigned
        first = receiver.good[0]
        assert first["type"] == "budget.threshold"
        assert first["budget"] == {
            "id": "tenant:acme",
            "scope": "tenant",
            "subject": "acme",
            "tenant": "acme",
            "period": "month",
            "period_key": time.strftime("%Y-%m", time.gmtime(clock.t)),
            "currency": "USD",
            "limit": "10",
            "spent": "5.5",
        }
        assert len({g["id"] for g in receiver.good}) == 3
        with engines[1].connect() as conn:
            rows = conn.execute(
                text("SELECT threshold, attempts, sent_at IS NOT NULL FROM budget_alerts")
            ).all()
        assert sorted(tuple(r) for r in rows) == [(50, 1, True), (80, 1, True), (100, 1, True)]
        # a new period: the same budget alerts again from its first threshold
        clock.t += 32 * 86400
        _spend(engines[1], "f", "6", clock.t)
        asyncio.run(rounds(2))
        assert sorted(int(str(g["threshold"])) for g in receiver.good[3:]) == [50]
        everything = b"".join(b for _h, b in receiver.posts) + caplog.text.encode()
        assert SECRET.encode() not in everything
    finally:
        for e in engines:
            e.dispose()


def test_a_failing_receiver_gets_the_same_signed_body_again_with_backoff(
    receiver: Receiver, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    receiver.fail_first = 2
    clock = Clock(time.time())
    receiver.now = clock.now
    engine = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    migrate(engine)
    try:
        budget_admin.create_budget(engine, BudgetRequest("tenant", "acme", "2 USD", "day"), clock.t)
        alerter = _alerter(engine, receiver.url, clock, backoff_s=10.0)
        _spend(engine, "a", "1.2", clock.t, "day:tenant:acme")
        with caplog.at_level(logging.WARNING, logger="gateway.budget_alerts"):
            assert asyncio.run(alerter.run_once()) == 0  # first attempt: 500
            assert asyncio.run(alerter.run_once()) == 0  # not due before its backoff
            assert len(receiver.posts) == 1
            clock.t += 10
            assert asyncio.run(alerter.run_once()) == 0  # second attempt: 500 again
            clock.t += 10  # 2 * 10 s is the next wait: not yet
            assert asyncio.run(alerter.run_once()) == 0 and len(receiver.posts) == 2
            clock.t += 10
            assert asyncio.run(alerter.run_once()) == 1  # third attempt: delivered
        assert len(receiver.posts) == 3 and len(receiver.good) == 1
        assert len({b for _h, b in receiver.posts}) == 1  # the same body every time
        assert "status 500" in caplog.text and SECRET not in caplog.text
        with engine.connect() as conn:
            row = conn.execute(
                text("SELECT attempts, sent_at IS NOT NULL, last_error FROM budget_alerts")
            ).one()
        assert tuple(row) == (3, True, None)
    finally:
        engine.dispose()


def test_an_alert_is_given_up_after_its_attempts(
    receiver: Receiver, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    receiver.fail_first = 100
    clock = Clock(time.time())
    engine = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    migrate(engine)
    try:
        budget_admin.create_budget(
            engine, BudgetRequest("tag", "project=x", "1 USD", "week"), clock.t
        )
        alerter = _alerter(engine, receiver.url, clock, backoff_s=1.0, attempts=2)
        assert budgets.reserve(engine, "r", {"week:tag:project=x": Decimal("0.6")}, clock.t) == []
        rec = UsageRecord(request_id="r", created_at=clock.t, alias="chat", status=200)
        write_entries(
            engine, [make_entry(rec, Cost(Decimal("0.6"), "policy", None), None)], budgets.settle
        )
        for _ in range(4):
            asyncio.run(alerter.run_once())
            clock.t += 5
        assert len(receiver.posts) == 2  # two attempts, then given up
        with engine.connect() as conn:
            row = conn.execute(
                text("SELECT attempts, failed_at IS NOT NULL, last_error FROM budget_alerts")
            ).one()
        assert tuple(row) == (2, True, "status 500")
        assert "given up" in caplog.text
    finally:
        engine.dispose()


def test_an_unreachable_receiver_never_blocks_and_is_retried(tmp_path: Path) -> None:
    clock = Clock(time.time())
    engine = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    migrate(engine)
    try:
        budget_admin.create_budget(engine, BudgetRequest("tenant", "acme", "1 USD"), clock.t)
        _spend(engine, "a", "0.9", clock.t)
        # a port nobody listens on: refused at once
        alerter = _alerter(engine, "http://127.0.0.1:9/x", clock, backoff_s=1.0)
        assert asyncio.run(alerter.run_once()) == 0
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT attempts, last_error FROM budget_alerts")).all()
        assert sorted(tuple(r) for r in rows) == [(1, "ConnectError"), (1, "ConnectError")]
    finally:
        engine.dispose()
