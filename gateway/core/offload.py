"""Child processes for work that would hold the event loop's GIL for long stretches.

Parsing an 8 MiB body (one C call in pydantic-core) or classifying a long text (regex and
Python work over every window) keeps the GIL: a worker thread does not help, the event loop
waits for the GIL as it would for the work itself. Such work goes to a small pool of child
processes, started once and reused; the loop only hands over the input and takes the answer.

Every job has a hard deadline. When it passes, the caller gets `TimeoutError` at once and
decides what that means (classification: `special`, fail closed); the job is never finished on
the loop, its late answer is dropped. Jobs given an absolute deadline stop themselves at it
(`remaining`), so a child does not keep working long for a caller that has gone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


class OffloadFailed(Exception):
    """The pool could not run the job (a child died, or the pool is closed)."""


def remaining(deadline: float) -> float:
    """Seconds left until `deadline` (a `time.monotonic()` value: one clock for the parent
    and its children on the same machine)."""
    return deadline - time.monotonic()


class ChildPool:
    """`workers` child processes (spawned, so they inherit no threads, sockets or locks of
    the server). `start` starts them all and runs the warm-ups in them (`gateway serve` does
    once it serves); without it the first job starts one, as a test's app does: an app
    that never sees a large request never pays for children."""

    def __init__(self, workers: int, preload: tuple[str, ...] = ()) -> None:
        """`preload`: modules every child imports when it starts, before its first job."""
        if workers < 1:
            raise ValueError("a child pool needs at least one worker")
        self.workers = workers
        self._preload = preload
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False
        self._started = False
        self._warm_ups: dict[Callable[..., Any], tuple[Any, ...]] = {}
        self._warming: list[concurrent.futures.Future[Any]] = []
        # what GET /metrics shows (gecit_offload_*): jobs by how they ended, jobs sent and not
        # yet ended in a child (running or queued; a timed-out job counts until its child
        # lets go of it), and pools started again after a child died
        self.submitted = 0
        self.done = 0  # jobs answered in time
        self.timed_out = 0  # jobs whose deadline passed first (their answer is dropped)
        self.failed = 0  # jobs no child could run (a child died, or the pool is closed)
        self.restarts = 0
        self._sent = 0  # jobs handed to a pool
        self._ended = 0  # and those that ended there (answered, failed or cancelled)
        self._made = False  # a pool was made once (another one is a restart)

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._closed:
            raise OffloadFailed("the child pool is closed")
        if self._pool is None:
            if self._made:
                self.restarts += 1  # the one before broke
            self._made = True
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_import_all,
                initargs=(self._preload,),
            )
        return self._pool

    def start(self) -> None:
        """Start every child now, each running the warm-ups (not awaited)."""
        self._started = True
        for fn, args in self._warm_ups.items():
            self._submit_warm_up(fn, args)
        if not self._warm_ups:
            self._submit_warm_up(_import_all, ((),))

    def warm(self, fn: Callable[..., Any], *args: Any) -> None:
        """`fn(*args)` prepares a child (a cache to fill, for the policy in force): run in
        every child once started, replacing an earlier warm-up by the same function."""
        self._warm_ups[fn] = args
        if self._started:
            self._submit_warm_up(fn, args)

    def _submit_warm_up(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            pool = self._executor()
            for _ in range(self.workers):  # a pool starts a child per job until it has all
                future = pool.submit(fn, *args)
                future.add_done_callback(_drop)
                self._warming.append(future)
        except (OffloadFailed, BrokenProcessPool, RuntimeError):
            self._pool = None

    async def warmed(self) -> None:
        """Wait until the warm-ups sent so far have run (a benchmark or a test measures the
        warm state; the gateway itself never waits: a job sent meanwhile waits its turn)."""
        warming, self._warming = self._warming, []
        for future in warming:
            await asyncio.wrap_future(future)

    @property
    def in_flight(self) -> int:
        """Jobs running in a child or queued for one (a timed-out job counts until its
        child has let go of it)."""
        return self._sent - self._ended

    @property
    def queued(self) -> int:
        """Jobs waiting for a free child (those in flight beyond one per child)."""
        return max(0, self.in_flight - self.workers)

    def _end(self, _future: asyncio.Future[Any]) -> None:
        self._ended += 1  # on the loop's thread, as `_sent`: no count is lost

    async def run(self, timeout_s: float, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a child; `TimeoutError` once `timeout_s` has passed (the wait in
        the queue counts), `OffloadFailed` when no child could run it."""
        self.submitted += 1
        try:
            future = self._executor().submit(fn, *args)
        except (OffloadFailed, BrokenProcessPool, RuntimeError) as exc:
            self._pool = None  # a child died: the next job gets a new pool
            self.failed += 1
            if isinstance(exc, OffloadFailed):
                raise
            raise OffloadFailed(type(exc).__name__) from None
        self._sent += 1
        waiting = asyncio.wrap_future(future)
        waiting.add_done_callback(self._end)
        try:
            result: T = await asyncio.wait_for(asyncio.shield(waiting), max(timeout_s, 0.0))
        except TimeoutError:
            self.timed_out += 1
            future.cancel()  # still queued: never started
            waiting.add_done_callback(_drop)
            raise
        except BrokenProcessPool as exc:
            self._pool = None
            self.failed += 1
            raise OffloadFailed(type(exc).__name__) from None
        self.done += 1
        return result

    def close(self) -> None:
        """Drop queued jobs and let the children exit (a running job ends at its deadline)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _import_all(modules: tuple[str, ...]) -> None:
    _exit_with_parent(os.getppid())
    for name in modules:
        importlib.import_module(name)


def _exit_with_parent(parent: int, every_s: float = 1.0) -> None:
    """A child whose server was killed outright (SIGKILL, the OOM killer) would wait for jobs
    forever, holding its memory (the judge's model among it): a daemon thread ends the child
    once its parent is gone (it is then re-parented, so getppid() changes)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os._exit(0)

    threading.Thread(target=watch, name="gecit-parent-watch", daemon=True).start()


def _drop(future: concurrent.futures.Future[Any] | asyncio.Future[Any]) -> None:
    """A late or unwanted answer: read it so no 'never retrieved' warning is logged."""
    if not future.cancelled():
        future.exception()
