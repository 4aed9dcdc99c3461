"""Micro-benchmark of the usage ledger path: what one record costs.

    taskset -c 1 .venv/bin/python bench/ledger.py [--db pg|sqlite] [--n 4000] [--burst 2000]

Three figures, each with the load average printed beside it (2 shared cores: compare runs
taken under a similar load):

* loop: CPU per `Recorder.record()` on the event loop (pricing, entry, journal append, queue);
* writer: CPU of the writer thread per entry for `write_entries` in batches of 500 with the
  app's listeners (daily/monthly rollups, audit chain) and budget settlement (10 % of the
  requests hold a reservation on two budgets), against a fresh database;
* lag: event-loop lag (a 1 ms ticker's lateness) while a burst of records arrives and the
  running recorder writes it to the database.

Every database this creates is dropped again; only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway.policy.loader import load_text
from gateway.usage import budgets
from gateway.usage.audit import AuditListener, AuditLog
from gateway.usage.db import make_engine, migrate
from gateway.usage.journal import Journal
from gateway.usage.ledger import make_entry, write_entries
from gateway.usage.pricing import Pricer, load_catalog
from gateway.usage.recorder import Recorder
from gateway.usage.records import AttemptRecord, UsageRecord
from gateway.usage.rollups import RollupListener

PG_ADMIN = os.environ.get("GECIT_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
POLICY = """
version: 1
backends:
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9", model: g,
        hourly_cost_usd: "3.6"}
  bedrock: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: b,
            price: {input_per_mtok: "0.25", output_per_mtok: "1.25"}}
  vertex: {kind: openai_compat, zone: cloud, base_url: "http://127.0.0.1:9", model: v,
           price: {input_per_mtok: "0.10", output_per_mtok: "0.40"}}
aliases:
  chat: {backends: [gpu, bedrock, vertex]}
billing: {usd_try: "40", kdv_rate: "0.20"}
"""
ZONES = {"gpu": "on_prem", "bedrock": "cloud", "vertex": "cloud"}
BACKENDS = list(ZONES)


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def record(i: int, run: str) -> UsageRecord:
    backend = BACKENDS[i % 3]
    trace = {
        "alias": "chat",
        "rule": "default",
        "data_class": "personal",
        "objective": "cheapest",
        "allowed_zones": ["cloud", "on_prem"],
        "redact": i % 2 == 0,
        "candidates": [
            {"backend": b, "zone": ZONES[b], "estimated_usd": "0.0001"} for b in BACKENDS
        ],
        "dropped": [],
        "blocked": None,
        "sensitivity": {
            "class": "personal",
            "entities": [{"type": "TCKN", "count": 1}, {"type": "PHONE", "count": 2}],
        },
    }
    return UsageRecord(
        request_id=f"{run}-{i:08d}",
        created_at=time.time(),
        alias="chat",
        status=200 if i % 20 else 502,
        tenant=("acme", "globex")[i % 2],
        app=("chat", "search")[i % 2],
        key_id=f"k{i % 4}",
        backend=backend,
        model="m",
        data_class="personal",
        rule="default",
        error_kind=None if i % 20 else "upstream",
        prompt_tokens=100 + i % 50,
        completion_tokens=20 + i % 30,
        streamed=True,
        latency_ms=120.0 + i % 40,
        ttft_ms=30.0 + i % 300,
        attempts=[AttemptRecord(1, backend, "ok", None, 200, 110.0)],
        trace=trace,
    )


@contextlib.contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{tmp}/ledger.db"
        return
    import psycopg

    name = f"gecit_bench_{os.urandom(4).hex()}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_ADMIN.rsplit('/', 1)[0]}/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def parts(url: str) -> tuple[Any, Pricer, list[Any]]:
    engine = make_engine(url)
    migrate(engine)
    compiled = load_text(POLICY)
    pricer = Pricer(lambda: compiled.policy, load_catalog())
    listeners = [
        RollupListener(ZONES.get),
        AuditListener(
            AuditLog(engine),
            lambda: "ab" * 32,
            lambda b: "tr_scc" if ZONES.get(b) == "cloud" else None,
            ZONES.get,
        ),
    ]
    now = time.time()
    for k in range(4):
        budgets.set_budget(engine, "key", f"k{k}", Decimal(1000), "USD", now)
    budgets.set_budget(engine, "tenant", "acme", Decimal(1000), "TRY", now)
    return engine, pricer, listeners


def bench_loop(pricer: Pricer, n: int) -> float:
    """CPU µs per record() on the loop thread (journal on a tmpfs-or-disk temp dir)."""
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(tmp)
        journal.open()
        rec = Recorder(None, pricer, journal, max_buffer=10 * n)  # type: ignore[arg-type]
        recs = [record(i, "loop") for i in range(n)]
        for r in recs[:200]:  # warm up
            rec.record(r)
        gc.collect()
        t0 = time.thread_time()
        for r in recs[200:]:
            rec.record(r)
        cpu = time.thread_time() - t0
        journal.close()
    return cpu / (n - 200) * 1e6


def bench_writer(
    engine: Any, pricer: Pricer, listeners: list[Any], n: int, batch: int = 500
) -> tuple[float, float, float, float]:
    """(CPU µs, wall µs, of the CPU µs in young / full garbage collections) per entry of the
    writer thread. Full collections (of the whole heap, however large the bench's own data
    makes it) come a few per run and make the figure jumpy; they are shown apart."""
    run = os.urandom(3).hex()
    recs = [record(i, run) for i in range(n)]
    entries = []
    hold_ids = []
    for r in recs:
        entries.append(
            make_entry(r, pricer.price(r.backend, r.prompt_tokens, r.completion_tokens), None)
        )
    for i, r in enumerate(recs):
        if i % 10 == 0:
            hold_ids.append(r.request_id)
            ids = {f"key:{r.key_id}": Decimal("0.01")}
            if r.tenant == "acme":
                ids["tenant:acme"] = Decimal("0.4")
            budgets.reserve(engine, r.request_id, ids, time.time())
    write_entries(engine, entries[:batch], budgets.settle, listeners)  # warm up
    gc.collect()  # the set-up's garbage is not the writer's: no full collection owed by it
    in_gc = [0.0, 0.0, 0.0]  # CPU s in the collector's runs: gen 0-1, gen 2, start mark

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            in_gc[2] = time.thread_time()
        else:
            in_gc[info["generation"] // 2] += time.thread_time() - in_gc[2]

    gc.callbacks.append(timed)
    t0, w0 = time.thread_time(), time.perf_counter()
    for i in range(batch, n, batch):
        write_entries(engine, entries[i : i + batch], budgets.settle, listeners)
    cpu, wall = time.thread_time() - t0, time.perf_counter() - w0
    gc.callbacks.remove(timed)
    k = 1e6 / (n - batch)
    return cpu * k, wall * k, in_gc[0] * k, in_gc[1] * k


async def bench_lag(
    engine: Any, pricer: Pricer, listeners: list[Any], burst: int, rate: int, batch: int = 500
) -> dict[str, float]:
    """Ticker lateness while `burst` records arrive at `rate`/s and are written."""
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(tmp)
        rec = Recorder(
            engine, pricer, journal, settle=budgets.settle, listeners=listeners, batch_size=batch
        )
        await rec.start()
        lags: list[float] = []
        stop = False

        async def ticker() -> None:
            while not stop:
                t = time.perf_counter()
                await asyncio.sleep(0.001)
                lags.append((time.perf_counter() - t - 0.001) * 1000)

        task = asyncio.create_task(ticker())
        await asyncio.sleep(0.2)
        lags.clear()
        run = os.urandom(3).hex()
        recs = [record(i, run) for i in range(burst)]
        per_tick = max(1, rate // 1000)
        t0 = time.perf_counter()
        for i in range(0, burst, per_tick):
            for r in recs[i : i + per_tick]:
                r.created_at = time.time()
                rec.record(r)
            await asyncio.sleep(0.001)
        sent = time.perf_counter() - t0
        ok = await rec.drain(60)
        total = time.perf_counter() - t0
        stop = True
        await task
        await rec.stop()
    lags.sort()
    return {
        "ok": float(ok),
        "send_s": sent,
        "drained_s": total,
        "ticks": len(lags),
        "p50": statistics.median(lags),
        "p99": lags[int(len(lags) * 0.99)],
        "max": lags[-1],
        "over5ms": sum(1 for x in lags if x > 5),
        "written": rec.written,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", choices=("pg", "sqlite"), default="pg")
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--burst", type=int, default=2000)
    ap.add_argument("--rate", type=int, default=4000, help="burst arrival rate, records/s")
    ap.add_argument("--batch", type=int, default=500, help="batch size (writer, lag)")
    ap.add_argument("--only", choices=("loop", "writer", "lag"), default=None)
    args = ap.parse_args()
    print(
        f"ledger bench db={args.db} n={args.n} pinned={os.sched_getaffinity(0)} "
        f"{datetime.now(UTC):%H:%M:%S}"
    )
    with database(args.db) as url:
        engine, pricer, listeners = parts(url)
        if args.only in (None, "loop"):
            us = bench_loop(pricer, args.n)
            print(f"loop   : {us:7.1f} µs CPU / record()             load {load()}")
        if args.only in (None, "writer"):
            cpu, wall, young, full = bench_writer(engine, pricer, listeners, args.n, args.batch)
            print(
                f"writer : {cpu:7.1f} µs CPU / entry, {wall:7.1f} µs wall (batch {args.batch})"
                f"; of the CPU gc gen0-1 {young:.1f}, gen2 {full:.1f}  load {load()}"
            )
        if args.only in (None, "lag"):
            r = asyncio.run(bench_lag(engine, pricer, listeners, args.burst, args.rate, args.batch))
            print(
                f"lag    : burst {args.burst} @ {args.rate}/s, batch {args.batch}: "
                f"ticker lag p50 {r['p50']:.2f} "
                f"p99 {r['p99']:.2f} max {r['max']:.2f} ms, {int(r['over5ms'])} ticks > 5 ms"
                f" of {int(r['ticks'])}; drained in {r['drained_s']:.2f} s "
                f"(sent in {r['send_s']:.2f} s, ok={bool(r['ok'])}) load {load()}"
            )
        engine.dispose()


if __name__ == "__main__":
    main()
