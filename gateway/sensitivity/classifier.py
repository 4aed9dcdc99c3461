"""The sensitivity classifier: all text of a request in, a Sensitivity out. Never raises: an
error or an overrun of the time budget yields `special` with the reason recorded.

What the detectors find in one text depends only on that text and the configuration, so a
Classifier remembers it per exact text (a bounded LRU keyed by the text's digest, holding no
text): the system prompt and the conversation history that a chat client re-sends every turn
are examined once."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from gateway.core.offload import ChildPool, OffloadFailed
from gateway.core.textplaces import scan
from gateway.core.types import ChatRequest, DataClass
from gateway.sensitivity.candidate import Candidate
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.detect import Detectors
from gateway.sensitivity.judge import Allowance, Judge
from gateway.sensitivity.result import EntityCount, Finding, Sensitivity
from gateway.sensitivity.special import Band, CategoryHit

# what the detectors found in one text, and its token estimate
_Found = tuple[tuple[Candidate, ...], tuple[CategoryHit, ...], int]


class _BudgetExceeded(Exception):
    pass


# a text longer than this is read in windows of this many characters, each with _OVERLAP more
# on both sides (more than any identifier and the context a detector looks at around a hit,
# special._WINDOW), so the deadline is checked every window, not once after a 10 MB text: a
# window dense with identifiers takes the detectors ~100 ms
_WINDOW = 16 << 10
_OVERLAP = 1 << 10


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class TextCache:
    """Detector results per exact text, least recently used dropped first. Bounded by entries
    and by the characters of the texts it has seen (a text longer than `max_text_chars` is never
    kept), so memory stays small whatever the prompts. Thread-safe.

    Keyed by a 128-bit BLAKE2b digest of the text, never the text itself: the results hold only
    kinds, offsets and confidences, so the cache keeps no prompt and no personal data in memory
    after the request that brought it (KVKK data minimisation; ~1-2 µs per 2 KB text)."""

    def __init__(
        self, max_entries: int = 4096, max_chars: int = 4 << 20, max_text_chars: int = 64 << 10
    ) -> None:
        self.max_entries = max_entries
        self.max_chars = max_chars
        self.max_text_chars = min(max_text_chars, max_chars)
        self._items: OrderedDict[bytes, tuple[int, _Found]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def key_of(self, text: str) -> bytes | None:
        """The cache key of `text`, or None when such a text is never kept."""
        if self.max_entries <= 0 or len(text) > self.max_text_chars:
            return None
        return _digest(text)

    def get(self, text: str) -> _Found | None:
        key = self.key_of(text)
        return None if key is None else self.get_key(key)

    def put(self, text: str, found: _Found) -> None:
        key = self.key_of(text)
        if key is not None:
            self.put_key(key, len(text), found)

    def get_key(self, key: bytes) -> _Found | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[1]

    def put_key(self, key: bytes, chars: int, found: _Found) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = (chars, found)
            self._chars += chars
            while len(self._items) > self.max_entries or self._chars > self.max_chars:
                _, (old_chars, _) = self._items.popitem(last=False)
                self._chars -= old_chars


class Classifier:
    def __init__(
        self,
        config: SensitivityConfig | None = None,
        cache_entries: int = 4096,
        offload: ChildPool | None = None,
    ) -> None:
        """`cache_entries` = 0 turns the per-text cache off. `offload`: the child processes
        that classify long requests (without it they are classified in a worker thread)."""
        self.config = config or SensitivityConfig()
        self._detectors = Detectors(self.config)
        self._cache = TextCache(max_entries=cache_entries)
        self._offload = offload
        self._config_json = self.config.model_dump_json()

    @property
    def offload(self) -> ChildPool | None:
        """The child processes long requests are classified (and redacted) in, if any."""
        return self._offload

    @property
    def config_json(self) -> str:
        """The configuration as a child process rebuilds this classifier from it."""
        return self._config_json

    def warm_offload(self) -> None:
        """Start the child processes with this configuration's classifier built."""
        from gateway.sensitivity import child  # it imports this module

        if self._offload is not None:
            self._offload.warm(child.warm, self._config_json)

    def classify_request(self, request: ChatRequest) -> Sensitivity:
        """Every text-bearing place of the request (gateway.core.textplaces), on this thread."""
        texts = self._texts_of(request)
        return texts if isinstance(texts, Sensitivity) else self.classify(texts)

    async def classify_request_bounded(self, request: ChatRequest) -> Sensitivity:
        """`classify_request` for the event loop: a request with more text than
        `offload_chars` is classified in a child process (a worker thread without one), and
        when `wall_budget_s` runs out the answer is `special` at once (fail closed); the
        worker stops at its next deadline check (every text, every window of a long one).

        A short request is classified on the event loop without the language-model judge;
        only when a sentence wants it (a topic fired and the context model is unsure) is the
        request classified again in a worker thread with it, so the loop never waits for a
        model call."""
        texts = self._texts_of(request)
        if isinstance(texts, Sensitivity):
            return texts
        if sum(map(len, texts)) <= self.config.offload_chars:
            started = time.perf_counter()
            if self.judge is None:
                return self.classify(texts, started)
            found, wanted = self._checked(texts, started, judge_sentences=0)
            if not wanted:
                return found
            return await self._in_thread(texts, started)
        if self._offload is not None:
            return await self._in_child(self._offload, texts)
        return await self._in_thread(texts, time.perf_counter())

    @property
    def wall_budget_s(self) -> float:
        """The longest one classification takes: the detectors' time budget and, with a
        judge, the judge's own on top."""
        judge_ms = self.config.judge.time_budget_ms if self.judge is not None else 0.0
        return (self.config.time_budget_ms + judge_ms) / 1000

    async def _in_thread(self, texts: list[str], started: float) -> Sensitivity:
        budget_s = self.wall_budget_s - (time.perf_counter() - started)
        work = asyncio.ensure_future(asyncio.to_thread(self.classify, texts, started))
        try:
            return await asyncio.wait_for(asyncio.shield(work), max(0.0, budget_s))
        except TimeoutError:
            work.add_done_callback(_drop_result)
            elapsed = (time.perf_counter() - started) * 1000
            limit = self.wall_budget_s * 1000
            return fail_closed(f"time budget exceeded ({elapsed:.1f} ms > {limit:.0f} ms)", elapsed)

    async def _in_child(self, pool: ChildPool, texts: list[str]) -> Sensitivity:
        from gateway.sensitivity import child  # it imports this module

        budget_s = self.wall_budget_s
        started = time.perf_counter()
        deadline = time.monotonic() + budget_s
        try:
            return await pool.run(budget_s, child.classify, self._config_json, texts, deadline)
        except TimeoutError:
            reason = f"time budget exceeded ({budget_s * 1000:.1f} ms, in a child process)"
        except OffloadFailed as exc:
            reason = f"classifier error: {exc}"
        return fail_closed(reason, (time.perf_counter() - started) * 1000)

    def _texts_of(self, request: ChatRequest) -> list[str] | Sensitivity:
        """The texts to classify, or the answer already: `special` when the request holds a
        part the classifier cannot read and the policy says such parts make it special."""
        try:
            found = scan(request)
        except Exception as exc:  # pragma: no cover - defensive: fail closed
            return fail_closed(f"classifier error: {type(exc).__name__}", 0.0)
        if found.unreadable and self.config.unreadable_parts == "special":
            shown = ", ".join(found.unreadable[:3])
            more = f" and {len(found.unreadable) - 3} more" if len(found.unreadable) > 3 else ""
            return fail_closed(f"content the classifier cannot read: {shown}{more}", 0.0)
        return list(found.texts)

    @property
    def judge(self) -> Judge | None:
        """The language-model judge this classifier may ask, if the configuration has one."""
        return self._detectors.context.judge_model

    def warm_judge(self) -> bool:
        """Load the judge's model now, not in the first request that needs it (~1 s); False
        when there is no judge or it cannot be loaded (the context model then decides)."""
        judge = self.judge
        return judge is not None and judge.load()

    def classify(self, texts: Sequence[str], started: float | None = None) -> Sensitivity:
        """`started`: when the deadline began (perf_counter), if before this call."""
        started = time.perf_counter() if started is None else started
        return self._checked(texts, started, self.config.judge.max_sentences)[0]

    def _checked(
        self, texts: Sequence[str], started: float, judge_sentences: int
    ) -> tuple[Sensitivity, int]:
        """The classification, failing closed; and how many sentences wanted the judge but
        did not get it (`judge_sentences`: how many it may read)."""
        judge = self.config.judge
        allowance = Allowance(judge_sentences, judge.time_budget_ms / 1000, judge.reserve_ms / 1000)
        try:
            return self._classify(texts, started, allowance), allowance.wanted
        except _BudgetExceeded:
            elapsed = (time.perf_counter() - started) * 1000
            own = elapsed - allowance.spent_s * 1000
            return fail_closed(
                f"time budget exceeded ({own:.1f} ms > {self.config.time_budget_ms} ms)", elapsed
            ), 0
        except Exception as exc:
            # only the exception type: a message could quote the text
            elapsed = (time.perf_counter() - started) * 1000
            return fail_closed(f"classifier error: {type(exc).__name__}", elapsed), 0

    def _classify(self, texts: Sequence[str], started: float, allowance: Allowance) -> Sensitivity:
        th = self.config.thresholds
        personal, special = th.personal, th.special
        deadline = started + self.config.time_budget_ms / 1000
        detectors = self._detectors

        def run(text: str, threshold: float) -> tuple[list[Candidate], list[CategoryHit], int]:
            return detectors.run(text, threshold, allowance)

        cache = self._cache

        def clock() -> float:
            """The detectors' own time: what the judge spent has its own budget."""
            return time.perf_counter() - allowance.spent_s

        findings: list[Finding] = []
        best_below = 0.0
        tokens = 0
        # the second stage's verdicts: the most confident one per side of the threshold
        above: CategoryHit | None = None
        below: CategoryHit | None = None
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError("texts must be strings")
            key = cache.key_of(text)
            found = None if key is None else cache.get_key(key)
            if found is None and len(text) > _WINDOW:
                found = _in_windows(run, text, personal, clock, deadline)
            elif found is None:
                wanted = allowance.wanted
                new_ents, new_cats, new_tokens = run(text, personal)
                found = (tuple(new_ents), tuple(new_cats), new_tokens)
                # an overrun is not remembered, nor a text whose sentences wanted the judge
                # and did not get it (the next time it may)
                if key is not None and clock() <= deadline and allowance.wanted == wanted:
                    cache.put_key(key, len(text), found)
            ents, cats, text_tokens = found
            tokens += text_tokens
            for e in ents:
                if e.confidence >= personal:
                    findings.append(
                        Finding(e.kind, i, e.start, e.end, e.confidence, None, e.detector)
                    )
                elif e.confidence > best_below:
                    best_below = e.confidence
            for c in cats:
                if c.confidence >= special:
                    findings.append(
                        Finding(c.category, i, c.start, c.end, c.confidence, c.category, c.stage)
                    )
                    if above is None or c.confidence > above.confidence:
                        above = c
                else:
                    if below is None or c.confidence > below.confidence:
                        below = c
                    if c.confidence > best_below:
                        best_below = c.confidence
            if clock() > deadline:
                raise _BudgetExceeded
        band, stage = _verdict(findings, above, below)
        elapsed = (time.perf_counter() - started) * 1000
        return _result(findings, best_below, elapsed, tokens, band, stage)


def _verdict(
    findings: list[Finding], above: CategoryHit | None, below: CategoryHit | None
) -> tuple[Band, str]:
    """The band and the deciding stage: a special result is uncertain when its most confident
    judgement is; a lower result is uncertain when a topic fired and its most confident
    judgement fell in the uncertain band."""
    if above is not None:
        return above.band, above.stage
    if below is not None:
        return below.band, below.stage
    return "confident", ("detectors" if findings else "lexicon")


def _result(
    findings: list[Finding],
    best_below: float,
    elapsed_ms: float,
    tokens: int,
    band: Band = "confident",
    stage: str = "lexicon",
) -> Sensitivity:
    if not findings:
        return Sensitivity(
            data_class="public",
            confidence=1.0 - best_below,
            reason=None,
            elapsed_ms=elapsed_ms,
            tokens=tokens,
            band=band,
            stage=stage,
        )
    ent_counts: dict[str, int] = {}
    cats: set[str] = set()
    confidence = findings[0].confidence
    for f in findings:
        if f.category is None:
            ent_counts[f.kind] = ent_counts.get(f.kind, 0) + 1
        else:
            cats.add(f.category)
        if f.confidence > confidence:
            confidence = f.confidence
    cat_set = sorted(cats)
    data_class: DataClass = "special" if cat_set else ("personal" if ent_counts else "public")
    return Sensitivity(
        data_class=data_class,
        entities=tuple(EntityCount(t, n) for t, n in sorted(ent_counts.items())),
        categories=tuple(cat_set),
        findings=tuple(findings),
        confidence=confidence,
        reason=None,
        elapsed_ms=elapsed_ms,
        tokens=tokens,
        band=band,
        stage=stage,
    )


def _in_windows(
    run: Callable[[str, float], tuple[list[Candidate], list[CategoryHit], int]],
    text: str,
    personal: float,
    clock: Callable[[], float],
    deadline: float,
) -> _Found:
    """A long text read window by window. Window k reads [kW - overlap, (k+1)W + overlap) and
    keeps what starts in [kW, (k+1)W): each hit is found once, with its context around it."""
    ents: list[Candidate] = []
    cats: list[CategoryHit] = []
    tokens = 0
    for lo in range(0, len(text), _WINDOW):
        base = max(0, lo - _OVERLAP)
        w_ents, w_cats, w_tokens = run(text[base : lo + _WINDOW + _OVERLAP], personal)
        tokens += w_tokens  # the overlaps count twice: an estimate, a little high
        first, last = lo - base, lo - base + _WINDOW
        ents.extend(
            dataclasses.replace(e, start=e.start + base, end=e.end + base)
            for e in w_ents
            if first <= e.start < last
        )
        cats.extend(
            dataclasses.replace(c, start=c.start + base, end=c.end + base)
            for c in w_cats
            if first <= c.start < last
        )
        if clock() > deadline:
            raise _BudgetExceeded
    return tuple(ents), tuple(cats), tokens


def _drop_result(work: asyncio.Future[Sensitivity]) -> None:
    """A worker that finished after its deadline: its result is no longer wanted."""
    if not work.cancelled():
        work.exception()


def fail_closed(reason: str, elapsed_ms: float) -> Sensitivity:
    return Sensitivity(
        data_class="special",
        confidence=0.0,
        reason=reason,
        elapsed_ms=elapsed_ms,
        stage="fail_closed",
    )
