"""Start-up figures of `gateway serve`: time to ready, CPU spent getting there, idle RSS.

Two configurations, N runs each (default 5), every run a fresh process:

  upstream   `gateway serve --upstream <bench/mock_upstream.py>`, ready = /readyz 200
             (how bench/run.sh starts Geçit)
  default    the embedded default policy with --no-local-engine, ready = /healthz 200
             (no backend can serve, so /readyz stays 503; the server is up and listening)

Per run: wall seconds from spawn to ready; CPU seconds (user + sys, all threads, from
/proc/<pid>/stat) the gateway spent up to ready; idle RSS (VmRSS) after it has sat idle for
--idle seconds. Each configuration first runs once on an empty database (the migrations run,
reported as "cold db" and not in the figures); the measured runs then start on that migrated
database, as a restarted gateway does. The llama.cpp child is never started.

The cloud credential chains are told not to probe metadata addresses (AWS_EC2_METADATA_DISABLED,
NO_GCE_CHECK), so only 127.0.0.1 is contacted. Targets: ready <= 2 s, idle RSS <= 120 MB.
Load averages are printed before and after: CPU figures hold under load, wall figures do not.

    .venv/bin/python bench/startup.py [--runs 5] [--idle 2] [--tree DIR] [--only upstream]
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
CLK_TCK = os.sysconf("SC_CLK_TCK")
TARGET_READY_S = 2.0
TARGET_RSS_MB = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_seconds(pid: int) -> float:
    """utime + stime of the whole process (all threads), from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def status(port: int, path: str) -> int | None:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=0.5)
        conn.request("GET", path)
        code = conn.getresponse().status
        conn.close()
        return code
    except OSError:
        return None


def wait_for(
    proc: subprocess.Popen[bytes], port: int, path: str, started: float, limit: float = 60.0
) -> float:
    while time.monotonic() - started < limit:
        if proc.poll() is not None:
            raise RuntimeError(f"gateway exited with {proc.returncode} before it was ready")
        if status(port, path) == 200:
            return time.monotonic() - started
        time.sleep(0.005)
    raise RuntimeError(f"gateway not ready within {limit:g}s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def one_run(
    gateway: list[str],
    env: dict[str, str],
    work: Path,
    extra: list[str],
    ready_path: str,
    idle_s: float,
) -> tuple[float, float, float]:
    port = free_port()
    cmd = [
        *gateway,
        "serve",
        *extra,
        "--port",
        str(port),
        "--database-url",
        f"sqlite:///{work / 'ledger.db'}",
        "--log-level",
        "warning",
    ]
    with open(work / "gateway.log", "ab") as log:
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        try:
            wall = wait_for(proc, port, ready_path, started)
        except RuntimeError:
            stop(proc)
            sys.stderr.write((work / "gateway.log").read_text()[-3000:])
            raise
        cpu = cpu_seconds(proc.pid)
        time.sleep(idle_s)
        rss = rss_mb(proc.pid)
    finally:
        stop(proc)
    return wall, cpu, rss


def summary(name: str, values: list[float], unit: str, target: float | None) -> str:
    med = statistics.median(values)
    verdict = "" if target is None else ("  ok" if med <= target else f"  OVER {target:g}")
    runs = " ".join(f"{v:.2f}" for v in values)
    return (
        f"  {name:<10} median {med:7.2f} {unit:<4} min {min(values):6.2f}  "
        f"max {max(values):6.2f}   [{runs}]{verdict}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--idle", type=float, default=2.0, help="seconds idle before reading RSS")
    ap.add_argument("--tree", help="run the gateway package from this directory (PYTHONPATH)")
    ap.add_argument("--only", choices=("upstream", "default"))
    a = ap.parse_args()

    env = {**os.environ, "AWS_EC2_METADATA_DISABLED": "true", "NO_GCE_CHECK": "true"}
    if a.tree:
        env["PYTHONPATH"] = str(Path(a.tree).resolve())
    gateway = [PY, "-m", "gateway"]
    print(f"load average before: {loadavg()}  (cores: {os.cpu_count()})")
    with tempfile.TemporaryDirectory(prefix="gecit-startup-") as tmp:
        mock_port = free_port()
        mock = subprocess.Popen(
            [PY, str(HERE / "mock_upstream.py"), "--port", str(mock_port), "--model", "mock-model"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(mock, mock_port, "/health", time.monotonic())
            configs = {
                "upstream": (["--upstream", f"http://127.0.0.1:{mock_port}"], "/readyz"),
                "default": (["--no-local-engine"], "/healthz"),
            }
            for name, (extra, ready_path) in configs.items():
                if a.only and name != a.only:
                    continue
                work = Path(tmp) / name
                work.mkdir()
                cold = one_run(gateway, env, work, extra, ready_path, 0.0)
                walls, cpus, rsss = [], [], []
                for _ in range(a.runs):
                    wall, cpu, rss = one_run(gateway, env, work, extra, ready_path, a.idle)
                    walls.append(wall)
                    cpus.append(cpu)
                    rsss.append(rss)
                print(
                    f"{name}: gateway serve {' '.join(extra)}  (ready = {ready_path} 200; "
                    f"cold db: {cold[0]:.2f} s wall, {cold[1]:.2f} s CPU)"
                )
                print(summary("ready", walls, "s", TARGET_READY_S))
                print(summary("cpu", cpus, "s", TARGET_READY_S))
                print(summary("idle rss", rsss, "MiB", TARGET_RSS_MB))
                print(f"  load average: {loadavg()}")
        finally:
            stop(mock)
    print(f"load average after: {loadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
