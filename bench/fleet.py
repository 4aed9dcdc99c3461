"""On-prem fleet routing: round-robin, least-in-flight, session-sticky (a conversation's turns on
one node, consistent-hashed by speed) and Geçit's picker on 4 heterogeneous simulated vLLM
nodes (H100, A100 40GB, L40S, RTX 6000 Ada; Llama-3.1-8B profiles from
gateway/emulators/gpu_profiles.py), in simulated time (bench/fleet_sim.py).

Workload: multi-turn chat sessions (2-10 turns) of 16 apps whose long system prompts (1,000-
4,000 tokens) are shared by their sessions (Zipf popularity), each turn resending the
conversation so far; session arrivals Poisson with 3x bursts (10 s of every 60 s); data classes
public 60% / personal 30% / special 10% (all served on-prem here: no cloud spill is modelled).

Capacity: least-in-flight's completed requests/s in a closed loop far past saturation
(400 users). Open loop: sessions arrive at 80% of that. Saturation: a closed loop of twice the
users that capacity keeps busy (users = 2 x capacity x (think time + least-in-flight's mean
latency in the open loop)). Each seed runs every router on the same arrivals.

    .venv/bin/python bench/fleet.py [--seeds 1 2] [--duration 300] [--slo 2.0]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from fleet_sim import Result, Workload, run

ROUTERS = ("round-robin", "least-in-flight", "session-sticky", "gecit")
TIGHT_SLO_S = 0.5  # a second, tighter TTFT objective, shown for context


def pct(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(r: Result, slo: float) -> dict[str, float]:
    ttfts = [f.ttft for f in r.firsts]
    return {
        "p50": pct(ttfts, 0.5),
        "p95": pct(ttfts, 0.95),
        "p99": pct(ttfts, 0.99),
        "tok_s": r.output_tokens / r.window_s,
        "slo": sum(t <= slo for t in ttfts) / max(1, len(ttfts)),
        "tight": sum(t <= TIGHT_SLO_S for t in ttfts) / max(1, len(ttfts)),
        "hit": r.prefix_hits / max(1, r.prefix_queries),
        "n": float(len(ttfts)),
    }


def _fmt_s(v: float) -> str:
    return "   never" if math.isinf(v) else f"{v:8.2f}"


def table(title: str, rows: dict[str, dict[str, float]]) -> None:
    print(f"\n{title}")
    print(
        f"{'router':<16}{'p50 s':>8}{'p95 s':>8}{'p99 s':>8}{'out tok/s':>11}"
        f"{'in SLO':>8}{'<0.5 s':>8}{'prefix hit':>11}{'requests':>9}"
    )
    for name, m in rows.items():
        print(
            f"{name:<16}{_fmt_s(m['p50'])}{_fmt_s(m['p95'])}{_fmt_s(m['p99'])}"
            f"{m['tok_s']:11.0f}{m['slo']:8.1%}{m['tight']:8.1%}{m['hit']:11.1%}"
            f"{int(m['n']):9d}"
        )


def verdict(
    open_rows: dict[str, dict[str, float]], closed_rows: dict[str, dict[str, float]]
) -> list[tuple[str, bool, str]]:
    g, lif, rr = open_rows["gecit"], open_rows["least-in-flight"], open_rows["round-robin"]
    st = open_rows["session-sticky"]
    gs, ls, rs = (closed_rows[k] for k in ("gecit", "least-in-flight", "round-robin"))
    ratio = g["p95"] / lif["p95"] if lif["p95"] and not math.isinf(lif["p95"]) else math.nan
    return [
        ("open: p95 TTFT <= 0.8x least-in-flight", ratio <= 0.8, f"{ratio:.2f}x"),
        (
            "open: SLO share >= least-in-flight's, round-robin's and session-sticky's",
            g["slo"] >= max(lif["slo"], rr["slo"], st["slo"]),
            f"{g['slo']:.1%} vs {lif['slo']:.1%} / {rr['slo']:.1%} / {st['slo']:.1%}",
        ),
        (
            "open: prefix hit >= least-in-flight + 5 points",
            g["hit"] >= lif["hit"] + 0.05,
            f"{g['hit']:.1%} vs {lif['hit']:.1%}",
        ),
        (
            "saturated: tok/s >= least-in-flight",
            gs["tok_s"] >= ls["tok_s"],
            f"{gs['tok_s']:.0f} vs {ls['tok_s']:.0f}",
        ),
        (
            "saturated: tok/s >= 1.2x round-robin",
            gs["tok_s"] >= 1.2 * rs["tok_s"],
            f"{gs['tok_s'] / rs['tok_s']:.2f}x",
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--duration", type=float, default=300.0, help="simulated seconds per run")
    ap.add_argument("--warmup", type=float, default=60.0)
    ap.add_argument("--slo", type=float, default=2.0, help="TTFT SLO in seconds")
    args = ap.parse_args(argv)
    w = Workload()
    mean_turns = sum(w.turns) / 2
    all_ok = True
    for seed in args.seeds:
        t0 = time.perf_counter()
        cap = run(
            "least-in-flight",
            seed,
            users=400,
            duration_s=args.duration,
            warmup_s=args.warmup,
            workload=w,
        )
        capacity = cap.completed / cap.window_s
        rate = 0.8 * capacity / mean_turns
        open_runs = {
            k: run(
                k,
                seed,
                session_rate=rate,
                duration_s=args.duration,
                warmup_s=args.warmup,
                workload=w,
            )
            for k in ROUTERS
        }
        open_rows = {k: summary(r, args.slo) for k, r in open_runs.items()}
        users = max(1, round(2 * capacity * (w.think_s + open_runs["least-in-flight"].latency_s)))
        closed_rows = {
            k: summary(
                run(
                    k, seed, users=users, duration_s=args.duration, warmup_s=args.warmup, workload=w
                ),
                args.slo,
            )
            for k in ROUTERS
        }
        print(
            f"\n=== seed {seed}: capacity {capacity:.2f} req/s (least-in-flight, saturated);"
            f" open loop {rate:.3f} sessions/s (~{0.8 * capacity:.2f} req/s);"
            f" closed loop {users} users; TTFT SLO {args.slo:g} s"
            f" ({time.perf_counter() - t0:.0f} s wall)"
        )
        table("open loop, ~80% of capacity", open_rows)
        table("closed loop, 2x capacity", closed_rows)
        for what, ok, fig in verdict(open_rows, closed_rows):
            all_ok &= ok
            print(f"  [{'met' if ok else 'NOT met'}] {what}: {fig}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
