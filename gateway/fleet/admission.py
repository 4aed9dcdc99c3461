"""Admission to a pooled backend when its nodes are busy.

A request that may spill (another backend may follow this pool) is admitted only when the best
node's predicted time to first token is within its objective and nobody is waiting; otherwise
it is refused at once (RATE_LIMIT with Retry-After), so the dispatcher moves on to the next
allowed backend. A request with nowhere else to go (special-category data, a tenant locked
on-prem) waits here instead, in a bounded queue per data class, highest (tenant priority, rule
priority) first and in arrival order within one priority. Only the head of the queue is
admitted, when its prediction fits; a full queue, or a wait that would leave too little of the
first-token deadline to start, is refused with Retry-After, never left to time out.

Waiters look again when a request on the pool gets its first token or ends (`wake`), and every
`recheck_s` (engine figures change between scrapes).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gateway.core.errors import FailureKind, ProviderError
from gateway.fleet.picker import Pick

# refused this long before the first-token deadline, so the refusal (and its Retry-After)
# reaches the client before the dispatcher's own timer turns it into a timeout
DEADLINE_GUARD_S = 0.25
# waiting requests per data class when the policy sets none (FleetTuning.queue's default)
DEFAULT_QUEUE = {"public": 16, "personal": 32, "special": 64}


@dataclass(order=True)
class _Waiter:
    key: tuple[int, int, int]
    data_class: str = field(compare=False)
    event: asyncio.Event = field(compare=False, default_factory=asyncio.Event)
    gone: bool = field(compare=False, default=False)


class AdmissionQueue:
    def __init__(
        self,
        backend: str,
        bounds: Mapping[str, int],
        clock: Callable[[], float],
        recheck_s: float = 0.1,
    ) -> None:
        self._backend = backend
        self._bounds = dict(bounds)
        self._clock = clock
        self._recheck = recheck_s
        self._heap: list[_Waiter] = []
        self._count: dict[str, int] = {}
        self._seq = itertools.count()

    def waiting(self, data_class: str | None = None) -> int:
        if data_class is None:
            return sum(self._count.values())
        return self._count.get(data_class, 0)

    def wake(self) -> None:
        head = self._head()
        if head is not None:
            head.event.set()

    def try_now(self, pick: Pick, target_s: float) -> Pick:
        """A request that may spill: the pick if it fits and nobody waits, else refused."""
        predicted = pick.predicted_ttft_s or 0.0
        if self._head() is None and predicted <= target_s:
            return pick
        why = "requests are waiting" if self._head() is not None else "every node is busy"
        raise self._refusal(why, predicted, target_s)

    async def wait(
        self,
        data_class: str,
        priority: tuple[int, int],
        pick: Callable[[], Pick],
        target_s: float,
        deadline_s: float,
    ) -> Pick:
        """A request that may not spill: the pick once it is at the head and fits."""
        start = self._clock()
        got = pick()
        if self._head() is None and (got.predicted_ttft_s or 0.0) <= target_s:
            return got
        if self._count.get(data_class, 0) >= self._bounds.get(data_class, 0):
            raise self._refusal(f"the {data_class} queue is full", got.predicted_ttft_s, target_s)
        w = _Waiter((-priority[0], -priority[1], next(self._seq)), data_class)
        heapq.heappush(self._heap, w)
        self._count[data_class] = self._count.get(data_class, 0) + 1
        try:
            while True:
                left = deadline_s - (self._clock() - start) - DEADLINE_GUARD_S
                if self._head() is w:
                    got = pick()
                    predicted = got.predicted_ttft_s or 0.0
                    if got.node is None or predicted <= min(target_s, left):
                        return got
                    if predicted > left:
                        raise self._refusal("waited too long for a node", predicted, left)
                elif left <= 0:
                    raise self._refusal("waited too long for a node", None, 0.0)
                w.event.clear()
                try:
                    async with asyncio.timeout(min(self._recheck, max(left, 0.0))):
                        await w.event.wait()
                except TimeoutError:
                    pass
        finally:
            self._leave(w)

    def _head(self) -> _Waiter | None:
        while self._heap and self._heap[0].gone:
            heapq.heappop(self._heap)
        return self._heap[0] if self._heap else None

    def _leave(self, w: _Waiter) -> None:
        w.gone = True
        self._count[w.data_class] -= 1
        if len(self._heap) > 2 * self.waiting() + 16:  # drop the ones that left mid-queue
            self._heap = [x for x in self._heap if not x.gone]
            heapq.heapify(self._heap)
        self.wake()  # the next head may fit now

    def _refusal(self, why: str, predicted: float | None, target_s: float) -> ProviderError:
        wait = (predicted or 0.0) - max(target_s, 0.0)
        return ProviderError(
            FailureKind.RATE_LIMIT,
            f"'{self._backend}' cannot start the request in time ({why}"
            + (f"; predicted first token in {predicted:.1f} s" if predicted else "")
            + ")",
            retry_after=float(max(1, math.ceil(wait))),
            backend=self._backend,
        )
