"""The what-if replay sums the ledger only by what the new policy can read, and prompt sizes
only by the steps where a decision can change (fewer groups, fewer decisions), and that loses
nothing: on a varied ledger (SQLite, and PostgreSQL when it is up) and policies that read each
request field in turn (and cost caps, context lengths, the `cheapest` order), the replay
answers exactly what a replay keyed on every recorded field and every prompt size answers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import insert
from sqlalchemy.engine import Engine

from gateway.policy.loader import load_text
from gateway.policy.schema import Policy
from gateway.usage.db import make_engine, migrate
from gateway.usage.pricing import Pricer, load_catalog
from gateway.usage.reports import Rates
from gateway.usage.sim_figures import measure
from gateway.usage.simulate import (
    SHAPE,
    Replay,
    Side,
    SimQuery,
    Simulation,
    read_figures,
    read_groups,
    shape_of,
    simulate,
)
from gateway.usage.tables import RequestRow
from tests.unit.usage.pg import pg_available, throwaway_database

DAY = date(2026, 3, 2)
BACKENDS = """
backends:
  pricey: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: m,
           price: {input_per_mtok: "3", output_per_mtok: "12"}}
  cheap: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: m,
          price: {input_per_mtok: "0.5", output_per_mtok: "10"},
          capabilities: {context_length: 2000}}
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9", model: m,
        hourly_cost_usd: "4", capabilities: {streaming: false}}
aliases:
  chat: {backends: [pricey, cheap, gpu]}
  code: {backends: [cheap, gpu]}
"""
POLICIES = {
    "ordered": "rules: [{name: sensitive, match: {data_classes: [personal, special]}, "
    "allow_zones: [on_prem]}]\n",
    "every-field": """
tenants:
  beta: {on_prem_only: true}
sensitivity: {when_uncertain: special}
rules:
  - {name: api-app, match: {apps: [api]}, allow_backends: [cheap, gpu],
     slo: {ttft_p95_ms: 300}}
  - {name: sensitive, match: {data_classes: [personal, special]}, allow_zones: [on_prem]}
""",
    "cheapest-capped": """
defaults: {objective: cheapest, slo: {total_p95_ms: 4000}}
# pricey passes the cap from 1024 to 1952 prompt tokens, cheap from 603 to its context (2000),
# gpu (about 0.011 USD per answer at its measured speed) from about 1250
rules:
  - {name: capped, match: {aliases: [chat]}, objective: cheapest,
     cost_cap: {per_request_usd: "0.012", per_mtok_usd: "9"}}
  - {name: sensitive, match: {data_classes: [personal, special]}, allow_zones: [on_prem]}
""",
}


def _policy(name: str) -> Policy:
    return load_text("version: 1\n" + BACKENDS + POLICIES[name]).policy


def _rows(n: int, seed: int = 11) -> Iterator[dict[str, object]]:
    rnd = random.Random(seed)
    start = datetime.combine(DAY, datetime.min.time(), UTC)
    for i in range(n):
        backend = rnd.choice(["pricey", "cheap", "gpu", None])
        prompt = rnd.choice([0, 1, 7, 1999, 2000, 2001, rnd.randint(1, 4000)])
        cost = None if backend is None or rnd.random() < 0.1 else Decimal(rnd.randint(1, 10**6))
        yield {
            "id": f"req_{i:06d}",
            "created_at": start + timedelta(seconds=37 * i),
            "tenant": rnd.choice(["acme", "beta"]),
            "app": rnd.choice(["web", "api"]),
            "alias": rnd.choice(["chat", "code"]),
            "backend": backend,
            "data_class": rnd.choice(["public", "public", "personal", "special", None]),
            "sensitivity_band": rnd.choice(["confident", "uncertain", None]),
            "status": 403 if backend is None else 200,
            "prompt_tokens": 0 if backend is None else prompt,
            "completion_tokens": 0 if backend is None else rnd.randint(1, 900),
            "cached_tokens": rnd.choice([0, 0, 5, 5000]),
            "cost": None if cost is None else cost / 10**10,
            "streamed": rnd.random() < 0.5,
            # a few slow requests: the backends meet the SLOs at p95, those requests miss them
            "latency_ms": rnd.uniform(100, 3000) if rnd.random() < 0.97 else 6000.0,
            "ttft_ms": (rnd.uniform(50, 250) if rnd.random() < 0.97 else 700.0)
            if backend
            else None,
            "tokens_per_s": rnd.uniform(20, 90) if backend else None,
        }


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        yield from _ledger(f"sqlite:///{tmp_path / 'ledger.db'}")
        return
    if not pg_available():
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    with throwaway_database("simulate") as url:
        yield from _ledger(url)


def _ledger(url: str) -> Iterator[Engine]:
    eng = make_engine(url)
    migrate(eng)
    with eng.begin() as conn:
        conn.execute(insert(RequestRow.__table__), list(_rows(1500)))  # type: ignore[attr-defined]
    try:
        yield eng
    finally:
        eng.dispose()


def _every_field(engine: Engine, policy: Policy, q: SimQuery) -> Simulation:
    """The replay keyed on every recorded field and every prompt size: one decision per
    distinct request, which the narrowed replay must reproduce."""
    replay = Replay(policy, Pricer(lambda: policy, load_catalog()))
    replay.shape, replay.by_tokens = SHAPE, True
    groups = replay.groups(read_groups(engine, q, SHAPE, True, replay.slos))
    sim = Simulation(q, sum(g.n for g in groups), Side(), Side(), Rates.of(policy.billing))
    replay.run(groups, measure(read_figures(engine, q)), sim)
    return sim


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_the_narrowed_replay_answers_what_the_full_one_does(engine: Engine, name: str) -> None:
    policy = _policy(name)
    q = SimQuery(DAY, DAY)
    got = simulate(engine, policy, Pricer(lambda: policy, load_catalog()), q).as_dict()
    want = _every_field(engine, policy, q).as_dict()
    assert got == want
    # the ledger is varied enough that the policies really move, refuse and miss
    assert got["rows"] > 1000 and got["changed_backend"] > 0
    assert got["predicted"]["refused"] > 0 and Decimal(got["predicted"]["cost_usd"]) > 0
    if name != "ordered":
        assert got["predicted"]["slo_misses"] > 0


def test_the_shape_holds_only_what_the_policy_reads() -> None:
    # an uncertain band is served on-prem by default; gpu cannot stream
    full = ("alias", "data_class", "sensitivity_band", "streamed")
    assert shape_of(_policy("ordered")) == full
    assert shape_of(_policy("cheapest-capped")) == full
    # and a tenant lock, a rule on apps
    assert shape_of(_policy("every-field")) == SHAPE
    plain = BACKENDS.replace("streaming: false", "tools: true")
    plain += "sensitivity: {when_uncertain: as_detected}\n"
    assert shape_of(load_text("version: 1\n" + plain).policy) == ("alias", "data_class")
