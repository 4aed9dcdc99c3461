"""Event-loop lag of the gateway while each "freezing" input arrives (target: max lag <= 50 ms).

The gateway (`gateway serve`'s own server, gateway.cli.build_server: drain and local-access
guards, head limits and read timeouts, the start-up heap frozen) runs in this process's event
loop (uvloop) with a probe task that sleeps 5 ms at a time and records how late it wakes and
how much CPU the loop's thread used meanwhile. Its upstream is `gateway emulate openai` in a
subprocess (as an on-prem backend, and as a cloud one for the redaction case), and every input
is sent by a client subprocess (this file with `--send CASE --port N`), so no client work
shares the gateway's loop or its GIL. Per case: the status the client got, the probe's max and
p99 lag, the most loop CPU between two wake-ups, the share of the case's time the loop's thread
was on the CPU, the longest garbage collection in the gateway's process (any thread: a
collection holds the GIL) with its CPU time, its generation and the count of full (gen-2)
ones, how many modules the process imported meanwhile (a first use that imports a package
stalls the loop), and the gateway's RSS before, after and at its peak (current, from /proc;
the child processes not included).

The lag is wall-clock lateness, so CPU taken by other processes on a shared machine shows up
as lag too: run it on a quiet machine (compare with the "normal" rows) and read the load
average printed first. The loop-CPU column is not inflated that way: a row whose lag is high
but whose loop CPU is low was waiting for a core (or the GIL), not working.

    .venv/bin/python bench/loop_lag.py            # every case
    .venv/bin/python bench/loop_lag.py body_100mb headers_10k
    .venv/bin/python bench/loop_lag.py --profile emails_4000_redacted emails_4000_redacted
        # + where the process spent its time during that case (cProfile)
    .venv/bin/python bench/loop_lag.py --stacks 20 yaml_bomb_put
        # + the loop thread's stack whenever the probe is 20 ms late
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import pstats
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loop_probe import GcPauses, PeakRss, Probe, StallStacks, rss_mb

# the first "normal" warms the gateway up (its first routed request builds lazy state: that
# lag is not an input's); the last one shows the gateway still answers after the others
CASES = (
    "normal",
    "body_100mb",
    "body_100mb_chunked",
    "body_at_limit",
    "dense_2m_chars",
    "dense_10mb",
    "emails_4000_redacted",
    "header_16mb",
    "headers_10k",
    "messages_100k",
    "parts_280k",
    "yaml_bomb_put",
    "policy_deep_5000",
    "dashboard_huge_range",
    "dashboard_max_range",
    "slow_clients_1000",
    "normal",
)
ADMIN_KEY = "loop-lag-bench-admin"


# ---- the client side (a subprocess) ---------------------------------------------------------
def _status(sock: socket.socket, timeout: float = 60.0) -> int:
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n" not in data:
            piece = sock.recv(65536)
            if not piece:
                break
            data += piece
    except (TimeoutError, ConnectionError):
        pass
    try:
        return int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0  # closed without an answer


def _post(port: int, head_extra: bytes, body_sender: Callable[[socket.socket], None]) -> int:
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\n"
            b"content-type: application/json\r\n" + head_extra + b"\r\n"
        )
        try:
            body_sender(s)
        except ConnectionError:
            pass  # refused and closed while we were still sending
        return _status(s)


def _request(port: int, method: str, path: str, body: bytes = b"", head: bytes = b"") -> int:
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(
            b"%s %s HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: %d\r\n%s\r\n"
            % (method.encode(), path.encode(), len(body), head)
            + body
        )
        return _status(s)


def _dense_text(chars: int) -> bytes:
    """Identifier-dense text: checksum-valid TCKNs, card numbers and e-mails, back to back."""
    unit = b"TC 28473615040 kart 4111111111111111 e-posta ali.veli@ornek.com.tr "
    return (unit * (chars // len(unit) + 1))[:chars]


def _chat(content: bytes, model: bytes = b"chat") -> bytes:
    return b'{"model":"' + model + b'","messages":[{"role":"user","content":"' + content + b'"}]}'


def _admin_case(case: str, port: int) -> str | None:
    auth = b"authorization: Bearer " + ADMIN_KEY.encode() + b"\r\n"
    if case == "yaml_bomb_put":  # 7 levels of aliases, 9 each: 4.8 M nodes once expanded
        lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        lines += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 8)]
        return str(_request(port, "PUT", "/admin/policy", "\n".join(lines).encode(), auth))
    if case == "policy_deep_5000":
        doc = b"version: 1\nx: " + b"[" * 5000 + b"]" * 5000 + b"\n"
        return str(_request(port, "PUT", "/admin/policy", doc, auth))
    if case == "dashboard_huge_range":
        path = "/admin/dashboard?from=0001-01-01&to=9999-11-30"
        return str(_request(port, "GET", path, head=auth))
    if case == "dashboard_max_range":  # the longest range allowed (366 days)
        path = "/admin/dashboard?from=2025-01-01&to=2026-01-01"
        return str(_request(port, "GET", path, head=auth))
    return None


def _send_case(case: str, port: int) -> str:
    mb = 1024 * 1024
    admin = _admin_case(case, port)
    if admin is not None:
        return admin
    if case == "dense_2m_chars":  # within every limit: parsed, classified (and special)
        body = _chat(_dense_text(1_990_000))
        return str(_post(port, b"content-length: %d\r\n" % len(body), lambda s: s.sendall(body)))
    if case == "dense_10mb":  # over the body limit: refused from its Content-Length
        body = _chat(_dense_text(10 * mb))
        return str(_post(port, b"content-length: %d\r\n" % len(body), lambda s: s.sendall(body)))
    if case == "emails_4000_redacted":  # 4,000 distinct values to a cloud backend, redacted
        content = b" ".join(b"kisi%d@ornek.com.tr" % i for i in range(4000))
        body = _chat(content, b"cloud")
        return str(_post(port, b"content-length: %d\r\n" % len(body), lambda s: s.sendall(body)))
    if case == "body_100mb":

        def send(s: socket.socket) -> None:
            chunk = b"a" * mb
            for _ in range(100):
                s.sendall(chunk)

        return str(_post(port, b"content-length: %d\r\n" % (100 * mb), send))
    if case == "body_100mb_chunked":

        def send(s: socket.socket) -> None:
            chunk = b"%x\r\n" % mb + b"a" * mb + b"\r\n"
            for _ in range(100):
                s.sendall(chunk)
            s.sendall(b"0\r\n\r\n")

        return str(_post(port, b"transfer-encoding: chunked\r\n", send))
    if case == "body_at_limit":  # valid JSON just under 8 MiB: read, parsed, classified
        body = (
            b'{"model":"chat","messages":[{"role":"user","content":"'
            + b"kargo ne zaman gelir " * (8 * mb // 22 - 10)
            + b'"}]}'
        )
        return str(_post(port, b"content-length: %d\r\n" % len(body), lambda s: s.sendall(body)))
    if case == "header_16mb":
        with socket.create_connection(("127.0.0.1", port)) as s:
            try:
                s.sendall(b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ")
                for _ in range(16):
                    s.sendall(b"a" * mb)
                s.sendall(b"\r\n\r\n")
            except ConnectionError:
                pass
            return str(_status(s))
    if case == "headers_10k":
        with socket.create_connection(("127.0.0.1", port)) as s:
            try:
                s.sendall(
                    b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                    + b"".join(b"x-h%d: v\r\n" % i for i in range(10_000))
                    + b"\r\n"
                )
            except ConnectionError:
                pass
            return str(_status(s))
    if case == "messages_100k":
        body = (
            b'{"model":"chat","messages":['
            + b",".join([b'{"role":"user","content":"a"}'] * 100_000)
            + b"]}"
        )
        return str(_post(port, b"content-length: %d\r\n" % len(body), lambda s: s.sendall(body)))
    if case == "parts_280k":  # 2,000 messages of 140 parts: within the body and message limits
        parts = b",".join([b'{"type":"text","text":"a"}'] * 140)
        message = b'{"role":"user","content":[' + parts + b"]}"
        body = b'{"model":"chat","messages":[' + b",".join([message] * 2000) + b"]}"
        return str(_post(port, b"content-length: %d\r\n" % len(body), lambda s: s.sendall(body)))
    if case == "slow_clients_1000":
        return _slow_clients(port, 1000)
    if case == "normal":
        body = b'{"model":"chat","messages":[{"role":"user","content":"merhaba"}]}'
        return str(_post(port, b"content-length: %d\r\n" % len(body), lambda s: s.sendall(body)))
    raise SystemExit(f"unknown case {case}")


def _slow_clients(port: int, n: int) -> str:
    """n connections trickling a head (half) or a body (half), a byte every 100 ms, until the
    server closes them; the answer is how many it closed and how long the last one took."""
    socks = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        s.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\n"
            + (
                b"content-type: application/json\r\ncontent-length: 100000\r\n\r\n"
                if i % 2
                else b"x-slow: "
            )
        )
        socks.append(s)
    t0 = time.monotonic()
    open_ = set(range(n))
    while open_ and time.monotonic() - t0 < 60:
        for i in list(open_):
            try:
                socks[i].send(b"a")
                if socks[i].recv(65536) == b"":
                    open_.discard(i)
            except BlockingIOError:
                pass
            except OSError:
                open_.discard(i)
        time.sleep(0.1)
    for s in socks:
        s.close()
    return f"{n - len(open_)}/{n} closed in {time.monotonic() - t0:.1f} s"


# ---- the gateway side -----------------------------------------------------------------------
def _gateway_app(server: Any) -> Any:
    """The GatewayApp inside the guards `gateway serve` wraps it in."""
    from gateway.app import GatewayApp

    app = server.config.app
    while not isinstance(app, GatewayApp):
        app = app.app
    return app


@dataclass(frozen=True)
class Options:
    cases: list[str]
    profile: str | None  # a case whose loop-thread time is profiled (cProfile)
    stacks_ms: float | None  # sample the loop's stack whenever it is this late


def _settings(port: int) -> Any:
    from gateway.settings import Settings

    tmp = Path(tempfile.mkdtemp())
    return Settings(
        database_url=f"sqlite:///{tmp / 'l.db'}",
        local_engine=False,
        admin_key=ADMIN_KEY,
        port=port,
        log_level="error",
    )


def _policy(emu_port: int) -> Any:
    from gateway.policy.loader import load_text

    return load_text(f"""
version: 1
backends:
  node: {{kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:{emu_port}",
          model: m}}
  cloud:
    kind: openai_compat
    zone: cloud
    base_url: "http://127.0.0.1:{emu_port}"
    model: m
    price: {{input_per_mtok: "0.1", output_per_mtok: "0.2"}}
    transfer:
      mechanism: tr_scc
      module: C2P
      provider_legal_name: Emülatör Bulut A.Ş.
      signed: 2025-01-06
      notified: 2025-01-08
      notification_channel: kep
      classes: [public, personal]
aliases:
  chat: {{backends: [node]}}
  cloud: {{backends: [cloud, node]}}
defaults: {{objective: ordered, redact: true}}
""")


HEADER = (
    f"{'case':<22} {'answer':<26} {'max lag ms':>10} {'p99 ms':>7} {'loop CPU ms':>11} "
    f"{'busy %':>6} {'gc max ms':>9} {'CPU':>5} {'gen':>3} {'full gc':>7} {'imports':>7} "
    f"{'RSS MB before':>14} {'after':>7} {'peak':>7}"
)


async def _bench(opts: Options, emu_port: int) -> None:
    from gateway.cli import build_server
    from gateway.emulators.base import free_port

    port = free_port()
    server = build_server(_settings(port), _policy(emu_port), loop="none")  # `gateway serve`'s
    serving = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110  (uvicorn offers no start-up event)
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # the emulator starts too
    offload = getattr(_gateway_app(server).state.runtime, "body_offload", None)
    if offload is not None:  # (a tree from before the child processes has none)
        await offload.pool.warmed()  # the children have started
    probe = Probe()
    probing = asyncio.create_task(probe.run())
    stacks = StallStacks(probe, opts.stacks_ms) if opts.stacks_ms is not None else None
    print(HEADER)
    try:
        with GcPauses() as pauses, stacks or contextlib.nullcontext():
            for case in opts.cases:
                await _case(case, port, opts, probe, pauses, stacks)
    finally:
        probing.cancel()
        server.should_exit = True
        await serving


async def _case(
    case: str,
    port: int,
    opts: Options,
    probe: Probe,
    pauses: GcPauses,
    stacks: StallStacks | None,
) -> None:
    await asyncio.sleep(0.5)
    before = rss_mb()
    # the client is started first: forking it is the bench's work, not the gateway's
    client = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--send",
        case,
        "--port",
        str(port),
        stdout=asyncio.subprocess.PIPE,
    )
    assert client.stdout is not None
    modules = set(sys.modules)
    probe.reset()
    pauses.reset()
    if stacks is not None:
        stacks.reset()
    began = time.perf_counter()
    profile = cProfile.Profile() if opts.profile == case else None
    if profile is not None:
        profile.enable()
    with PeakRss() as rss:  # sampled on a thread: nothing added to the loop
        answer = (await client.stdout.read()).decode().strip()
        await client.wait()
    if profile is not None:
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    worst, p99, cpu, busy = probe.figures(time.perf_counter() - began)
    gc_ms, gc_cpu, gen, full = pauses.figures()
    imported = sorted(set(sys.modules) - modules)  # on whichever thread: it holds the GIL
    print(
        f"{case:<22} {answer:<26} {worst:>10.1f} {p99:>7.1f} {cpu:>11.1f} {busy:>6.0f} "
        f"{gc_ms:>9.1f} {gc_cpu:>5.1f} {gen if gen >= 0 else '-':>3} {full:>7} {len(imported):>7} "
        f"{before:>14.0f} {rss_mb():>7.0f} {rss.peak:>7.0f}",
        flush=True,
    )
    if stacks is not None and stacks.samples:
        print(stacks.report(), flush=True)
    if imported and stacks is not None:
        print(f"    imported: {', '.join(imported[:12])}{' ...' if len(imported) > 12 else ''}")


def _args(argv: list[str]) -> Options:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").splitlines()[0],
        epilog="Columns: the client's answer, the probe's max and p99 lateness, the most loop "
        "CPU in one probe tick, the loop thread's CPU share, the longest garbage collection "
        "(any thread; it holds the GIL) with its CPU time and generation, the count of full "
        "ones, the modules imported meanwhile, and the gateway's RSS.",
    )
    parser.add_argument("cases", nargs="*", metavar="CASE", help=f"of: {', '.join(CASES)}")
    parser.add_argument("--profile", metavar="CASE", help="cProfile the process during CASE")
    parser.add_argument(
        "--stacks",
        type=float,
        metavar="MS",
        help="print where the loop's thread was whenever the probe was MS ms late",
    )
    a = parser.parse_args(argv)
    unknown = sorted(set(a.cases) - set(CASES))
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}")
    return Options(a.cases or list(CASES), a.profile, a.stacks)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--send"]:
        print(_send_case(argv[1], int(argv[3])))
        return 0
    opts = _args(argv)
    import uvloop

    from gateway.emulators.base import free_port

    emu_port = free_port()
    emulator = subprocess.Popen(
        [sys.executable, "-m", "gateway", "emulate", "openai", "--port", str(emu_port)],
        stdout=subprocess.DEVNULL,
    )
    print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")
    try:
        uvloop.run(_bench(opts, emu_port))
    finally:
        emulator.terminate()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main(sys.argv[1:]))
