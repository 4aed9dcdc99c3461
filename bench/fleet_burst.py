"""A burst of twice an on-prem pool's capacity through a real `gateway serve`: what spills, what
waits, what is refused, and where special-category data goes.

Processes (all on 127.0.0.1, all started and stopped here): two simulated vLLM nodes
(`gateway emulate vllm`, L40S and RTX 6000 Ada profiles, slowed by --time-scale so this machine
can overload them), a cloud emulator (`gateway emulate openai`) that logs every body it gets,
and `gateway serve` with a policy where public and personal data may spill to the cloud
(transfer basis on record, redaction on) and special-category data may not (it waits in the
pool's queue, priority 10, with a longer first-token objective).

1. Capacity: a closed loop of public requests with the cloud removed from the alias and no
   TTFT objective finds the pool's completed requests/s (unique ~1,500-word prompts, 8 output
   tokens).
2. Burst: Poisson arrivals at 2x that rate for --burst seconds; 40% special, 60% public.
   Every request streams; its TTFT is the time to its first content chunk at the client.

Prints: special requests in the cloud's log (must be 0), public requests within the TTFT SLO
(goal >= 95%), the share of public requests the cloud served, and how every special request
ended (answered / 503 with Retry-After / anything else).

    .venv/bin/python bench/fleet_burst.py [--burst 20] [--slo 2.0] [--time-scale 0.2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

PY = sys.executable
SPECIAL = (
    "Hastamız Ayşe Yılmaz'a HIV tanısı kondu",
    "Mehmet Demir diyabet hastası, insülin kullanıyor",
    "Ayşe Yılmaz depresyon tedavisi görüyor",
)
WORDS = ("rapor", "özet", "toplantı", "bütçe", "plan", "ürün", "satış", "hedef", "müşteri")
PROFILES = ("l40s-8b", "rtx6000-8b")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def process(args: list[str], log: Path, ready: str) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        proc = subprocess.Popen([PY, "-m", "gateway", *args], stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"{args[0]} exited:\n{log.read_text()[-2000:]}")
            try:
                if httpx.get(ready, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        else:
            raise RuntimeError(f"{ready} not ready")
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def policy(nodes: list[str], cloud: str, slo_s: float, spill: bool) -> str:
    endpoints = "\n".join(
        f'      - {{name: {p}, base_url: "{u}/v1", engine: vllm}}'
        for p, u in zip(PROFILES, nodes, strict=True)
    )
    chain = "[gpu, cloud]" if spill else "[gpu]"
    return f"""
version: 1
backends:
  gpu:
    kind: openai_compat
    zone: on_prem
    base_url: "{nodes[0]}/v1"
    model: meta-llama/Llama-3.1-8B-Instruct
    hourly_cost_usd: "1.90"
    timeouts: {{connect_s: 2, first_token_s: 60, total_s: 120}}
    endpoints:
{endpoints}
    fleet: {{scrape_interval_s: 0.25, queue: {{special: 256, personal: 64, public: 64}}}}
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: "{cloud}/v1"
    model: m
    price: {{input_per_mtok: "0.15", output_per_mtok: "0.60"}}
    timeouts: {{connect_s: 1, first_token_s: 5, total_s: 20}}
    transfer:
      mechanism: tr_scc
      module: C2P
      provider_legal_name: Emülatör Bulut A.Ş.
      signed: 2025-01-06
      notified: 2025-01-08
      notification_channel: kep
      classes: [public, personal]
aliases:
  chat: {{backends: {chain}}}
defaults: {{objective: ordered, redact: true, slo: {{ttft_p95_ms: {slo_s * 1000:.0f}}}}}
rules:
  - name: special-waits-on-prem
    match: {{data_classes: [special]}}
    slo: {{ttft_p95_ms: {slo_s * 3000:.0f}}}
    priority: 10
"""


@dataclass(slots=True)
class Done:
    special: bool
    status: int
    ttft: float | None  # seconds to the first content chunk
    retry_after: str | None
    complete: bool
    node: str | None  # x-gecit-backend


def prompt(rng: random.Random, special: bool) -> str:
    filler = " ".join(rng.choice(WORDS) + str(rng.randrange(100_000)) for _ in range(1500))
    head = rng.choice(SPECIAL) if special else "Aşağıdaki notları özetle"
    return f"{head}. {filler}"


async def one(client: httpx.AsyncClient, text: str, special: bool) -> Done:
    body = {
        "model": "chat",
        "stream": True,
        "max_tokens": 8,
        "messages": [{"role": "user", "content": text}],
    }
    t0 = time.perf_counter()
    ttft: float | None = None
    raw = b""
    async with client.stream("POST", "/v1/chat/completions", json=body) as resp:
        async for piece in resp.aiter_bytes():
            if ttft is None and b'"content"' in piece and resp.status_code == 200:
                ttft = time.perf_counter() - t0
            raw += piece
    return Done(
        special,
        resp.status_code,
        ttft,
        resp.headers.get("retry-after"),
        resp.status_code == 200 and b"data: [DONE]" in raw,
        resp.headers.get("x-gecit-backend"),
    )


async def closed_loop(url: str, users: int, seconds: float) -> float:
    """Completed requests/s of `users` back-to-back clients (public, no cloud to spill to)."""
    rng = random.Random(1)
    done = 0
    end = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=url, timeout=180) as client:

        async def user() -> None:
            nonlocal done
            while time.monotonic() < end:
                got = await one(client, prompt(rng, False), False)
                done += got.complete

        t0 = time.monotonic()
        await asyncio.gather(*(user() for _ in range(users)))
        return done / (time.monotonic() - t0)


async def burst(url: str, rate: float, seconds: float, seed: int) -> list[Done]:
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=180) as client:

        async def later(delay: float, special: bool) -> Done:
            await asyncio.sleep(delay)
            return await one(client, prompt(rng, special), special)

        jobs, t = [], 0.0
        while True:
            t += rng.expovariate(rate)
            if t > seconds:
                break
            jobs.append(later(t, rng.random() < 0.4))
        return await asyncio.gather(*jobs)


def cloud_bodies(cloud: str) -> list[str]:
    got = httpx.get(f"{cloud}/_emulator/requests", timeout=10).json()
    return [r["body"] for r in got["requests"]]


def report(results: list[Done], bodies: list[str], slo: float, rate: float) -> bool:
    special = [r for r in results if r.special]
    public = [r for r in results if not r.special]
    leaked = sum(any(s in b for s in SPECIAL) for b in bodies)
    within = sum(r.ttft is not None and r.ttft <= slo for r in public)
    spilled = sum(r.node == "cloud" for r in public)
    answered = sum(r.status == 200 and r.complete for r in special)
    told = sum(r.status == 503 and r.retry_after is not None for r in special)
    other = len(special) - answered - told
    ttfts = sorted(r.ttft for r in public if r.ttft is not None)
    p95 = ttfts[min(len(ttfts) - 1, int(0.95 * len(ttfts)))] if ttfts else float("nan")
    print(f"\nburst at {rate:.2f} req/s: {len(public)} public, {len(special)} special")
    print(f"  special requests in the cloud's log: {leaked}")
    print(
        f"  public within the {slo:g} s TTFT SLO: {within}/{len(public)} "
        f"({within / max(1, len(public)):.1%}), p95 {p95:.2f} s; "
        f"served by the cloud: {spilled} ({spilled / max(1, len(public)):.1%})"
    )
    print(
        f"  special: answered {answered}, 503 + Retry-After {told}, other {other} "
        f"(public not answered: {sum(not r.complete for r in public)})"
    )
    ok = leaked == 0 and within >= 0.95 * len(public) and other == 0
    print(
        f"  [{'met' if ok else 'NOT met'}] 0 special in the cloud, public >= 95% in SLO, "
        "every special answered or told when to retry"
    )
    return ok


def run(args: argparse.Namespace, tmp: Path) -> bool:
    ports = [free_port() for _ in PROFILES]
    cloud_port = free_port()
    with contextlib.ExitStack() as stack:
        nodes = []
        for p, port in zip(PROFILES, ports, strict=True):
            stack.enter_context(
                process(
                    [
                        "emulate",
                        "vllm",
                        "--port",
                        str(port),
                        "--profile",
                        p,
                        "--time-scale",
                        str(args.time_scale),
                    ],
                    tmp / f"{p}.log",
                    f"http://127.0.0.1:{port}/health",
                )
            )
            nodes.append(f"http://127.0.0.1:{port}")
        cloud = f"http://127.0.0.1:{cloud_port}"
        stack.enter_context(
            process(
                ["emulate", "openai", "--port", str(cloud_port)],
                tmp / "cloud.log",
                f"{cloud}/_emulator/requests",
            )
        )
        env = {**os.environ, "GECIT_DATABASE_URL": f"sqlite:///{tmp / 'ledger.db'}"}
        capacity = 0.0
        for spill in (False, True):
            # capacity: what the pool completes with no latency objective holding work back
            slo = args.slo if spill else 60.0
            (tmp / "policy.yaml").write_text(policy(nodes, cloud, slo, spill))
            gw_port = free_port()
            os.environ.update(env)
            with process(
                [
                    "serve",
                    "--port",
                    str(gw_port),
                    "--policy",
                    str(tmp / "policy.yaml"),
                    "--no-local-engine",
                ],
                tmp / f"gateway-{spill}.log",
                f"http://127.0.0.1:{gw_port}/readyz",
            ):
                url = f"http://127.0.0.1:{gw_port}"
                if not spill:
                    capacity = asyncio.run(closed_loop(url, args.users, args.capacity_s))
                    print(f"pool capacity (closed loop, {args.users} users): {capacity:.2f} req/s")
                    continue
                asyncio.run(burst(url, capacity, 5.0, seed=99))  # warm: measured speeds
                httpx.post(f"{cloud}/_emulator/reset", timeout=10)
                results = asyncio.run(burst(url, 2 * capacity, args.burst, args.seed))
                return report(results, cloud_bodies(cloud), args.slo, 2 * capacity)
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--burst", type=float, default=20.0, help="seconds of 2x-capacity arrivals")
    ap.add_argument("--slo", type=float, default=2.0, help="public TTFT SLO, seconds")
    ap.add_argument("--time-scale", type=float, default=0.2)
    ap.add_argument("--users", type=int, default=12)
    ap.add_argument("--capacity-s", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fleet-burst-") as tmp:
        return 0 if run(args, Path(tmp)) else 1


if __name__ == "__main__":
    sys.exit(main())
