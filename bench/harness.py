"""Runs the hot-path benchmark (bench/run.sh is the entry point) and prints one table.

The mock upstream, wrk and the Python load client share one core; the gateway under test gets
the other (taskset). Every figure is measured the same way against the mock directly and
through Geçit (`gateway serve --upstream <mock>`: default policy, key check, classification,
policy decision, ledger write all on), optionally also through the LiteLLM proxy.
Every load is bounded by count and time; every process started here is stopped here.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
CLK_TCK = os.sysconf("SC_CLK_TCK")
MODEL = "mock-model"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """utime + stime of the whole process (all threads), from /proc/<pid>/stat."""
    raw = Path(f"/proc/{pid}/stat").read_text()
    fields = raw.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) in MiB from /proc/<pid>/status."""
    cur = peak = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            cur = int(line.split()[1]) / 1024
        elif line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    return cur, peak


def http_status(port: int, path: str, timeout: float = 1.0) -> int | None:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("GET", path)
        status = conn.getresponse().status
        conn.close()
        return status
    except OSError:
        return None


def pin(cpu: str | None, cmd: list[str]) -> list[str]:
    return ["taskset", "-c", cpu, *cmd] if cpu is not None else cmd


@dataclass
class Target:
    """A server under test: the mock itself (direct), Geçit, or LiteLLM."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    started: float
    ready_path: str
    base_path: str = ""  # prefix before /v1/chat/completions
    key: str | None = None
    headers: dict[str, str] = field(default_factory=dict)  # sent with every request
    figures: dict[str, float | None] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.base_path}"

    def wait_ready(self, limit: float) -> float:
        deadline = self.started + limit
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"{self.name} exited with {self.proc.returncode} before it was ready"
                )
            if http_status(self.port, self.ready_path, timeout=0.5) == 200:
                return time.monotonic() - self.started
            time.sleep(0.01)
        raise RuntimeError(f"{self.name} not ready within {limit:g}s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Bench:
    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.a = args
        self.work = work
        self.gw_cpu, self.load_cpu = args.gateway_cpu, args.load_cpu
        self.targets: list[Target] = []

    # ---- processes -------------------------------------------------------------------
    def start(
        self,
        name: str,
        cmd: list[str],
        port: int,
        ready_path: str,
        *,
        cpu: str | None,
        env: dict[str, str] | None = None,
        log: str,
    ) -> Target:
        started = time.monotonic()
        with open(self.work / f"{log}.log", "wb") as out:  # the child keeps its own copy
            proc = subprocess.Popen(
                pin(cpu, cmd),
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.work,
                env={**os.environ, **(env or {})},
            )
        t = Target(name, port, proc, started, ready_path)
        self.targets.append(t)
        return t

    def stop_all(self) -> None:
        for t in reversed(self.targets):
            t.stop()

    def start_mock(self) -> Target:
        port = free_port()
        a = self.a
        cmd = [
            PY,
            str(HERE / "mock_upstream.py"),
            "--port",
            str(port),
            "--model",
            MODEL,
            "--tokens",
            str(a.tokens),
            "--ttft-ms",
            str(a.ttft_ms),
            "--itl-ms",
            str(a.itl_ms),
        ]
        return self.start("direct", cmd, port, "/health", cpu=self.load_cpu, log="mock")

    def gateway_cmd(self) -> tuple[list[str], dict[str, str]]:
        """How to run `gateway`: the installed one, or the package in --tree (an export of a
        commit, so a working tree that others are editing does not leak into the figures)."""
        # the default policy's cloud backends must not probe 169.254.169.254 for credentials:
        # only 127.0.0.1 is contacted (and the SDKs are then not even imported)
        env = {"AWS_EC2_METADATA_DISABLED": "true", "NO_GCE_CHECK": "true"}
        if self.a.tree:
            return [PY, "-m", "gateway"], {**env, "PYTHONPATH": str(Path(self.a.tree).resolve())}
        return [str(Path(PY).with_name("gateway"))], env

    def start_gecit(self, mock: Target) -> Target:
        port = free_port()
        db = f"sqlite:///{self.work / 'ledger.db'}"
        gateway, env = self.gateway_cmd()
        key = self.create_key(gateway, env, db)
        cmd = [
            *gateway,
            "serve",
            "--upstream",
            mock.url,
            "--port",
            str(port),
            "--database-url",
            db,
            "--log-level",
            "warning",
        ]
        t = self.start("gecit", cmd, port, "/readyz", cpu=self.gw_cpu, env=env, log="gecit")
        t.key = key
        return t

    def create_key(self, gateway: list[str], env: dict[str, str], db: str) -> str | None:
        """An API key, so the key check runs on every request (loopback would allow none)."""
        proc = subprocess.run(
            [
                *gateway,
                "keys",
                "create",
                "--tenant",
                "bench",
                "--name",
                "bench",
                "--database-url",
                db,
            ],
            cwd=self.work,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, **env},
        )
        lines = proc.stdout.strip().splitlines()
        if proc.returncode != 0 or not lines:
            print(
                f"note: `gateway keys create` failed ({proc.stderr.strip()[-200:]}); "
                "running without a key",
                file=sys.stderr,
            )
            return None
        return lines[-1].strip()

    def start_minimal(self, mock: Target) -> Target:
        """The same server parts without the features (bench/minimal_proxy.py)."""
        port = free_port()
        _, env = self.gateway_cmd()  # the same gateway package (its HTTP/1.1 pool)
        cmd = [PY, str(HERE / "minimal_proxy.py"), "--port", str(port), "--upstream", mock.url]
        return self.start("minimal", cmd, port, "/health", cpu=self.gw_cpu, env=env, log="minimal")

    def start_portkey(self, mock: Target) -> Target:
        """The Portkey AI gateway (Node), installed from npm into --portkey-dir, routing to
        the mock as an OpenAI provider with a custom host (its own headers, per request)."""
        server = (
            Path(self.a.portkey_dir)
            / "node_modules"
            / "@portkey-ai"
            / "gateway"
            / "build"
            / "start-server.js"
        )
        if not server.exists():
            raise SystemExit(
                f"Portkey is not installed in {self.a.portkey_dir}: run "
                "bench/run.sh --portkey (it runs npm install @portkey-ai/gateway)"
            )
        port = free_port()
        cmd = ["node", str(server), f"--port={port}", "--headless"]
        t = self.start(
            "portkey",
            cmd,
            port,
            "/",
            cpu=self.gw_cpu,
            env={"NODE_ENV": "production"},
            log="portkey",
        )
        t.key = "sk-bench"  # forwarded to the upstream as its API key (the mock ignores it)
        t.headers = {"x-portkey-provider": "openai", "x-portkey-custom-host": mock.url + "/v1"}
        return t

    def start_litellm(self, mock: Target) -> Target:
        venv = Path(self.a.litellm_venv)
        exe = venv / "bin" / "litellm"
        if not exe.exists():
            raise SystemExit(
                f"LiteLLM is not installed in {venv}: run bench/run.sh --litellm "
                "(it creates that venv with pip install 'litellm[proxy]')"
            )
        port = free_port()
        cfg = self.work / "litellm.yaml"
        cfg.write_text(
            "model_list:\n"
            f"  - model_name: {MODEL}\n"
            "    litellm_params:\n"
            f"      model: openai/{MODEL}\n"
            f"      api_base: {mock.url}/v1\n"
            "      api_key: sk-bench\n"
            "litellm_settings:\n"
            "  telemetry: false\n"
        )
        cmd = [
            str(exe),
            "--config",
            str(cfg),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--num_workers",
            "1",
        ]
        master = "sk-bench-" + secrets.token_hex(24)  # its key check runs, like Geçit's
        env = {
            "LITELLM_LOG": "ERROR",
            "LITELLM_TELEMETRY": "False",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "LITELLM_MASTER_KEY": master,
        }
        t = self.start(
            "litellm", cmd, port, "/health/liveliness", cpu=self.gw_cpu, env=env, log="litellm"
        )
        t.key = master
        return t

    # ---- load ------------------------------------------------------------------------
    def wrk(self, t: Target, connections: int, seconds: float) -> dict[str, Any]:
        body = _body()  # the same request loadgen sends, with its per-request marker
        env = {
            **os.environ,
            "BENCH_BODY": body,
            "BENCH_KEY": t.key or "",
            "BENCH_HEADERS": "\n".join(f"{k}: {v}" for k, v in t.headers.items()),
        }
        cmd = pin(
            self.load_cpu,
            [
                "wrk",
                "-t1",
                f"-c{connections}",
                f"-d{seconds:g}s",
                "--timeout",
                "10s",
                "-s",
                str(HERE / "post.lua"),
                t.url + "/v1/chat/completions",
            ],
        )
        out = subprocess.run(
            cmd, env=env, capture_output=True, text=True, timeout=seconds + 30, check=True
        ).stdout
        m = re.search(r"BENCH_JSON (\{.*\})", out)
        if m is None:
            raise RuntimeError(f"wrk printed no result:\n{out}")
        r: dict[str, Any] = orjson.loads(m.group(1))
        r["rps"] = r["requests"] / (r["duration_us"] / 1e6)
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        r["errors"] += int(non2xx.group(1)) if non2xx else 0
        return r

    def loadgen(self, t: Target, *args: str) -> dict[str, Any]:
        cmd = pin(
            self.load_cpu,
            [PY, str(HERE / "loadgen.py"), *args, "--url", t.url, "--model", MODEL]
            + (["--key", t.key] if t.key else [])
            + [a for k, v in t.headers.items() for a in ("--header", f"{k}: {v}")],
        )
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
        result: dict[str, Any] = orjson.loads(out.stdout.strip().splitlines()[-1])
        return result

    def measure(self, t: Target) -> None:
        a, f = self.a, t.figures
        pid = t.proc.pid
        f["startup_s"] = t.wait_ready(a.ready_limit)
        time.sleep(1.0)
        f["idle_rss_mb"] = rss_mb(pid)[0]
        self.wrk(t, 10, min(1.0, a.seconds))  # warm-up: connections, caches, code paths
        cpu0 = cpu_seconds(pid)
        r = self.wrk(t, 50, a.seconds)
        cpu1 = cpu_seconds(pid)
        f["rps_c50"] = r["rps"]
        f["cpu_ms_per_req"] = (cpu1 - cpu0) * 1000 / max(1, r["requests"])
        f["errors"] = float(r["errors"])
        r = self.wrk(t, 10, a.seconds)
        f["c10_p50_ms"], f["c10_p99_ms"] = r["p50_us"] / 1000, r["p99_us"] / 1000
        f["errors"] = (f["errors"] or 0) + r["errors"]
        # one request at a time, back to back: what the gateway adds with its core awake and
        # its caches warm (the open loop's idle gaps add the wake-up of an idle core)
        r = self.wrk(t, 1, min(3.0, a.seconds))
        f["c1_p50_ms"] = r["p50_us"] / 1000
        f["errors"] = (f["errors"] or 0) + r["errors"]
        r = self.loadgen(
            t,
            "open",
            "--rate",
            str(a.rate),
            "--duration",
            str(a.open_seconds),
            "--count",
            str(int(a.rate * a.open_seconds)),
        )
        f["open_p50_ms"], f["open_p99_ms"] = r["p50_ms"], r["p99_ms"]
        f["errors"] = (f["errors"] or 0) + r["errors"]
        r = self.loadgen(
            t,
            "stream",
            "--concurrency",
            "20",
            "--count",
            str(a.streams),
            "--duration",
            str(a.stream_seconds),
        )
        for k in ("ttft_p50_ms", "ttft_p99_ms", "total_p50_ms", "gap_p50_ms"):
            f[k] = r[k]
        f["streams"] = float(r["streams"])
        f["errors"] = (f["errors"] or 0) + r["errors"]
        # one stream at a time: with the gateway not saturated, the gaps between token events
        # must match the mock's inter-token delay (a proxy holding chunks back shows ~0 gaps)
        r = self.loadgen(
            t,
            "stream",
            "--concurrency",
            "1",
            "--count",
            str(a.light_streams),
            "--duration",
            str(a.stream_seconds),
        )
        f["light_ttft_p50_ms"], f["light_gap_p50_ms"] = r["ttft_p50_ms"], r["gap_p50_ms"]
        f["errors"] = (f["errors"] or 0) + r["errors"]
        f["peak_rss_mb"] = rss_mb(pid)[1]


# (key, label, unit, target check against the direct figure: (kind, limit) or None)
ROWS: list[tuple[str, str, str, tuple[str, float] | None]] = [
    ("rps_c50", "throughput, concurrency 50", "req/s", ("min", 3000)),
    ("open_p50_ms", "latency p50, open loop", "ms", ("add", 1.0)),
    ("open_p99_ms", "latency p99, open loop", "ms", ("add", 3.0)),
    ("c1_p50_ms", "latency p50, one at a time", "ms", None),
    ("c10_p50_ms", "latency p50, concurrency 10", "ms", None),
    ("c10_p99_ms", "latency p99, concurrency 10", "ms", None),
    ("ttft_p50_ms", "stream TTFT p50, conc. 20", "ms", ("add", 2.0)),
    ("ttft_p99_ms", "stream TTFT p99, conc. 20", "ms", None),
    ("total_p50_ms", "stream total p50, conc. 20", "ms", None),
    ("gap_p50_ms", "stream token gap p50", "ms", None),
    ("light_ttft_p50_ms", "stream TTFT p50, one at a time", "ms", ("add", 2.0)),
    ("light_gap_p50_ms", "token gap p50, one at a time", "ms", None),
    ("cpu_ms_per_req", "CPU per request (c50 run)", "ms", ("max", 0.33)),
    ("idle_rss_mb", "RSS idle", "MiB", ("max", 120)),
    ("peak_rss_mb", "RSS peak", "MiB", ("max", 200)),
    ("startup_s", "start-up to ready", "s", ("max", 2.0)),
    ("errors", "errors (all runs)", "", ("max", 0)),
]


def verdict(check: tuple[str, float] | None, direct: float | None, value: float | None) -> str:
    if check is None or value is None:
        return ""
    kind, limit = check
    if kind == "min":
        ok = value >= limit
        want = f">= {limit:g}"
    elif kind == "max":
        ok = value <= limit
        want = f"<= {limit:g}"
    else:
        if direct is None:
            return ""
        ok = value - direct <= limit
        want = f"+{limit:g} (+{value - direct:.2f})"
    return f"{'ok ' if ok else 'MISS'} {want}"


def fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.2f}" if abs(v) >= 1 else f"{v:.3f}"


def table(targets: list[Target], args: argparse.Namespace) -> str:
    direct = targets[0]
    others = targets[1:]
    head = f"{'figure':30} {'unit':5} {'direct':>9}"
    for t in others:
        head += f" {t.name:>9} {'ratio':>6}"
    head += "  target (Geçit)"
    lines = [head, "-" * len(head)]
    for key, label, unit, check in ROWS:
        d = direct.figures.get(key)
        line = f"{label:30} {unit:5} {fmt(d):>9}"
        for t in others:
            v = t.figures.get(key)
            ratio = f"{v / d:.1f}x" if v is not None and d else "-"
            line += f" {fmt(v):>9} {ratio:>6}"
        gecit = next((t for t in others if t.name == "gecit"), None)
        if gecit is not None:
            line += "  " + verdict(check, d, gecit.figures.get(key))
        lines.append(line)
    load = os.getloadavg()
    lines.append("")
    if args.tree:
        lines.append(f"gateway code: {args.tree_label}")
    lines.append(
        f"load average before/after: {args.load_before} / "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; cpus: gateway={args.gateway_cpu} "
        f"mock+load={args.load_cpu}; wrk {args.seconds:g}s per run; open loop "
        f"{args.rate:g} req/s x {args.open_seconds:g}s; streams: {args.tokens} tokens, "
        f"TTFT {args.ttft_ms:g} ms, {args.itl_ms:g} ms between tokens"
    )
    return "\n".join(lines)


def _body() -> str:
    sys.path.insert(0, str(HERE))
    from loadgen import chat_body

    return chat_body(MODEL, False).decode()


@contextlib.contextmanager
def workdir(keep: bool) -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="gecit-bench-"))
    try:
        yield path
    finally:
        if keep:
            print(f"logs kept in {path}", file=sys.stderr)
        else:
            shutil.rmtree(path, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="each wrk run")
    ap.add_argument("--rate", type=float, default=25.0, help="open-loop requests/s")
    ap.add_argument("--open-seconds", type=float, default=8.0)
    ap.add_argument(
        "--streams",
        type=int,
        default=2000,
        help="streams at concurrency 20 (about 3 s through Geçit: 400 took 0.5 s "
        "and its TTFT p50 moved by 1 ms from run to run)",
    )
    ap.add_argument("--stream-seconds", type=float, default=15.0)
    ap.add_argument(
        "--light-streams",
        type=int,
        default=60,
        help="streams one at a time (token gaps without saturation)",
    )
    ap.add_argument("--tokens", type=int, default=16)
    ap.add_argument("--ttft-ms", type=float, default=5.0)
    ap.add_argument("--itl-ms", type=float, default=1.0)
    ap.add_argument("--ready-limit", type=float, default=60.0)
    ap.add_argument("--litellm", action="store_true", help="also measure the LiteLLM proxy")
    ap.add_argument("--litellm-venv", default=str(HERE / ".venv-litellm"))
    ap.add_argument("--portkey", action="store_true", help="also measure the Portkey gateway")
    ap.add_argument("--portkey-dir", default=str(HERE / ".portkey"))
    ap.add_argument("--no-gecit", action="store_true", help="skip Geçit (harness checks)")
    ap.add_argument(
        "--minimal",
        action="store_true",
        help="also measure a minimal proxy with the same server parts and no "
        "features (the floor of this architecture)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the work dir (logs, ledger)")
    ap.add_argument(
        "--tree",
        help="run the gateway package from this directory (run.sh --committed exports HEAD there)",
    )
    ap.add_argument("--json", help="also write every figure to this file")
    a = ap.parse_args(argv)
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) >= 2 and shutil.which("taskset"):
        a.gateway_cpu, a.load_cpu = str(cpus[0]), ",".join(map(str, cpus[1:]))
    else:
        print("note: fewer than 2 cpus or no taskset: nothing is pinned", file=sys.stderr)
        a.gateway_cpu = a.load_cpu = None
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk (bench/run.sh does it)")
    a.tree_label = os.environ.get("BENCH_TREE_LABEL", a.tree or "")
    load = os.getloadavg()
    a.load_before = f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    with workdir(a.keep) as work:
        bench = Bench(a, work)
        try:
            mock = bench.start_mock()
            bench.measure(mock)
            if not a.no_gecit:
                bench.measure(bench.start_gecit(mock))
            if a.minimal:
                bench.measure(bench.start_minimal(mock))
            if a.portkey:
                bench.measure(bench.start_portkey(mock))
            if a.litellm:
                bench.measure(bench.start_litellm(mock))
        finally:
            bench.stop_all()
        print(table(bench.targets, a))
        if a.json:
            Path(a.json).write_bytes(
                orjson.dumps({t.name: t.figures for t in bench.targets}, option=orjson.OPT_INDENT_2)
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
