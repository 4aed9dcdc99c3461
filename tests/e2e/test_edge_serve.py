"""The edge of a real `gateway serve` on real sockets: keyless mode's fence (local Host, JSON
bodies, a loud start-up line), a key-requiring gateway that answers 401 without waiting for
a 100 MB body, bodies over the limit refused while they arrive, and a client that leaves
before the first token ends the upstream call at once with a 499 ledger row."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from gateway.emulators.base import EmulatorServer, Mode
from gateway.emulators.openai import build_app as openai_app
from gateway.localguard import KEYLESS_WARNING
from tests.e2e.gateway_proc import GatewayProcess

pytestmark = pytest.mark.e2e

POLICY = """
version: 1
backends:
  node:
    kind: openai_compat
    zone: on_prem
    base_url: {url}
    model: emulated-model
    timeouts: {{connect_s: 1, first_token_s: 20, total_s: 30}}
aliases:
  chat: {{backends: [node]}}
"""
CHAT = b'{"model":"chat","messages":[{"role":"user","content":"merhaba"}]}'


@pytest.fixture(scope="module")
def emulator() -> Iterator[EmulatorServer]:
    with EmulatorServer(openai_app) as e:
        yield e


def _gateway(tmp: Path, emulator: EmulatorServer, *args: str, **env: str) -> GatewayProcess:
    policy = tmp / "policy.yaml"
    policy.write_text(POLICY.format(url=emulator.url))
    return GatewayProcess(tmp, "--policy", str(policy), "--no-local-engine", *args, env=env).start()


@pytest.fixture(scope="module")
def keyless(
    emulator: EmulatorServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GatewayProcess]:
    gw = _gateway(
        tmp_path_factory.mktemp("keyless"), emulator, GECIT_MAX_BODY_BYTES=str(1024 * 1024)
    )
    yield gw
    gw.stop()


@pytest.fixture(scope="module")
def keyed(
    emulator: EmulatorServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GatewayProcess]:
    gw = _gateway(tmp_path_factory.mktemp("keyed"), emulator, "--require-keys")
    yield gw
    gw.stop()


def _exchange(port: int, head: bytes, body: bytes = b"", timeout: float = 5.0) -> tuple[int, bytes]:
    """Send `head` (+ `body`) on a fresh socket; (status, whole answer) once the server has
    answered and closed (or `timeout`)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(head + body)
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                piece = s.recv(65536)
            except (TimeoutError, ConnectionError):
                break
            if not piece:
                break
            data += piece
            if b"\r\n\r\n" in data and b"connection: close" not in data.lower():
                head_end = data.index(b"\r\n\r\n") + 4
                length = int(data.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                if len(data) >= head_end + length:
                    break
    return int(data.split(b" ", 2)[1]), data


# ---- keyless mode ---------------------------------------------------------------------------
def test_keyless_mode_says_so_loudly_at_start_up(keyless: GatewayProcess) -> None:
    assert KEYLESS_WARNING in keyless.log.read_text()


@pytest.mark.parametrize(
    "host",
    [
        b"evil.example",
        b"evil.example:8080",
        b"127.0.0.1.nip.io",
        b"localhost.evil.example",
        b"192.168.1.5",
    ],
)
def test_keyless_mode_serves_only_a_local_host(keyless: GatewayProcess, host: bytes) -> None:
    status, answer = _exchange(
        keyless.port,
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: "
        + host
        + b"\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\n\r\n" % len(CHAT),
        CHAT,
    )
    assert status == 403 and b"host_not_allowed" in answer
    status, _ = _exchange(keyless.port, b"GET /metrics HTTP/1.1\r\nhost: " + host + b"\r\n\r\n")
    assert status == 403


@pytest.mark.parametrize("host", [b"localhost", b"127.0.0.1:%d", b"[::1]:%d", b"LOCALHOST"])
def test_keyless_mode_serves_a_local_host_and_json(keyless: GatewayProcess, host: bytes) -> None:
    host = host.replace(b"%d", str(keyless.port).encode())
    status, _ = _exchange(
        keyless.port,
        b"POST /v1/chat/completions HTTP/1.1\r\nhost: "
        + host
        + b"\r\ncontent-type: application/json; charset=utf-8\r\n"
        b"content-length: %d\r\n\r\n" % len(CHAT),
        CHAT,
    )
    assert status == 200


@pytest.mark.parametrize(
    "ctype",
    [b"text/plain", b"application/x-www-form-urlencoded", b"multipart/form-data; boundary=x", None],
)
def test_keyless_mode_refuses_bodies_a_browser_may_send_cross_site(
    keyless: GatewayProcess, ctype: bytes | None
) -> None:
    header = b"content-type: " + ctype + b"\r\n" if ctype else b""
    status, answer = _exchange(
        keyless.port,
        b"POST /v1/chat/completions HTTP/1.1\r\n"
        b"host: 127.0.0.1\r\n" + header + b"content-length: %d\r\n\r\n" % len(CHAT),
        CHAT,
    )
    assert status == 415 and b"unsupported_media_type" in answer


@pytest.mark.parametrize(
    ("path", "status"),
    [
        (b"/admin/login", 403),  # to the sign-in form's CSRF check
        (b"/admin/logout", 401),  # no session: nothing to end
        (b"/admin/console/policy", 401),
        (b"/admin/policy/explain", 415),  # the JSON admin API: not a console form
    ],
)
def test_keyless_mode_passes_only_the_consoles_forms_to_their_own_checks(
    keyless: GatewayProcess, path: bytes, status: int
) -> None:
    form = b"key=gk_x&csrf=forged"
    got, answer = _exchange(
        keyless.port,
        b"POST " + path + b" HTTP/1.1\r\nhost: 127.0.0.1\r\n"
        b"content-type: application/x-www-form-urlencoded\r\n"
        b"content-length: %d\r\n\r\n" % len(form),
        form,
    )
    assert got == status, answer[:300]
    if status == 403:
        assert b"CSRF" in answer


def test_keyless_mode_cannot_listen_beyond_loopback(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "gateway",
            "serve",
            "--host",
            "0.0.0.0",
            "--no-require-keys",
            "--no-local-engine",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "loopback" in run.stderr and "Traceback" not in run.stderr


# ---- body limits and auth order on real sockets ---------------------------------------------
def test_a_declared_100_mb_body_is_refused_before_it_is_sent(keyless: GatewayProcess) -> None:
    t0 = time.monotonic()
    status, answer = _exchange(
        keyless.port,
        b"POST /v1/chat/completions HTTP/1.1\r\n"
        b"host: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"content-length: 104857600\r\n\r\n",
        b"{",
    )
    assert status == 413 and b"request_too_large" in answer
    assert time.monotonic() - t0 < 3


def test_a_chunked_body_over_the_limit_is_stopped_while_it_arrives(
    keyless: GatewayProcess, emulator: EmulatorServer
) -> None:
    emulator.state.reset()

    def pieces() -> Iterator[bytes]:
        yield b'{"model":"chat","messages":[{"role":"user","content":"'
        for _ in range(64):  # 4 MiB against a 1 MiB limit
            yield b"a" * 65536
        yield b'"}]}'

    try:
        r = httpx.post(
            keyless.url + "/v1/chat/completions",
            content=pieces(),
            timeout=10,
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 413
    except httpx.WriteError:
        pass  # the server answered and closed while the rest was still being sent
    assert emulator.state.requests == []


def test_a_key_is_checked_before_a_100_mb_body_is_waited_for(keyed: GatewayProcess) -> None:
    t0 = time.monotonic()
    status, answer = _exchange(
        keyed.port,
        b"POST /v1/chat/completions HTTP/1.1\r\n"
        b"host: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"content-length: 104857600\r\n\r\n",
        b'{"model":',
    )
    assert status == 401 and b"authentication_error" in answer
    assert b"connection: close" in answer.lower()
    assert time.monotonic() - t0 < 3  # it did not wait for the other 99.99 MB


# ---- a client that leaves -------------------------------------------------------------------
def _rows(db: Path, timeout: float = 10.0) -> list[Any]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            con = sqlite3.connect(db)
            try:
                rows = con.execute(
                    "SELECT status, error_kind, latency_ms, streamed FROM requests"
                ).fetchall()
            finally:
                con.close()
        except sqlite3.OperationalError:
            rows = []
        if rows or time.monotonic() > deadline:
            return rows
        time.sleep(0.1)


@pytest.mark.parametrize("stream", [True, False])
def test_a_client_that_leaves_before_the_first_token_ends_the_upstream_call(
    emulator: EmulatorServer, tmp_path: Path, stream: bool
) -> None:
    gw = _gateway(tmp_path, emulator)
    try:
        emulator.state.reset()
        emulator.state.mode = Mode(delay_s=15)  # the first token would come after 15 s
        body = b'{"model":"chat","stream":%s,"messages":[{"role":"user","content":"hi"}]}' % (
            b"true" if stream else b"false"
        )
        with socket.create_connection(("127.0.0.1", gw.port), timeout=5) as s:
            s.sendall(
                b"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\n"
                b"content-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body
            )
            time.sleep(1.0)  # the upstream call is under way
        left = time.monotonic()
        rows = _rows(gw.db)
        assert time.monotonic() - left < 8, "the row came only with the upstream's answer"
        assert [(r[0], r[1], r[3]) for r in rows] == [(499, "client_closed", int(stream))]
        assert rows[0][2] < 8000  # latency: the time until the client left, not 15 s
    finally:
        emulator.state.mode = Mode()
        gw.stop()
