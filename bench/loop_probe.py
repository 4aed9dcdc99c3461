"""What bench/loop_lag.py measures inside the gateway's process: the probe task's lateness and
loop CPU per tick, the garbage collector's pauses, the peak RSS, and (when asked) where the
event loop's thread was while a tick ran long."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class PeakRss:
    """The highest RSS seen while the block runs, sampled every 20 ms on its own thread."""

    def __init__(self) -> None:
        self.peak = rss_mb()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_mb())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss_mb())


class Probe:
    """Sleeps 5 ms at a time and keeps how late each wake-up was, and how much CPU the loop's
    thread used in between (seconds). The lag is what a client feels; the CPU part is the
    work done on the loop itself, which other processes on a busy machine do not inflate
    (a wait for the GIL or for a core adds to the lag only)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.cpu: list[float] = []
        self.last_wake = time.perf_counter()
        self.thread_id = 0  # the event loop's thread, once running

    async def run(self) -> None:
        clock = time.perf_counter  # the loop's own clock counts whole milliseconds (uvloop)
        cpu = time.thread_time
        self.thread_id = threading.get_ident()
        while True:
            t, c = clock(), cpu()
            await asyncio.sleep(0.005)
            self.last_wake = now = clock()
            self.lags.append(now - t - 0.005)
            self.cpu.append(cpu() - c)

    def reset(self) -> None:
        self.lags, self.cpu = [], []

    def figures(self, seconds: float) -> tuple[float, float, float, float]:
        """(max lag, p99 lag, max CPU between two wake-ups) in milliseconds, and the share
        of the `seconds` the loop's thread spent on the CPU (%)."""
        lags = sorted(self.lags) or [0.0]
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        busy = 100 * sum(self.cpu) / seconds if seconds > 0 else 0.0
        return lags[-1] * 1000, p99 * 1000, max(self.cpu, default=0.0) * 1000, busy


class GcPauses:
    """Every cyclic collection in this process (any thread: a collection holds the GIL, so
    one run by a worker thread stalls the loop too): its generation, its wall time and the
    CPU time of the thread that ran it (the wall time grows when the machine is busy)."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float, float]] = []  # (generation, wall s, CPU s)
        self._started = (0.0, 0.0)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
        else:
            wall, cpu = self._started
            self.pauses.append(
                (int(info["generation"]), time.perf_counter() - wall, time.thread_time() - cpu)
            )

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._callback)

    def reset(self) -> None:
        self.pauses = []

    def figures(self) -> tuple[float, float, int, int]:
        """(longest pause in ms, its CPU ms, its generation, how many full (gen-2)
        collections)."""
        if not self.pauses:
            return 0.0, 0.0, -1, 0
        gen, wall, cpu = max(self.pauses, key=lambda p: p[1])
        return wall * 1000, cpu * 1000, gen, sum(1 for p in self.pauses if p[0] == 2)


class StallStacks:
    """A watchdog thread: whenever the probe has not woken for `late_ms`, it records the
    event loop's thread's stack (innermost `depth` frames) every few milliseconds until the
    loop wakes. Work that holds the GIL in one C call (or a collection) is seen only once it
    lets go, at its caller's line; Python work is seen while it runs."""

    def __init__(self, probe: Probe, late_ms: float, depth: int = 8) -> None:
        self._probe = probe
        self._late = late_ms / 1000
        self._depth = depth
        self.samples: Counter[tuple[str, ...]] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stop.wait(0.003):
            if time.perf_counter() - self._probe.last_wake < self._late + 0.005:
                continue
            frame = sys._current_frames().get(self._probe.thread_id)
            stack: list[str] = []
            while frame is not None and len(stack) < self._depth:
                code = frame.f_code
                stack.append(f"{_short(code.co_filename)}:{frame.f_lineno} {code.co_name}")
                frame = frame.f_back
            self.samples[tuple(stack)] += 1

    def __enter__(self) -> StallStacks:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def reset(self) -> None:
        self.samples = Counter()

    def report(self, top: int = 3) -> str:
        out = []
        for stack, n in self.samples.most_common(top):
            out.append(f"    {n} sample(s) of a late loop:")
            out += [f"      {line}" for line in stack]
        return "\n".join(out)


def _short(path: str) -> str:
    for mark in ("/site-packages/", "/gateway/", "/lib/python3"):
        cut = path.rfind(mark)
        if cut >= 0:
            return path[cut + 1 :]
    return path
