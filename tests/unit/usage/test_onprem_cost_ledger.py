"""On-prem hourly cost from the dispatcher to the ledger: requests go through the real
Dispatcher (its cost seam is the real OnPremCosts under the policy's `hourly_cost_usd` and
`charge_idle_hours`), on an injected clock, and their shares are priced and written by the
real Recorder into a SQLite ledger; the figures are read back from the ledger's rows.

- N concurrent streams on one node cost 1/N per token of one stream alone.
- Over a simulated hour of overlapping requests, the ledger's on-prem cost is the hourly
  cost x the node's utilised share (or the whole hour when idle hours are charged), to the
  cent.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.core.types import ChatMessage, ChatRequest, ChatResult, Usage
from gateway.policy.decision import RouteDecision
from gateway.policy.loader import load_text
from gateway.providers.base import CallOptions, Capabilities
from gateway.service.dispatcher import Dispatcher, Outcome
from gateway.usage.db import make_engine, migrate
from gateway.usage.onprem_cost import OnPremCosts
from gateway.usage.pricing import Pricer, load_catalog
from gateway.usage.recorder import Recorder
from gateway.usage.records import AttemptRecord, UsageRecord

HOURLY = Decimal("3.60")
TOKENS = 100  # each request's output


def _policy(charge_idle: bool) -> object:
    return load_text(f"""version: 1
backends:
  gpu:
    kind: openai_compat
    zone: on_prem
    base_url: "http://127.0.0.1:9/v1"
    model: m
    hourly_cost_usd: "{HOURLY}"
aliases:
  chat: {{backends: [gpu]}}
billing: {{charge_idle_hours: {str(charge_idle).lower()}}}
""").policy


class ManualClock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return 1_700_000_000.0 + self.t

    def monotonic(self) -> float:
        return self.t


class GatedNode:
    """An on-prem node whose answers end when the test says (and the clock says when)."""

    name = "gpu"
    capabilities = Capabilities()

    def __init__(self) -> None:
        self.gates: dict[str, asyncio.Event] = {}

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        gate = self.gates.setdefault(request.messages[0].text(), asyncio.Event())
        await gate.wait()
        return ChatResult("ok", "stop", Usage(10, TOKENS), "m")

    async def check(self) -> bool:
        return True

    async def aclose(self) -> None:
        return None


class Fleet:
    """Requests on one node, started and ended at given simulated times."""

    def __init__(self, charge_idle: bool, engine: Engine, tmp_path: Path) -> None:
        policy = _policy(charge_idle)
        self.clock = ManualClock()
        self.node = GatedNode()
        self.dispatcher = Dispatcher(
            {"gpu": self.node},
            self.clock,
            zone_of=lambda _n: "on_prem",
            costs=OnPremCosts(lambda: policy),
        )
        self.recorder = Recorder(
            engine, Pricer(lambda: policy, load_catalog()), None, flush_interval=0.01
        )
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.decision = RouteDecision(
            alias="chat",
            candidates=("gpu",),
            allowed_zones=frozenset({"on_prem"}),
            zones={"gpu": "on_prem"},
        )

    async def start(self, rid: str, at: float) -> None:
        self.clock.t = at
        self.node.gates[rid] = asyncio.Event()
        self.tasks[rid] = asyncio.create_task(self._one(rid))
        await asyncio.sleep(0)  # up to the node's gate: its share starts now

    async def end(self, rid: str, at: float) -> None:
        self.clock.t = at
        self.node.gates[rid].set()
        await self.tasks.pop(rid)

    async def _one(self, rid: str) -> None:
        request = ChatRequest(model="chat", messages=[ChatMessage(role="user", content=rid)])
        outcome = Outcome()
        result = await self.dispatcher.complete(self.decision, lambda _n: request, outcome)
        assert result.usage is not None
        self.recorder.record(
            UsageRecord(
                request_id=rid,
                created_at=self.clock.now(),
                alias="chat",
                status=200,
                backend="gpu",
                model="m",
                prompt_tokens=10,
                completion_tokens=result.usage.completion_tokens,
                attempts=[AttemptRecord(1, "gpu", "ok", None, 200, 1.0)],
                onprem_cost_usd=outcome.onprem_cost_usd,
            )
        )


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    eng = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    migrate(eng)
    yield eng
    eng.dispose()


def _ledger(engine: Engine) -> list[tuple[str, Decimal, int]]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, cost, completion_tokens FROM requests ORDER BY id"))
        return [(r[0], Decimal(str(r[1])), int(r[2])) for r in rows]


async def _per_token(fleet: Fleet, engine: Engine, n: int, at: float) -> Decimal:
    """Cost per token of each of `n` streams running together for 10 s from `at`."""
    ids = [f"n{n}-{i}" for i in range(n)]
    for rid in ids:
        await fleet.start(rid, at)
    for rid in ids:
        await fleet.end(rid, at + 10.0)
    assert await fleet.recorder.drain(timeout=15)
    costs = {rid: cost / tokens for rid, cost, tokens in _ledger(engine) if rid in ids}
    assert len(costs) == n and len(set(costs.values())) == 1  # each pays the same share
    return next(iter(costs.values()))


@pytest.mark.parametrize("n", [2, 4, 8])
async def test_n_concurrent_streams_cost_one_nth_per_token_in_the_ledger(
    n: int, engine: Engine, tmp_path: Path
) -> None:
    fleet = Fleet(False, engine, tmp_path)
    await fleet.recorder.start()
    try:
        alone = await _per_token(fleet, engine, 1, 0.0)
        together = await _per_token(fleet, engine, n, 100.0)
    finally:
        await fleet.recorder.stop()
    # one stream alone: 10 s of a 3.60 USD/h node for 100 tokens
    assert alone == HOURLY / 3600 * 10 / TOKENS
    assert together * n == alone


def _hour(seed: int) -> list[tuple[float, int, str]]:
    """Overlapping requests over one hour, with idle gaps; the last ends at 3600 s."""
    rng = random.Random(seed)
    # the hour starts with a request (the meter begins with the node's first request)
    events: list[tuple[float, int, str]] = [(0.0, 1, "first"), (2.0, 0, "first")]
    t = 2.0
    for i in range(300):
        t += rng.expovariate(1 / 10.0)
        start = min(t, 3570.0)
        end = min(start + rng.uniform(0.5, 25.0), 3599.0)
        events += [(start, 1, f"h{i:04d}"), (end, 0, f"h{i:04d}")]
    events += [(3590.0, 1, "last"), (3600.0, 0, "last")]
    events.sort()
    return events


def _busy_seconds(events: list[tuple[float, int, str]]) -> Decimal:
    busy, active, since = Decimal(0), 0, 0.0
    for at, kind, _ in events:
        if active:
            busy += Decimal(repr(at)) - Decimal(repr(since))
        active += 1 if kind else -1
        since = at
    return busy


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("charge_idle", [False, True])
async def test_a_simulated_hour_in_the_ledger_is_hourly_cost_times_use_to_the_cent(
    seed: int, charge_idle: bool, engine: Engine, tmp_path: Path
) -> None:
    events = _hour(seed)
    fleet = Fleet(charge_idle, engine, tmp_path)
    await fleet.recorder.start()
    try:
        for at, kind, rid in events:
            await (fleet.start(rid, at) if kind else fleet.end(rid, at))
        assert await fleet.recorder.drain(timeout=30)
    finally:
        await fleet.recorder.stop()
    rows = _ledger(engine)
    assert len(rows) == 302
    total = sum((cost for _, cost, _ in rows), Decimal(0))
    share = _busy_seconds(events) / 3600
    assert Decimal("0.2") < share < Decimal("0.95")  # the node really sat idle part of it
    expected = HOURLY if charge_idle else HOURLY * share
    assert total.quantize(Decimal("0.01")) == expected.quantize(Decimal("0.01"))
