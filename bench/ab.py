"""Two versions of the gateway side by side: CPU per request and throughput of each, measured
in alternating short rounds under the same conditions.

    .venv/bin/python bench/ab.py BASE [HEAD]        # commits (anything `git archive` takes)
    .venv/bin/python bench/ab.py acff418 HEAD --rounds 10 --seconds 3

Why: `bench/run.sh` measures one version at a time, about a minute each; on a machine where
other work comes and goes, two such runs minutes apart differ by more than the change being
judged. Here both versions run at once (same mock upstream, same pinning, the same wrk load as
`bench/run.sh`: a distinct prompt per request, the key check on), and each round loads one
version for a few seconds, then the other, in alternating order; a drift in the machine's load
then falls on both alike. The figure to read is the median CPU per request (the gateway
process's own utime + stime over the requests it answered), which depends far less on other
work than requests/s does; requests/s is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import ROOT, Bench, Target, cpu_seconds


def export(rev: str, into: Path) -> Path:
    """The `gateway` package of `rev`, compiled as an installed tree would be."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", rev, "gateway"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into)], check=True)
    return into


def one_round(bench: Bench, t: Target, seconds: float, connections: int) -> tuple[float, float]:
    """(CPU ms per request, requests/s) of one wrk run against `t`."""
    before = cpu_seconds(t.proc.pid)
    r = bench.wrk(t, connections, seconds)
    used = cpu_seconds(t.proc.pid) - before
    if r["errors"]:
        raise RuntimeError(f"{t.name}: {r['errors']} failed requests in a round")
    return used / r["requests"] * 1000, r["rps"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("base", help="the version to compare against (a commit)")
    p.add_argument("head", nargs="?", default="HEAD", help="the version judged (default HEAD)")
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--seconds", type=float, default=3.0, help="each round's wrk run")
    p.add_argument("--connections", type=int, default=50)
    p.add_argument("--gateway-cpu", default="0")
    p.add_argument("--load-cpu", default="1")
    a = p.parse_args(argv)
    if a.rounds < 2 or a.seconds <= 0:
        p.error("--rounds must be at least 2 and --seconds above 0")
    args = argparse.Namespace(
        tokens=16, ttft_ms=0.0, itl_ms=0.0, ready_limit=60.0,
        gateway_cpu=a.gateway_cpu, load_cpu=a.load_cpu, tree=None,
    )  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="gecit-ab-") as tmp:
        work = Path(tmp)
        benches: dict[str, Bench] = {}
        targets: dict[str, Target] = {}
        try:
            for side, rev in (("base", a.base), ("head", a.head)):
                (work / side).mkdir()
                args_side = argparse.Namespace(**vars(args))
                args_side.tree = str(export(rev, work / f"tree-{side}"))
                benches[side] = Bench(args_side, work / side)
            mock = benches["base"].start_mock()
            mock.wait_ready(args.ready_limit)
            for side in ("base", "head"):
                targets[side] = benches[side].start_gecit(mock)
                targets[side].wait_ready(args.ready_limit)
            for side in ("base", "head"):  # warm: caches, pools, the first ledger batch
                one_round(benches[side], targets[side], 1.0, a.connections)
            cpu: dict[str, list[float]] = {"base": [], "head": []}
            rps: dict[str, list[float]] = {"base": [], "head": []}
            for i in range(a.rounds):
                order = ("base", "head") if i % 2 == 0 else ("head", "base")
                for side in order:
                    c, r = one_round(benches[side], targets[side], a.seconds, a.connections)
                    cpu[side].append(c)
                    rps[side].append(r)
        finally:
            for b in benches.values():
                b.stop_all()
    print(report(a, cpu, rps))
    return 0


def report(a: argparse.Namespace, cpu: dict[str, list[float]], rps: dict[str, list[float]]) -> str:
    def med(xs: list[float]) -> float:
        return statistics.median(xs)

    def spread(xs: list[float]) -> str:
        return f"{min(xs):.3f}-{max(xs):.3f}"

    base_cpu, head_cpu = med(cpu["base"]), med(cpu["head"])
    base_rps, head_rps = med(rps["base"]), med(rps["head"])
    # each round's own ratio: the two sides of a round ran seconds apart
    ratios = [h / b for b, h in zip(cpu["base"], cpu["head"], strict=True)]
    lines = [
        f"{'':22}{'base ' + a.base:>18}{'head ' + a.head:>18}{'head/base':>11}",
        f"{'CPU ms/request (med)':22}{base_cpu:>18.3f}{head_cpu:>18.3f}"
        f"{head_cpu / base_cpu:>10.3f}x",
        f"{'  range over rounds':22}{spread(cpu['base']):>18}{spread(cpu['head']):>18}",
        f"{'requests/s (med)':22}{base_rps:>18,.0f}{head_rps:>18,.0f}{head_rps / base_rps:>10.3f}x",
        f"per-round CPU ratio head/base: median {med(ratios):.3f}, "
        f"range {min(ratios):.3f}-{max(ratios):.3f} ({a.rounds} rounds of {a.seconds:g} s, "
        f"{a.connections} connections)",
    ]
    load = Path("/proc/loadavg").read_text().split()[:3]
    lines.append(f"load average at the end: {' '.join(load)}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
