"""The processes of the soak benchmark (bench/soak.py): the OpenAI emulator, the gateway with
its ledger, an API key, and the throwaway PostgreSQL database; each stopped or dropped at the
end."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from soak_inputs import policy_text

PY = sys.executable
ADMIN = "soak-admin-key"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Processes:
    def __init__(self, tmp: Path, database_url: str | None) -> None:
        self.tmp = tmp
        self.server_url = database_url
        self.pg_name: str | None = None
        self.db_url = f"sqlite:///{tmp / 'ledger.db'}"
        self.em_port = free_port()
        self.gw_port = free_port()
        self.upstream = f"http://127.0.0.1:{self.em_port}/v1"
        self.url = f"http://127.0.0.1:{self.gw_port}"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.api_key = ""
        self.gateway: subprocess.Popen[bytes] | None = None

    @property
    def admin_headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {ADMIN}"}

    def start(self) -> None:
        if self.server_url and self.server_url.startswith("postgresql"):
            self._create_database()
        self._spawn(
            "emulator", [PY, "-m", "gateway", "emulate", "openai", "--port", str(self.em_port)]
        )
        env = {
            **os.environ,
            "GECIT_ADMIN_KEY": ADMIN,
            "GECIT_DATABASE_URL": self.db_url,
            "GECIT_JOURNAL_PATH": str(self.tmp / "journal"),
            "GECIT_REQUIRE_KEYS": "true",
            "GECIT_LOG_LEVEL": "warning",
        }
        out = subprocess.run(
            [
                PY,
                "-m",
                "gateway",
                "keys",
                "create",
                "--tenant",
                "soak",
                "--database-url",
                self.db_url,
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        self.api_key = out.stdout.strip().splitlines()[-1]
        policy = self.tmp / "policy.yaml"
        policy.write_text(policy_text(self.upstream, 0))
        self.gateway = self._spawn(
            "gateway",
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
            env,
        )
        self._wait_ready()

    def _spawn(
        self, name: str, cmd: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        log = (self.tmp / f"{name}.log").open("ab")
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.procs.append(proc)
        return proc

    def _wait_ready(self) -> None:
        assert self.gateway is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.gateway.poll() is not None:
                raise SystemExit(
                    "gateway exited early:\n" + (self.tmp / "gateway.log").read_text()[-3000:]
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/readyz", timeout=1).status_code == 200:
                    return
            time.sleep(0.3)
        raise SystemExit("gateway not ready in 120 s")

    def _create_database(self) -> None:
        import psycopg

        assert self.server_url is not None
        self.pg_name = f"gecit_soak_{os.urandom(4).hex()}"
        with psycopg.connect(self._libpq(self.server_url), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.pg_name}"')
        self.db_url = f"{self.server_url.rsplit('/', 1)[0]}/{self.pg_name}"

    @staticmethod
    def _libpq(url: str) -> str:
        return url.replace("postgresql+psycopg://", "postgresql://")

    def pg_up(self) -> bool:
        """Whether a new connection to the ledger's server succeeds now."""
        import psycopg

        try:
            with psycopg.connect(self._libpq(self.db_url), connect_timeout=1) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def rss(self) -> float:
        return rss_mb(self.gateway.pid) if self.gateway else 0.0

    def gateway_alive(self) -> bool:
        return self.gateway is not None and self.gateway.poll() is None

    def ledger_ids(self, expected: set[str], drain_s: float) -> set[str]:
        """The request ids in the ledger, once all `expected` are there or `drain_s` passed."""
        from sqlalchemy import text

        from gateway.usage.db import make_engine

        engine = make_engine(self.db_url)
        deadline = time.monotonic() + drain_s
        try:
            while True:
                with engine.connect() as conn:
                    ids = {r[0] for r in conn.execute(text("SELECT id FROM requests"))}
                if expected <= ids or time.monotonic() > deadline:
                    return ids
                time.sleep(2)
        finally:
            engine.dispose()

    def quarantined(self) -> str:
        with contextlib.suppress(httpx.HTTPError):
            m = httpx.get(self.url + "/metrics", timeout=10, headers=self.admin_headers).text
            for ln in m.splitlines():
                if ln.startswith("gecit_ledger_quarantined "):
                    return ln.split()[-1]
        return "?"

    def stop(self, keep: str | None = None) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(40)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        if keep:
            with contextlib.suppress(OSError):
                shutil.copy(self.tmp / "gateway.log", keep)
        if self.pg_name and self.server_url:
            import psycopg

            with (
                contextlib.suppress(psycopg.Error),
                psycopg.connect(self._libpq(self.server_url), autocommit=True) as conn,
            ):
                conn.execute(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
