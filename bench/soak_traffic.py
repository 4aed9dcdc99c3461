"""The traffic of the soak benchmark (bench/soak.py): normal workers, bad inputs in alternate
phases, policy PUTs, RSS samples and the PostgreSQL restart. Every loop ends with the run."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import socket
import struct
import sys
import time

import httpx
from soak_inputs import (
    INVALID_POLICIES,
    bad_bodies,
    chat_body,
    invalid_policy,
    policy_text,
)
from soak_procs import Processes
from soak_report import Latency, Tally

CHAT = "/v1/chat/completions"
PG_WINDOW_AFTER_S = 15.0


class Traffic:
    def __init__(self, args: argparse.Namespace, procs: Processes) -> None:
        self.args = args
        self.p = procs
        self.duration = args.minutes * 60
        self.tally = Tally()
        self.t0 = 0.0
        self.bodies = bad_bodies()
        self.pg_window: tuple[float, float] | None = None
        self.key_headers = {"authorization": f"Bearer {procs.api_key}"}
        self.bad_headers = {**self.key_headers, "content-type": "application/json"}

    # ---- clock and phases ---------------------------------------------------------------
    def now(self) -> float:
        return time.monotonic() - self.t0

    def running(self) -> bool:
        return self.now() < self.duration and self.p.gateway_alive()

    def bad_phase(self, t: float) -> bool:
        return int(t / self.args.phase_s) % 2 == 1

    def phase(self, t: float) -> str:
        w = self.pg_window
        if w is not None and w[0] <= t <= w[1]:
            return "pg"
        if t < self.args.warmup_s:
            return "warmup"
        return "bad" if self.bad_phase(t) else "quiet"

    # ---- normal traffic -----------------------------------------------------------------
    async def normal(self, client: httpx.AsyncClient, worker: int) -> None:
        rng = random.Random(worker)
        while self.running():
            stream = rng.random() < 0.5
            body = chat_body(f"soak {worker} {rng.random()}", stream=stream, max_tokens=16)
            started = self.now()
            t = time.perf_counter()
            try:
                async with client.stream("POST", CHAT, content=body) as r:
                    async for _ in r.aiter_bytes():
                        pass
            except httpx.HTTPError:
                self.tally.normal_errors += 1
                await asyncio.sleep(self.args.think_s)
                continue
            took = time.perf_counter() - t
            # a request is in the phase it started in; one that overlaps the restart window
            # is counted there
            phase = (
                self.phase(self.now()) if self.phase(self.now()) == "pg" else self.phase(started)
            )
            self.tally.normal.append(Latency(started, took, phase, stream))
            self.tally.count("normal", r.status_code, r.headers.get("x-request-id"))
            await asyncio.sleep(self.args.think_s)

    # ---- bad inputs (a thread of their own: sending them never delays the normal
    # ---- workers' clock on this process's event loop) ------------------------------------
    def bad(self) -> None:
        rng = random.Random(99)
        unauth = httpx.HTTPTransport(local_address="127.0.0.2")  # its own failed-auth count
        with (
            httpx.Client(base_url=self.p.url, timeout=60, headers=self.bad_headers) as client,
            httpx.Client(base_url=self.p.url, timeout=60, transport=unauth) as anonymous,
        ):
            while self.running():
                if not self.bad_phase(self.now()):
                    time.sleep(0.2)
                    continue
                kind = rng.choice(self.args.bad_kinds)
                self.tally.sent(kind)
                try:
                    self._bad_one(kind, client, anonymous)
                except (httpx.HTTPError, OSError):
                    self.tally.bad_errors += 1
                time.sleep(self.args.bad_every)

    def _bad_one(self, kind: str, client: httpx.Client, anonymous: httpx.Client) -> None:
        if kind == "client_reset":
            status, rid = self._raw(chat_body("reset me", stream=True), reset=True)
            self.tally.count(kind, status, rid, reset=True)
        elif kind == "oversized":
            status, rid = self._raw(self.bodies[kind], reset=False)
            self.tally.count(kind, status, rid)
        elif kind == "unauthenticated":
            r = anonymous.post(
                CHAT, content=self.bodies[kind], headers={"content-type": "application/json"}
            )
            self.tally.count(kind, r.status_code, r.headers.get("x-request-id"), row=False)
        else:
            r = client.post(CHAT, content=self.bodies[kind])
            self.tally.count(kind, r.status_code, r.headers.get("x-request-id"))

    def _raw(self, body: bytes, *, reset: bool) -> tuple[int, str | None]:
        """What a plain socket sees. `reset`: the whole body, the head and first bytes of the
        answer, then close with RST (a client that leaves mid-stream). Else (an oversized
        body): the head and 64 KiB of the body, then the answer's head (413 comes before the
        gateway reads the rest)."""
        head = (
            f"POST {CHAT} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            f"authorization: Bearer {self.p.api_key}\r\ncontent-length: {len(body)}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", self.p.gw_port), timeout=30) as s:
            s.sendall(head + (body if reset else body[: 64 * 1024]))
            got = b""
            while b"\r\n\r\n" not in got and len(got) < 65536:
                chunk = s.recv(4096)
                if not chunk:
                    break
                got += chunk
            if reset:
                if got.endswith(b"\r\n\r\n"):  # the head alone: wait for the first bytes
                    with contextlib.suppress(OSError):
                        s.recv(4096)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return _head_of(got)

    # ---- policy PUTs --------------------------------------------------------------------
    async def policy_puts(self, client: httpx.AsyncClient) -> None:
        n = 0
        while self.running():
            await asyncio.sleep(min(self.args.policy_every, max(0.0, self.duration - self.now())))
            if not self.running():
                return
            n += 1
            if n % 3 == 0:
                kind = INVALID_POLICIES[(n // 3 - 1) % len(INVALID_POLICIES)]
                doc = invalid_policy(kind, self.p.upstream)
            else:
                kind, doc = "valid", policy_text(self.p.upstream, n).encode()
            try:
                r = await client.put("/admin/policy", content=doc, headers=self.p.admin_headers)
            except httpx.HTTPError:
                self.tally.policy_errors += 1
                continue
            counts = self.tally.policy_puts.setdefault(kind, {})
            counts[str(r.status_code)] = counts.get(str(r.status_code), 0) + 1

    # ---- samples, the emulator's log, the restart ---------------------------------------
    async def sample(self, emulator: httpx.AsyncClient) -> None:
        last_log = -60.0
        while self.running():
            t = self.now()
            self.tally.rss.append((t, self.p.rss()))
            if t - last_log >= 60:
                last_log = t
                # the emulator keeps every request it served: empty it (and set its pace again)
                with contextlib.suppress(httpx.HTTPError):
                    await emulator.post("/_emulator/reset")
                    await emulator.post(
                        "/_emulator/mode", json={"delay_s": 0.02, "inter_chunk_s": 0.005}
                    )
                print(
                    f"[soak] t={t:6.0f}s rss={self.tally.rss[-1][1]:.1f}MB "
                    f"normal={len(self.tally.normal)} "
                    f"bad={sum(self.tally.bad_sent.values())} puts={self.tally.policy_puts} "
                    f"errors={self.tally.normal_errors}",
                    file=sys.stderr,
                    flush=True,
                )
            await asyncio.sleep(5)

    async def pg_restart(self) -> None:
        await asyncio.sleep(self.duration / 2)
        if not self.running():
            return
        start = self.now()
        self.tally.pg_restart_at = round(start, 1)
        self.pg_window = (start, self.duration)  # until the restart is over
        probe = asyncio.create_task(self._probe_down())
        proc = await asyncio.create_subprocess_shell(self.args.pg_restart_cmd)
        rc = await proc.wait()
        print(f"[soak] PostgreSQL restart command exited {rc}", file=sys.stderr, flush=True)
        self.tally.pg_down_s = await probe
        self.pg_window = (start, self.now() + PG_WINDOW_AFTER_S)

    async def _probe_down(self) -> float:
        """Seconds from the first failed connection to the next one that succeeds (a probe
        every 0.1 s, for at most 120 s)."""
        first_fail: float | None = None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            up = await asyncio.to_thread(self.p.pg_up)
            t = time.monotonic()
            if not up and first_fail is None:
                first_fail = t
            elif up and first_fail is not None:
                return round(t - first_fail, 2)
            await asyncio.sleep(0.1)
        return -1.0 if first_fail is not None else 0.0

    async def run(self) -> None:
        limits = httpx.Limits(max_connections=self.args.workers + 4)
        async with (
            httpx.AsyncClient(
                base_url=self.p.url,
                timeout=60,
                limits=limits,
                headers={**self.key_headers, "content-type": "application/json"},
            ) as normal,
            httpx.AsyncClient(base_url=self.p.url, timeout=60) as admin,
            httpx.AsyncClient(base_url=self.p.upstream.removesuffix("/v1"), timeout=10) as emulator,
        ):
            self.t0 = time.monotonic()
            tasks = [self.normal(normal, w) for w in range(self.args.workers)]
            tasks += [asyncio.to_thread(self.bad), self.policy_puts(admin), self.sample(emulator)]
            if self.args.pg_restart_cmd:
                tasks.append(self.pg_restart())
            await asyncio.gather(*tasks)
        if not self.p.gateway_alive():
            print("[soak] the gateway exited during the run", file=sys.stderr)


def _head_of(raw: bytes) -> tuple[int, str | None]:
    """The status and x-request-id of a response head (0, None when none arrived)."""
    lines = raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    try:
        status = int(lines[0].split()[1])
    except (IndexError, ValueError):
        return 0, None
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"x-request-id":
            return status, value.strip().decode()
    return status, None
