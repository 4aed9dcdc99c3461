"""Bounded work for large requests: redaction time as the number of distinct values grows
(linear: the map adds each placeholder's own prefixes, never rebuilds), and the event loop's
lag while a 10 MB identifier-dense message is classified (off the loop, in a worker, with a hard
deadline that makes it `special` at once).

    .venv/bin/python bench/redaction.py [--values 1000 2000 4000] [--big-mb 10]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from gateway.core.types import ChatRequest
from gateway.sensitivity import Classifier
from gateway.sensitivity.redaction import RedactionMap, Redactor


def _request(text: str) -> ChatRequest:
    return ChatRequest.model_validate(
        {"model": "m", "messages": [{"role": "user", "content": text}]})


def redaction_figures(counts: list[int]) -> None:
    print(f"{'values':>7} {'KiB':>6} {'classify ms':>12} {'redact ms':>10} "
          f"{'map only ms':>12} {'placeholders':>13}")
    clf = Classifier()
    for n in counts:
        text = " ".join(f"kisi{i}@ornek.com.tr" for i in range(n))
        req = _request(text)
        t0 = time.perf_counter()
        result = clf.classify_request(req)
        t1 = time.perf_counter()
        _, mapping = Redactor(clf).redact_request(req, result)
        t2 = time.perf_counter()
        m = RedactionMap()
        for i in range(n):
            m.placeholder_for("EPOSTA", f"kisi{i}@ornek.com.tr")
        t3 = time.perf_counter()
        print(f"{n:7d} {len(text) / 1024:6.0f} {(t1 - t0) * 1e3:12.1f} {(t2 - t1) * 1e3:10.1f} "
              f"{(t3 - t2) * 1e3:12.1f} {len(mapping):13d}")


async def loop_lag(mb: int) -> None:
    unit = "TC 10000000146 kart 4111 1111 1111 1111 IBAN TR330006100519786457841326 "
    text = (unit * (mb * 1_000_000 // len(unit) + 1))[: mb * 1_000_000]
    req = _request(text)
    clf = Classifier()
    ticks = 0
    worst = 0.0
    done = False

    async def probe() -> None:
        nonlocal ticks, worst
        while not done:
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            worst = max(worst, time.perf_counter() - t0 - 0.005)
            ticks += 1

    task = asyncio.create_task(probe())
    await asyncio.sleep(0)
    t0 = time.perf_counter()
    result = await clf.classify_request_bounded(req)
    took = time.perf_counter() - t0
    done = True
    await task
    print(f"{mb} MB identifier-dense message: {result.data_class} after {took * 1e3:.0f} ms "
          f"(deadline {clf.config.time_budget_ms:.0f} ms; {result.reason}); probe ran {ticks} "
          f"times, worst event-loop lag {worst * 1e3:.1f} ms (target <= 50 ms)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--values", type=int, nargs="+", default=[1000, 2000, 4000])
    ap.add_argument("--big-mb", type=int, default=10)
    a = ap.parse_args()
    redaction_figures(a.values)
    asyncio.run(loop_lag(a.big_mb))
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
