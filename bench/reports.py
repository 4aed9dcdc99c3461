"""Report benchmark: ledgers of 100k / 1M / 5M rows on SQLite and PostgreSQL.

For each size: bulk-load the `requests` table (executemany on SQLite, COPY on PostgreSQL), build
the daily rollups from it (`rollup_rebuild`), then time a monthly report grouped by tenant and
backend (`reports.run_report`), and print the figures. Target: the report answers in < 1 s
at 1M rows on both databases.

    .venv/bin/python bench/reports.py                       # 100k, 1M, 5M on both
    .venv/bin/python bench/reports.py --sizes 100000 --db sqlite
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import psycopg

from gateway.usage.db import make_engine, migrate
from gateway.usage.reports import ReportQuery, run_report
from gateway.usage.rollup_rebuild import rebuild
from gateway.usage.rollups import zone_resolver

BACKENDS = {
    "gpu-a": "on_prem",
    "gpu-b": "on_prem",
    "vertex-eu": "cloud",
    "bedrock-eu": "cloud",
    "replicate": "cloud",
}
TENANTS = [f"tenant-{i:02d}" for i in range(20)]
APPS = [f"app-{i}" for i in range(8)]
CLASSES = ("public", "public", "personal", "special")
DAYS = 90
START = datetime(2026, 1, 1, tzinfo=UTC)
COLUMNS = (
    "id",
    "created_at",
    "tenant",
    "app",
    "alias",
    "backend",
    "model",
    "data_class",
    "status",
    "error_kind",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "estimated",
    "streamed",
    "latency_ms",
    "ttft_ms",
    "attempts",
    "cost",
    "currency",
    "cost_try",
)
MONTH = ReportQuery(date(2026, 2, 1), date(2026, 2, 28), ("tenant", "backend"))
PG_ADMIN = os.environ.get("GECIT_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")


def rows(n: int, seed: int = 7) -> Iterator[tuple[object, ...]]:
    rnd = random.Random(seed)
    names = list(BACKENDS)
    span = DAYS * 86400
    for i in range(n):
        backend = names[rnd.randrange(len(names))]
        cloud = BACKENDS[backend] == "cloud"
        pt, ct = rnd.randint(50, 4000), rnd.randint(10, 800)
        cost = round((pt * 0.15 + ct * 0.6) / 1e6, 10) if cloud else round(pt * 2e-9, 10)
        err = rnd.random() < 0.02
        ts = START + timedelta(seconds=span * i / n)
        yield (
            f"req_{i:010d}",
            ts,
            rnd.choice(TENANTS),
            rnd.choice(APPS),
            "default",
            backend,
            "m-" + backend,
            rnd.choice(CLASSES),
            502 if err else 200,
            "upstream" if err else None,
            pt,
            ct,
            0,
            False,
            True,
            rnd.uniform(200, 9000),
            None if err else rnd.lognormvariate(5.5, 0.7),
            1,
            cost,
            "USD",
            round(cost * 41.5, 10),
        )


def load_sqlite(path: Path, n: int) -> None:
    conn = sqlite3.connect(path)
    sql = f"INSERT INTO requests ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"

    def fmt(r: tuple[object, ...]) -> tuple[object, ...]:
        ts = r[1]
        assert isinstance(ts, datetime)
        return (r[0], ts.strftime("%Y-%m-%d %H:%M:%S.%f"), *r[2:])

    batch: list[tuple[object, ...]] = []
    with conn:
        for r in rows(n):
            batch.append(fmt(r))
            if len(batch) == 50_000:
                conn.executemany(sql, batch)
                batch = []
        if batch:
            conn.executemany(sql, batch)
    conn.close()


def load_pg(url: str, n: int) -> None:
    with psycopg.connect(url) as conn, conn.cursor() as cur:
        with cur.copy(f"COPY requests ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            for r in rows(n):
                copy.write_row(r)
        conn.commit()
        cur.execute("ANALYZE requests")


def time_report(url: str, repeats: int = 5) -> tuple[float, float, int, int]:
    engine = make_engine(url)
    try:
        t0 = time.perf_counter()
        written = rebuild(engine, zone_resolver(BACKENDS))
        build = time.perf_counter() - t0
        timings = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            report = run_report(engine, MONTH)
            timings.append(time.perf_counter() - t0)
        assert report.totals and report.totals[0].requests > 0
        print(
            f"    rollup rows {written:>8,}   report rows {len(report.rows):>4}   "
            f"month requests {report.totals[0].requests:>10,}"
        )
        return build, statistics.median(timings), written, len(report.rows)
    finally:
        engine.dispose()


def bench_sqlite(n: int) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
        t0 = time.perf_counter()
        load_sqlite(Path(tmp) / "bench.db", n)
        load = time.perf_counter() - t0
        build, report, _, _ = time_report(url)
        return load, build, report


def bench_pg(n: int) -> tuple[float, float, float]:
    name = f"gecit_bench_{os.urandom(4).hex()}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{PG_ADMIN.rsplit('/', 1)[0]}/{name}"
    try:
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
        t0 = time.perf_counter()
        load_pg(url, n)
        load = time.perf_counter() - t0
        build, report, _, _ = time_report(url)
        return load, build, report
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100000,1000000,5000000")
    ap.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    dbs = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    results = []
    for db in dbs:
        for n in sizes:
            print(f"{db} {n:,} rows ...", flush=True)
            load, build, report = (bench_sqlite if db == "sqlite" else bench_pg)(n)
            results.append((db, n, load, build, report))
            print(
                f"    load {load:7.1f} s   rollup build {build:7.2f} s   "
                f"monthly report (tenant x backend) {report * 1000:8.1f} ms",
                flush=True,
            )
    print("\n| database | ledger rows | bulk load | rollup build | monthly report |")
    print("|---|---:|---:|---:|---:|")
    for db, n, load, build, report in results:
        print(f"| {db} | {n:,} | {load:.1f} s | {build:.2f} s | {report * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
