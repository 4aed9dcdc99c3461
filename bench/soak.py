"""Soak benchmark (not a CI test): `gateway serve` in front of `gateway emulate openai` on
127.0.0.1 for `--minutes` (default 30) of mixed traffic.

- normal chat requests (half streamed) from a few workers, all the time;
- from the end of the first third on, bad inputs beside them: oversized bodies, malformed
  JSON, huge integers, YAML bombs and binary documents PUT as the policy, and client resets
  (a stream whose socket is closed with RST after the first bytes);
- a valid policy PUT every `--policy-every` seconds (each a new document);
- optionally (`--pg-restart`, with `--pg`) a PostgreSQL restart half way.

It reports the gateway's RSS growth (after warm-up to the end), rows lost (every answer and
every refusal that carried an x-request-id must have its ledger row; client resets are listed
apart), and the p99 of normal requests before and while the bad ones run.
Every loop is bounded by the duration; every process started here is stopped here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
ADMIN = "soak-admin-key"
PG_ADMIN = os.environ.get("GECIT_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def policy_text(upstream: str, n: int) -> str:
    objective = ("ordered", "cheapest")[n % 2]
    return f"""# soak policy #{n}
version: 1
backends:
  primary:
    kind: openai_compat
    zone: on_prem
    base_url: "{upstream}"
    model: emulated-model
    timeouts: {{connect_s: 2, first_token_s: 10, total_s: 30}}
aliases:
  chat: {{backends: [primary]}}
defaults: {{objective: {objective}}}
"""


def yaml_bomb() -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 8)]
    return "\n".join(lines) + "\n"


@dataclass
class Tally:
    normal: list[tuple[float, float, bool]] = field(default_factory=list)  # (t, s, bad on)
    ids: set[str] = field(default_factory=set)  # answers + refusals with a request id
    answers: int = 0
    refusals: int = 0
    no_id: int = 0  # answered without an x-request-id (refused before the gateway's edge)
    transport_errors: int = 0
    resets: int = 0
    bad_sent: dict[str, int] = field(default_factory=dict)
    bad_status: dict[str, dict[int, int]] = field(default_factory=dict)
    policy_puts: dict[int, int] = field(default_factory=dict)
    rss: list[tuple[float, float]] = field(default_factory=list)

    def response(self, r: httpx.Response) -> None:
        rid = r.headers.get("x-request-id")
        if r.status_code == 200:
            self.answers += 1
        else:
            self.refusals += 1
        if rid:
            self.ids.add(rid)
        else:
            self.no_id += 1


class Soak:
    def __init__(self, args: argparse.Namespace, tmp: Path) -> None:
        self.args = args
        self.tmp = tmp
        self.duration = args.minutes * 60
        self.bad_from = self.duration / 3
        self.t0 = 0.0
        self.tally = Tally()
        self.procs: list[subprocess.Popen[bytes]] = []
        self.em_port = free_port()
        self.gw_port = free_port()
        self.upstream = f"http://127.0.0.1:{self.em_port}/v1"
        self.url = f"http://127.0.0.1:{self.gw_port}"
        self.db_url = f"sqlite:///{tmp / 'ledger.db'}"
        self.pg_name: str | None = None
        self.oversized = json.dumps(
            {"model": "chat", "messages": [{"role": "user", "content": "x" * (8 * 1024 * 1024)}]}
        ).encode()

    # ---- processes ---------------------------------------------------------------------
    def start(self) -> None:
        if self.args.pg:
            import psycopg

            self.pg_name = f"gecit_soak_{os.urandom(4).hex()}"
            with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.pg_name}"')
            self.db_url = f"{PG_ADMIN.rsplit('/', 1)[0]}/{self.pg_name}"
        policy = self.tmp / "policy.yaml"
        policy.write_text(policy_text(self.upstream, 0))
        log = (self.tmp / "emulator.log").open("ab")
        self.procs.append(
            subprocess.Popen(
                [PY, "-m", "gateway", "emulate", "openai", "--port", str(self.em_port)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        env = {
            **os.environ,
            "GECIT_ADMIN_KEY": ADMIN,
            "GECIT_DATABASE_URL": self.db_url,
            "GECIT_JOURNAL_PATH": str(self.tmp / "journal"),
            "GECIT_LOG_LEVEL": "warning",
        }
        glog = (self.tmp / "gateway.log").open("ab")
        self.gateway = subprocess.Popen(
            [
                PY,
                "-m",
                "gateway",
                "serve",
                "--port",
                str(self.gw_port),
                "--policy",
                str(policy),
                "--no-local-engine",
            ],
            stdout=glog,
            stderr=subprocess.STDOUT,
            env=env,
        )
        self.procs.append(self.gateway)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.gateway.poll() is not None:
                raise SystemExit(f"gateway exited early; see {self.tmp / 'gateway.log'}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/readyz", timeout=1).status_code == 200:
                    return
            time.sleep(0.3)
        raise SystemExit("gateway not ready in 120 s")

    def stop(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        if self.pg_name:
            import psycopg

            with (
                contextlib.suppress(psycopg.Error),
                psycopg.connect(PG_ADMIN, autocommit=True) as conn,
            ):
                conn.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')

    # ---- traffic -----------------------------------------------------------------------
    def now(self) -> float:
        return time.monotonic() - self.t0

    def running(self) -> bool:
        return self.now() < self.duration

    async def normal(self, client: httpx.AsyncClient, worker: int) -> None:
        rng = random.Random(worker)
        while self.running():
            stream = rng.random() < 0.5
            body = {
                "model": "chat",
                "stream": stream,
                "max_tokens": 16,
                "messages": [{"role": "user", "content": f"soak {worker} {rng.random()}"}],
            }
            bad_on = self.now() >= self.bad_from
            t = time.perf_counter()
            try:
                if stream:
                    async with client.stream("POST", "/v1/chat/completions", json=body) as r:
                        async for _ in r.aiter_bytes():
                            pass
                else:
                    r = await client.post("/v1/chat/completions", json=body)
            except httpx.HTTPError:
                self.tally.transport_errors += 1
                continue
            self.tally.normal.append((self.now(), time.perf_counter() - t, bad_on))
            self.tally.response(r)

    async def bad(self, client: httpx.AsyncClient) -> None:
        rng = random.Random(99)
        kinds = ("oversized", "malformed", "huge_int", "reset", "yaml_bomb", "binary_policy")
        while self.running():
            if self.now() < self.bad_from:
                await asyncio.sleep(0.5)
                continue
            kind = rng.choice(kinds)
            self.tally.bad_sent[kind] = self.tally.bad_sent.get(kind, 0) + 1
            try:
                r = await self._bad_one(client, kind)
            except httpx.HTTPError:
                self.tally.transport_errors += 1
                r = None
            if r is not None:
                counts = self.tally.bad_status.setdefault(kind, {})
                counts[r.status_code] = counts.get(r.status_code, 0) + 1
                if kind not in ("yaml_bomb", "binary_policy"):
                    self.tally.response(r)
            await asyncio.sleep(0.05)

    async def _bad_one(self, client: httpx.AsyncClient, kind: str) -> httpx.Response | None:
        chat = "/v1/chat/completions"
        admin = {"authorization": f"Bearer {ADMIN}"}
        if kind == "oversized":  # encoded once: encoding 8 MB per send would stall this
            return await client.post(
                chat,
                content=self.oversized,  # client's own loop
                headers={"content-type": "application/json"},
            )
        if kind == "malformed":
            return await client.post(
                chat,
                content=b'{"model": "chat", "messages": [',
                headers={"content-type": "application/json"},
            )
        if kind == "huge_int":
            return await client.post(
                chat,
                json={
                    "model": "chat",
                    "max_tokens": 10**30,
                    "seed": 10**30,
                    "messages": [{"role": "user", "content": "hi"}],
                },
            )
        if kind == "yaml_bomb":
            return await client.put("/admin/policy", content=yaml_bomb(), headers=admin)
        if kind == "binary_policy":
            return await client.put("/admin/policy", content=os.urandom(4096), headers=admin)
        await asyncio.to_thread(self._reset_stream)
        self.tally.resets += 1
        return None

    def _reset_stream(self) -> None:
        """Start a stream, read its first bytes, then close the socket with RST."""
        body = json.dumps(
            {"model": "chat", "stream": True, "messages": [{"role": "user", "content": "reset me"}]}
        ).encode()
        with socket.create_connection(("127.0.0.1", self.gw_port), timeout=10) as s:
            s.sendall(
                b"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                b"content-type: application/json\r\ncontent-length: "
                + str(len(body)).encode()
                + b"\r\n\r\n"
                + body
            )
            with contextlib.suppress(OSError):
                s.recv(256)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    async def policy_puts(self, client: httpx.AsyncClient) -> None:
        n = 0
        while self.running():
            await asyncio.sleep(min(self.args.policy_every, max(0.0, self.duration - self.now())))
            if not self.running():
                return
            n += 1
            with contextlib.suppress(httpx.HTTPError):
                r = await client.put(
                    "/admin/policy",
                    content=policy_text(self.upstream, n),
                    headers={"authorization": f"Bearer {ADMIN}"},
                )
                self.tally.policy_puts[r.status_code] = (
                    self.tally.policy_puts.get(r.status_code, 0) + 1
                )

    async def sample_rss(self) -> None:
        while self.running():
            self.tally.rss.append((self.now(), rss_mb(self.gateway.pid)))
            await asyncio.sleep(5)

    async def pg_restart(self) -> None:
        await asyncio.sleep(self.duration / 2)
        version = sorted(os.listdir("/etc/postgresql"))[-1]
        t = time.monotonic()
        proc = await asyncio.create_subprocess_exec(
            "pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"
        )
        await proc.wait()
        self.pg_restart_s = time.monotonic() - t

    async def run(self) -> None:
        self.t0 = time.monotonic()
        limits = httpx.Limits(max_connections=32)
        async with httpx.AsyncClient(base_url=self.url, timeout=60, limits=limits) as client:
            tasks = [self.normal(client, w) for w in range(self.args.workers)]
            tasks += [self.bad(client), self.policy_puts(client), self.sample_rss()]
            if self.args.pg_restart:
                tasks.append(self.pg_restart())
            await asyncio.gather(*tasks)

    # ---- results -----------------------------------------------------------------------
    def ledger_ids(self) -> set[str]:
        from sqlalchemy import text

        from gateway.usage.db import make_engine

        deadline = time.monotonic() + 120  # let the writer drain its backlog
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                m = httpx.get(
                    self.url + "/metrics", timeout=5, headers={"authorization": f"Bearer {ADMIN}"}
                ).text
                if "\ngecit_ledger_backlog 0.0" in m:
                    break
            time.sleep(1)
        engine = make_engine(self.db_url)
        try:
            with engine.connect() as conn:
                return {r[0] for r in conn.execute(text("SELECT id FROM requests"))}
        finally:
            engine.dispose()

    def report(self, ids: set[str], quarantined: str) -> dict[str, Any]:
        t = self.tally
        before = sorted(s for _, s, bad in t.normal if not bad)
        during = sorted(s for _, s, bad in t.normal if bad)
        warm = [r for ts, r in t.rss if ts >= min(60.0, self.duration / 6)] or [r for _, r in t.rss]
        lost = sorted(t.ids - ids)
        return {
            "minutes": self.args.minutes,
            "database": "postgresql" if self.args.pg else "sqlite",
            "pg_restart_s": getattr(self, "pg_restart_s", None),
            "normal_requests": len(t.normal),
            "p99_ms_normal_only": _p(before, 0.99),
            "p99_ms_with_bad": _p(during, 0.99),
            "p50_ms_normal_only": _p(before, 0.5),
            "p50_ms_with_bad": _p(during, 0.5),
            "answers": t.answers,
            "refusals": t.refusals,
            "refusals_without_id": t.no_id,
            "rows_expected": len(t.ids),
            "rows_lost": len(lost),
            "lost_sample": lost[:5],
            "client_resets": t.resets,
            "transport_errors": t.transport_errors,
            "bad_sent": t.bad_sent,
            "bad_status": t.bad_status,
            "policy_puts": t.policy_puts,
            "rss_mb_after_warmup": round(warm[0], 1) if warm else None,
            "rss_mb_end": round(t.rss[-1][1], 1) if t.rss else None,
            "rss_mb_max": round(max(r for _, r in t.rss), 1) if t.rss else None,
            "rss_growth_pct": round((warm[-1] / warm[0] - 1) * 100, 1) if warm else None,
            "ledger_quarantined": quarantined,
            "acceptance": {
                "rss_growth_le_10pct": bool(warm) and warm[-1] <= warm[0] * 1.10,
                "zero_rows_lost": not lost,
                "p99_unchanged_within_20pct": bool(before and during)
                and _p(during, 0.99) <= 1.2 * (_p(before, 0.99) or 0),  # type: ignore[operator]
            },
        }


def _p(values: list[float], q: float) -> float | None:
    if not values:
        return None
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--workers", type=int, default=4, help="normal-traffic workers")
    ap.add_argument("--policy-every", type=float, default=30.0, help="seconds between PUTs")
    ap.add_argument("--pg", action="store_true", help="ledger on a throwaway PostgreSQL db")
    ap.add_argument(
        "--pg-restart",
        action="store_true",
        help="restart the PostgreSQL cluster half way (with --pg)",
    )
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    if args.pg_restart and not args.pg:
        ap.error("--pg-restart needs --pg")
    with tempfile.TemporaryDirectory(prefix="gecit-soak-") as tmp:
        soak = Soak(args, Path(tmp))
        try:
            soak.start()
            asyncio.run(soak.run())
            ids = soak.ledger_ids()
            metrics = httpx.get(
                soak.url + "/metrics", timeout=5, headers={"authorization": f"Bearer {ADMIN}"}
            ).text
            quarantined = next(
                (
                    ln.split()[-1]
                    for ln in metrics.splitlines()
                    if ln.startswith("gecit_ledger_quarantined ")
                ),
                "?",
            )
            figures = soak.report(ids, quarantined)
        finally:
            soak.stop()
    print(json.dumps(figures, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
