# ruff: noqa: E501  (data tables: long literal sentences read better unwrapped)
"""Classification quality and time.

    python bench/classify.py [SET.jsonl ...]     # quality of each labelled set, then speed
    python bench/classify.py --speed-only
    python bench/classify.py --quality-only [SET.jsonl ...]
    python bench/classify.py --quality-only --no-judge [SET.jsonl ...]   # the context model
                                        # alone, without the language-model judge
    python bench/classify.py --quality-only --targets eval/holdout/*.jsonl   # exit 1 unless
                # the sets taken together meet leak <= 2%, special leak <= 3%, over-block <= 8%

Quality (bench/classify_quality.py): leak, special leak, over-block, special recall per
category and the rates per slice, the share of records the second stage judged and its p50/p95
latency, the share the language-model judge answered for and its p50/p95 per sentence;
aggregate figures only, never a record's text or id. Without a set, the dev set
tests/data/sensitivity_eval.jsonl is measured.

Speed: the load generator's chat prompt and 2 KB, 32 KB and 512 KB prompts in which no special
category fires (most traffic; median of repeated runs, one core). Targets: 2 KB <= 0.3 ms,
512 KB <= 40 ms, linear growth; the chat prompt well under 30 us.

The Classifier remembers what it found per exact text, so each size is measured cold (a distinct
text every run: a cache miss, as for a new user message) and warm (the same text again: a system
prompt or history re-sent every turn).

Wall-clock medians swing with other work on the machine, so the load average is printed next to
them, and so is the median CPU time of the classifying thread (what the code itself costs).
The runs of each size are split into rounds taken in turn with the other sizes; `cold ms` is
the median of the rounds' medians and `best rnd` the least disturbed round's (a virtual
machine's clock can run a third slower for minutes, and only ever adds time).
Pin to one core for stable figures:

    taskset -c 1 .venv/bin/python bench/classify.py
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

# measure the checkout this script lies in: `python bench/classify.py` puts bench/ first on the
# path, so without this a second work tree would import the package the virtualenv's editable
# install points at, and print another checkout's figures
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gateway.core.types import ChatRequest
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig

PARAS = [
    "Üçüncü çeyrek satış sonuçları beklentinin üzerinde geldi; bölge müdürlükleri hedeflerini tuttu.",
    "Yeni depo yönetim sistemine geçiş planı üç aşamada yürütülecek, stok kodları yeniden düzenlenecek.",
    "The quarterly review showed steady growth in the enterprise segment, while SMB slowed slightly.",
    "Latency on the search endpoint improved after we moved ranking behind a cache with a short TTL.",
    "Fatura 2024-118 için ödeme 12.03.2024 tarihinde alındı; toplam 14.250,00 TL, sipariş 88412.",
    "Müşteri memnuniyeti anketinde teslimat süresi en düşük puanı aldı; yeni plan hazırlanıyor.",
]


ROUNDS = 5


def make_text(size: int, seed: int) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    while total < size:
        p = rng.choice(PARAS)
        parts.append(p)
        total += len(p) + 1
    mid = len(parts) // 2
    parts.insert(mid, "Sayın Ayşe Yılmaz, TC kimlik no 10000000146, tel 0532 123 45 67.")
    return " ".join(parts)[:size]


def distinct(text: str, n: int) -> list[str]:
    """n texts of the same length, each different (a letter tag replaces the last characters),
    so every run misses the cache."""
    out = []
    for i in range(n):
        tag = " " + "".join(chr(97 + (i // 26**k) % 26) for k in range(4))
        out.append(text[: len(text) - len(tag)] + tag)
    return out


def measure(clf: Classifier, texts: list[str]) -> tuple[float, float]:
    """Median wall-clock and median thread CPU time of one classification per text, in ms."""
    wall, cpu = [], []
    for text in texts:
        t0, c0 = time.perf_counter(), time.thread_time()
        clf.classify([text])
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - t0)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def _prompt() -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from loadgen import PROMPT

    return str(PROMPT)


def chat_prompt(clf: Classifier, repeat: int) -> None:
    """classify_request on the load generator's body (system + user message), in us."""
    prompt = _prompt()

    def req(prompt: str) -> ChatRequest:
        return ChatRequest.model_validate(
            {
                "model": "m",
                "messages": [
                    {"role": "system", "content": "You are helpful."},
                    {"role": "user", "content": prompt},
                ],
            }
        )

    for label, reqs in (
        ("cold", [req(p) for p in distinct(prompt, repeat)]),  # a new user message every run
        ("warm", [req(prompt)] * repeat),
    ):
        times = []
        for r in reqs:
            t0 = time.perf_counter()
            clf.classify_request(r)
            times.append(time.perf_counter() - t0)
        print(
            f"chat prompt ({len(prompt)} chars + system), classify_request {label}: "
            f"{statistics.median(times) * 1e6:.1f} us"
        )


# topic-bearing prompts of the kinds that reach the second stage: general talk and statements
# about someone, several of them ones the context model is unsure about (the judge's band)
TOPIC_PROMPTS = (
    "Komşunun oğlu da şeker hastası, onun için tatlı tarifi lazım.",
    "Ekipte diyabetli biri var, toplantıda ikram ne olsun?",
    "Sendikaya üye olanların listesi İK'da duruyor.",
    "Depresyon belirtileri nelerdir, ne zaman doktora gidilmeli?",
    "Our new hire mentioned she is on insulin, should we change the shift plan?",
    "Write a short article about how HIV is transmitted.",
)


def topic_requests(repeat: int) -> None:
    """The request path (classify_request_bounded) for prompts where a topic fires, with the
    default settings (the judge on, loaded as at start-up): p50/p95 and the share the judge
    decided. Each prompt is made distinct every run (a cache miss, as a new message is)."""
    import asyncio

    clf = Classifier()
    loaded = clf.warm_judge()
    reqs = [
        ChatRequest.model_validate({"model": "m", "messages": [{"role": "user", "content": t}]})
        for base in TOPIC_PROMPTS
        for t in distinct(base + " ....", repeat)
    ]

    async def run() -> tuple[list[float], int]:
        times, judged = [], 0
        for r in reqs:
            t0 = time.perf_counter()
            res = await clf.classify_request_bounded(r)
            times.append(time.perf_counter() - t0)
            judged += res.stage == "judge"
        return times, judged

    times, judged = asyncio.run(run())
    times.sort()
    print(
        f"topic-bearing request, classify_request_bounded (judge {'loaded' if loaded else 'off'})"
        f": p50 {times[len(times) // 2] * 1000:.1f} ms, p95 {times[int(len(times) * 0.95)] * 1000:.1f}"
        f" ms, decided by the judge {judged}/{len(times)}"
    )


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def quality(paths: list[Path], judge: bool, targets: bool) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from classify_quality import combined, measure, missed_targets

    # the default settings (the judge on, with its own time on top of the detectors'), or
    # the context model alone
    off = SensitivityConfig(time_budget_ms=60_000, judge={"enabled": False})  # type: ignore[arg-type]
    config = None if judge else off
    found = []
    for path in paths:
        q = measure(path, config)
        found.append(q.overall)
        print(q.render(str(path) + ("" if judge else " (judge off)")))
    if not targets:
        return
    together = combined(found)
    print(f"== all {len(paths)} set(s) together\noverall   {together.line()}")
    for path, rates in zip(paths, found, strict=True):
        print(f"  {path.name}: " + ("; ".join(missed_targets(rates)) or "meets the targets"))
    missed = missed_targets(together)
    if missed:
        raise SystemExit("targets missed: " + "; ".join(missed))
    print("targets met: leak <= 2%, special leak <= 3%, over-block <= 8%")


def main() -> None:
    args = sys.argv[1:]
    sets = [Path(a) for a in args if not a.startswith("--")]
    if "--speed-only" not in args:
        dev = Path(__file__).resolve().parents[1] / "tests" / "data" / "sensitivity_eval.jsonl"
        quality(sets or [dev], "--no-judge" not in args, "--targets" in args)
    if "--quality-only" in args:
        return
    clf = Classifier(SensitivityConfig(time_budget_ms=60_000))
    for size in (2 * 1024, 512 * 1024):
        if clf.classify([make_text(size, size)]).categories:
            raise SystemExit("the speed texts must not fire a special category")
    print(load())
    topic_requests(5)
    chat_prompt(clf, 5000)
    sizes = ((2 * 1024, 1000), (32 * 1024, 100), (512 * 1024, 25))
    texts = {size: make_text(size, size) for size, _ in sizes}
    for text in texts.values():
        clf.classify([text])  # warm up
    # ROUNDS rounds, each measuring every size in turn: a slow spell of the machine (its
    # clock, a neighbour) then slows one round of every size instead of all of one size
    cold: dict[int, list[float]] = {size: [] for size, _ in sizes}
    cpu: dict[int, list[float]] = {size: [] for size, _ in sizes}
    for r in range(ROUNDS):
        for size, repeat in sizes:
            n = max(1, repeat // ROUNDS)
            ms, cpu_ms = measure(clf, distinct(texts[size] + "x" * r, n))
            cold[size].append(ms)
            cpu[size].append(cpu_ms)
    print(f"{'size':>8} {'cold ms':>10} {'best rnd':>9} {'us/KB':>8} {'cpu ms':>8} {'warm ms':>10}")
    for size, repeat in sizes:
        warm, _ = measure(clf, [texts[size]] * repeat)
        ms = statistics.median(cold[size])
        print(
            f"{size // 1024:>6}KB {ms:>10.3f} {min(cold[size]):>9.3f}"
            f" {ms * 1000 / (size / 1024):>8.1f} {statistics.median(cpu[size]):>8.3f}"
            f" {warm:>10.3f}"
        )
    print(load())


if __name__ == "__main__":
    main()
