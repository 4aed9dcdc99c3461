"""Classification + policy decision time for a 2 KB prompt, reported separately from the HTTP
figures (target: both together <= 0.1 ms). Uses the tree's Classifier, the policy engine
and the PolicyRouter exactly as the request path does, with the default policy derived for an
upstream (`serve --upstream`), one alias.

The Classifier remembers what it found per exact text: `classify cold` runs with that cache
off (every run a new user message), `classify warm` with it on and the same prompt again (a
re-sent history); router.route repeats one request, so it is warm.

    .venv/bin/python bench/classify_policy.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import inspect
import os
import random
import statistics
import time
from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any

from gateway.core.clock import SystemClock
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.engine import decide
from gateway.policy.explain import request_info
from gateway.policy.loader import load_file
from gateway.sensitivity import Classifier
from gateway.service.router import PolicyRouter
from gateway.service.stats import LiveStats
from gateway.settings import DEFAULT_POLICY
from gateway.upstream import derive_policy

PARAS = [
    "Üçüncü çeyrek satış sonuçları beklentinin üzerinde geldi; bölge müdürlükleri hedeflerini "
    "tuttu.",
    "Yeni depo yönetim sistemine geçiş planı üç aşamada yürütülecek, stok kodları yeniden "
    "düzenlenecek.",
    "The quarterly review showed steady growth in the enterprise segment, while SMB slowed.",
    "Latency on the search endpoint improved after we moved ranking behind a short-TTL cache.",
    "Fatura 2024-118 için ödeme 12.03.2024 tarihinde alındı; toplam 14.250,00 TL, sipariş 88412.",
    "Müşteri memnuniyeti anketinde teslimat süresi en düşük puanı aldı; yeni plan hazırlanıyor.",
]
PERSONAL = "Sayın Ayşe Yılmaz, TC kimlik no 10000000146, tel 0532 123 45 67."
SPECIAL = "Ben diyabet hastasıyım, insülin dozumu nasıl ayarlamalıyım?"


def make_text(size: int, seed: int, extra: str | None) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < size:
        parts.append(rng.choice(PARAS))
    if extra:
        parts.insert(len(parts) // 2, extra)
    return " ".join(parts)[:size]


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median, p99) in microseconds, after a warm-up."""
    for _ in range(50):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return statistics.median(times) * 1e6, times[int(0.99 * (len(times) - 1))] * 1e6


def timed_each(fn: Callable[[Any], object], args: list[Any]) -> tuple[float, float]:
    """(median, p99) in microseconds of fn(arg) over `args` (each used once), after a
    warm-up on the first 50."""
    for arg in args[:50]:
        fn(arg)
    times = []
    for arg in args[50:]:
        t0 = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t0)
    times.sort()
    return statistics.median(times) * 1e6, times[int(0.99 * (len(times) - 1))] * 1e6


def drive(coro: Any) -> Any:
    """Run a coroutine that never waits (PolicyRouter.route for a request below the offload
    size) to its end without an event loop, so its own cost is what gets timed."""
    if not inspect.iscoroutine(coro):
        return coro
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("the coroutine waited")


def code(n: int) -> str:
    """n as letters (a distinct text per request without adding digits)."""
    out = ""
    while True:
        n, r = divmod(n, 26)
        out += chr(97 + r)
        if n == 0:
            return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=2000)
    ap.add_argument("--size", type=int, default=2048, help="prompt size in characters")
    a = ap.parse_args()
    compiled = derive_policy(load_file(DEFAULT_POLICY), "http://127.0.0.1:1", ["mock-model"])
    classifier = Classifier(compiled.policy.sensitivity)
    cold = Classifier(compiled.policy.sensitivity, cache_entries=0)
    clock = SystemClock()
    router = PolicyRouter(lambda: compiled, LiveStats(), clock, {})

    def route(ctx: RequestContext, req: ChatRequest) -> Any:
        return drive(router.route(ctx, req))

    ctx = RequestContext(request_id="bench", tenant="bench", app="default", headers={})
    print(
        f"prompt {a.size} chars, {a.repeat} runs each; microseconds (median / p99); "
        "target: classification + policy <= 100 us"
    )
    print(
        f"{'prompt':9} {'class':9} {'classify cold':>15} {'classify warm':>15} {'engine':>13} "
        f"{'route, repeated':>15} {'route, new text':>15}"
    )
    for label, extra in (("public", None), ("personal", PERSONAL), ("special", SPECIAL)):
        text = make_text(a.size, 7, extra)
        req = ChatRequest.model_validate(
            {
                "model": "mock-model",
                "messages": [
                    {"role": "system", "content": "You are a helpful assistant."},
                    {"role": "user", "content": text},
                ],
            }
        )
        sens = classifier.classify_request(req)
        info = request_info(ctx, req, sens, sens.data_class, date.today(), 0.0)
        c50, c99 = timed(partial(cold.classify_request, req), a.repeat)
        w50, w99 = timed(partial(classifier.classify_request, req), a.repeat)
        e50, e99 = timed(partial(decide, compiled.policy, info), a.repeat)
        r50, r99 = timed(partial(route, ctx, req), a.repeat)
        # each request with a user text of its own (as bench/run.sh sends): nothing the
        # classifier remembers helps but the repeated system message
        fresh = [
            ChatRequest.model_validate(
                {
                    "model": "mock-model",
                    "messages": [
                        {"role": "system", "content": "You are a helpful assistant."},
                        {"role": "user", "content": text[:-8] + " " + code(i).rjust(7, "x")},
                    ],
                }
            )
            for i in range(a.repeat + 50)
        ]
        n50, n99 = timed_each(partial(route, ctx), fresh)
        print(
            f"{label:9} {sens.data_class:9} {c50:7.1f} /{c99:6.1f} {w50:7.1f} /{w99:6.1f} "
            f"{e50:6.1f} /{e99:5.1f} {r50:7.1f} /{r99:6.1f} {n50:7.1f} /{n99:6.1f}"
        )
    print(
        "route = PolicyRouter.route, what the request path runs for a decision: declared "
        "class, classify, prompt-token estimate, live-stats snapshot, engine; 'repeated': the "
        "same request again (the classifier's per-text cache answers), 'new text': a user "
        "text never seen before"
    )
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
