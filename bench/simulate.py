"""What-if simulation benchmark: replay a ledger of 1M recorded requests (SQLite, or
PostgreSQL) under a changed policy and time `usage.simulate.simulate` (reading the rows,
measuring the backends, deciding again, pricing). Target: 1M rows in <= 10 s.

The rows are bench/reports.py's (20 tenants, 8 apps, 5 backends, 90 days); the policy moves
public traffic to another cloud and keeps personal and special data on-prem. It is replayed
twice: as written (the `ordered` objective: one decision per request shape), and with the
`cheapest` objective, whose order depends on the prompt size (decided per prompt-size step).

    .venv/bin/python bench/simulate.py                    # 1M rows, SQLite
    .venv/bin/python bench/simulate.py --rows 100000 --db postgresql
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from bench.reports import BACKENDS, PG_ADMIN, load_pg, load_sqlite
from gateway.policy.loader import load_text
from gateway.usage.db import make_engine, migrate
from gateway.usage.pricing import Pricer, load_catalog
from gateway.usage.simulate import SimQuery, simulate

POLICY = (
    """
version: 1
backends:
"""
    + "".join(
        f"""  {name}:
    kind: openai_compat
    zone: {zone}
    base_url: http://127.0.0.1:9
    model: m-{name}
    price: {{input_per_mtok: "{0.02 if zone == "on_prem" else 0.15 + i}", output_per_mtok: "0.6"}}
"""
        for i, (name, zone) in enumerate(BACKENDS.items())
    )
    + """aliases:
  default: {backends: [replicate, vertex-eu, bedrock-eu, gpu-a, gpu-b]}
rules:
  - name: sensitive-on-prem
    match: {data_classes: [personal, special]}
    allow_zones: [on_prem]
billing: {usd_try: "41.5", kdv_rate: "0.20"}
"""
)


CHEAPEST = POLICY.replace("rules:\n", "defaults: {objective: cheapest}\nrules:\n")


def run(url: str) -> None:
    engine = make_engine(url)
    try:
        for name, text in (("ordered", POLICY), ("cheapest", CHEAPEST)):
            policy = load_text(text).policy
            t0, cpu = time.perf_counter(), time.process_time()
            sim = simulate(
                engine,
                policy,
                Pricer(lambda p=policy: p, load_catalog()),
                SimQuery(date(2026, 1, 1), date(2026, 3, 31)),
            )
            took, cpu = time.perf_counter() - t0, time.process_time() - cpu
            out = sim.as_dict()
            print(
                f"  {name:8} {sim.rows:,} rows replayed in {took:.2f} s ({sim.rows / took:,.0f} "
                f"rows/s; this process's CPU {cpu:.2f} s, load {os.getloadavg()[0]:.1f}); cost "
                f"{out['recorded']['cost_usd'][:10]} -> {out['predicted']['cost_usd'][:10]} USD, "
                f"{sim.changed_backend:,} change backend"
            )
    finally:
        engine.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    args = ap.parse_args()
    print(f"{args.db}, {args.rows:,} ledger rows: loading ...", flush=True)
    if args.db == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{tmp}/bench.db"
            engine = make_engine(url)
            migrate(engine)
            engine.dispose()
            load_sqlite(Path(tmp) / "bench.db", args.rows)
            run(url)
        return
    name = f"gecit_bench_{os.urandom(4).hex()}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{PG_ADMIN.rsplit('/', 1)[0]}/{name}"
    try:
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
        load_pg(url, args.rows)
        run(url)
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
