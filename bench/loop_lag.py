"""Event-loop lag of the gateway while each "freezing" input arrives (target: max lag <= 50 ms).

The gateway (create_app behind the same protocol as `gateway serve`: head limits and read
timeouts) runs in this process's event loop (uvloop) with a probe task that sleeps 5 ms at a
time and records how late it wakes. Its upstream is `gateway emulate openai` in a subprocess,
and every input is sent by a client subprocess (this file with `--send CASE --port N`), so no
client work shares the gateway's loop or its GIL. Per case: the probe's max lag, the status
the client got, and the gateway's RSS before and after (current, from /proc).

The probe measures wall-clock lateness, so CPU taken by other processes on a shared machine
shows up as lag too: run it on a quiet machine (compare with the "normal" rows) and read the
load average printed first.

    .venv/bin/python bench/loop_lag.py            # every case
    .venv/bin/python bench/loop_lag.py body_100mb headers_10k
"""

from __future__ import annotations

import asyncio
import functools
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# the first "normal" warms the gateway up (its first routed request builds lazy state: that
# lag is not an input's); the last one shows the gateway still answers after the others
CASES = (
    "normal",
    "body_100mb",
    "body_100mb_chunked",
    "body_at_limit",
    "header_16mb",
    "headers_10k",
    "messages_100k",
    "slow_clients_1000",
    "normal",
)


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


def _send_case(case: str, port: int) -> str:
    mb = 1024 * 1024
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
            + (b"content-length: 100000\r\n\r\n" if i % 2 else b"x-slow: ")
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
def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Probe:
    def __init__(self) -> None:
        self.max_lag = 0.0

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(0.005)
            self.max_lag = max(self.max_lag, loop.time() - t - 0.005)


async def _bench(cases: list[str], emu_port: int) -> None:
    import uvicorn

    from gateway.app import create_app
    from gateway.emulators.base import free_port
    from gateway.httpguard import ConnectionLimits, GuardedHttpToolsProtocol
    from gateway.policy.loader import load_text
    from gateway.settings import Settings

    port = free_port()
    tmp = Path(tempfile.mkdtemp())
    settings = Settings(database_url=f"sqlite:///{tmp / 'l.db'}", local_engine=False)
    policy = load_text(f"""
version: 1
backends:
  node: {{kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:{emu_port}",
          model: m}}
aliases:
  chat: {{backends: [node]}}
""")
    protocol = functools.partial(GuardedHttpToolsProtocol, limits=ConnectionLimits.of(settings))
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(settings, policy=policy),
            host="127.0.0.1",
            port=port,
            loop="none",
            log_level="error",
            http=protocol,
            ws="none",
        )
    )  # type: ignore[arg-type]
    serving = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110  (uvicorn offers no start-up event)
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # the emulator starts too
    probe = Probe()
    probing = asyncio.create_task(probe.run())
    print(
        f"{'case':<22} {'answer':<26} {'max lag ms':>10} {'RSS MB before':>14} "
        f"{'after':>7} {'peak':>7}"
    )
    try:
        for case in cases:
            await asyncio.sleep(0.5)
            before, peak = _rss_mb(), _rss_mb()
            probe.max_lag = 0.0
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
            reading = asyncio.ensure_future(client.stdout.read())
            while not reading.done():
                peak = max(peak, _rss_mb())
                await asyncio.sleep(0.02)
            await client.wait()
            answer = reading.result().decode().strip()
            print(
                f"{case:<22} {answer:<26} {probe.max_lag * 1000:>10.1f} {before:>14.0f} "
                f"{_rss_mb():>7.0f} {peak:>7.0f}",
                flush=True,
            )
    finally:
        probing.cancel()
        server.should_exit = True
        await serving


def main(argv: list[str]) -> int:
    if argv[:1] == ["--send"]:
        print(_send_case(argv[1], int(argv[3])))
        return 0
    cases = argv or list(CASES)
    import uvloop

    from gateway.emulators.base import free_port

    emu_port = free_port()
    emulator = subprocess.Popen(
        [sys.executable, "-m", "gateway", "emulate", "openai", "--port", str(emu_port)],
        stdout=subprocess.DEVNULL,
    )
    print(f"load average {Path('/proc/loadavg').read_text().split()[:3]}")
    try:
        uvloop.run(_bench(cases, emu_port))
    finally:
        emulator.terminate()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main(sys.argv[1:]))
