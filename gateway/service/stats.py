"""Live per-backend statistics fed by every attempt, a circuit breaker, and health probes.

Time always comes in as an argument (monotonic seconds), so tests drive it without sleeping.
Samples older than `window_s` age out: a backend skipped for a slow spell is measured afresh
once the window has passed (unknown latency counts as meeting the SLO).
"""

from __future__ import annotations

import asyncio
import logging
from bisect import bisect_left, insort
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass

from gateway.core.errors import FailureKind
from gateway.policy.inputs import BackendLive, CircuitState

log = logging.getLogger("gateway.stats")

# failures that say something about the backend's health (not about the request)
_HEALTH_FAILURES = frozenset(
    {
        FailureKind.TRANSIENT,
        FailureKind.TIMEOUT,
        FailureKind.UNREACHABLE,
        FailureKind.PROVIDER,
        FailureKind.INTERRUPTED,
        FailureKind.CREDENTIAL,
    }
)


@dataclass(frozen=True, slots=True)
class StatsConfig:
    window: int = 200  # samples kept per series
    window_s: float = 300.0  # samples older than this are forgotten
    failure_threshold: int = 3  # consecutive failures that open the circuit
    cooldown_s: float = 30.0  # open -> half-open after this


class _Series:
    """A rolling window of samples (at most `size`, none older than the window) that keeps its
    values sorted as they come and go, so a percentile is one index instead of a sort."""

    __slots__ = ("_d", "_size", "_sorted", "total")

    def __init__(self, size: int) -> None:
        self._d: deque[tuple[float, float]] = deque()
        self._sorted: list[float] = []
        self._size = size
        self.total = 0.0

    def __len__(self) -> int:
        return len(self._d)

    def add(self, at: float, value: float) -> None:
        if value != value:  # NaN has no place in an order
            return
        if len(self._d) >= self._size:
            self._drop_oldest()
        self._d.append((at, value))
        insort(self._sorted, value)
        self.total += value

    def _drop_oldest(self) -> None:
        _, value = self._d.popleft()
        s = self._sorted
        del s[bisect_left(s, value)]
        self.total -= value
        if not s:
            self.total = 0.0  # no float drift left behind by an emptied window

    def expire(self, now: float, window_s: float) -> bool:
        """Forget samples older than the window; True when any went."""
        d = self._d
        if not d or now - d[0][0] <= window_s:
            return False
        while d and now - d[0][0] > window_s:
            self._drop_oldest()
        return True

    def values(self, now: float, window_s: float) -> list[float]:
        self.expire(now, window_s)
        return [v for _, v in self._d]

    def percentile(self, q: float) -> float | None:
        s = self._sorted
        if not s:
            return None
        return s[max(0, min(len(s) - 1, round(q * (len(s) - 1))))]


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


class BackendStats:
    """One backend's rolling figures and circuit. `snapshot` costs O(1) amortised: the series
    stay sorted as samples come and go, and the last snapshot is reused until a sample, the
    window or the circuit changes it."""

    def __init__(self, config: StatsConfig) -> None:
        self._cfg = config
        self._ttft = _Series(config.window)
        self._total = _Series(config.window)
        self._tps = _Series(config.window)
        self._outcomes = _Series(config.window)  # 1.0 = failure
        self._consecutive = 0
        self._opened_at: float | None = None
        self._half_open = False  # a passed health check ended the cool-down early
        self._probing = False
        self._probe_at = 0.0
        self._cached: BackendLive | None = None  # dropped by every sample

    def success(
        self, now: float, ttft_ms: float | None, total_ms: float | None, tokens_per_s: float | None
    ) -> None:
        if ttft_ms is not None:
            self._ttft.add(now, ttft_ms)
        if total_ms is not None:
            self._total.add(now, total_ms)
        if tokens_per_s is not None and tokens_per_s > 0:
            self._tps.add(now, tokens_per_s)
        self._outcomes.add(now, 0.0)
        self._cached = None
        self._consecutive = 0
        self._opened_at = None
        self._half_open = False
        self._probing = False

    def health_passed(self, now: float) -> None:
        """A health check passed: an open circuit turns half-open at once (the next request
        is the probe: its success closes the circuit, its failure opens it again), rather than
        keeping traffic away for the rest of the cool-down; a half-open circuit with no probe
        in flight closes."""
        state = self.circuit(now)
        if state == "open":
            self._half_open = True
            self._cached = None
        elif state == "half_open" and not self._probing:
            self.success(now, None, None, None)

    def failure(self, now: float, kind: FailureKind) -> None:
        self._outcomes.add(now, 1.0)
        self._cached = None
        if kind not in _HEALTH_FAILURES:
            self._probing = False  # the probe ended without a verdict on health: allow another
            return
        self._consecutive += 1
        if self._probing or self._consecutive >= self._cfg.failure_threshold:
            self._opened_at = now
            self._half_open = False
            self._probing = False

    def refused_request(self) -> None:
        """The backend answered that the request was at fault: no verdict on its health (a
        half-open probe may be tried again), no sample."""
        self._probing = False

    def circuit(self, now: float) -> CircuitState:
        if self._opened_at is None:
            return "closed"
        if self._half_open or now - self._opened_at >= self._cfg.cooldown_s:
            return "half_open"
        return "open"

    def begin_attempt(self, now: float) -> bool:
        """Whether an attempt may go ahead; in half-open only one probe at a time."""
        state = self.circuit(now)
        if state == "open":
            return False
        if state == "half_open":
            # one probe at a time; a probe that never reported back (cancelled, deadline passed
            # before it started) stops blocking once another cool-down has gone by
            if self._probing and now - self._probe_at < self._cfg.cooldown_s:
                return False
            self._probing = True
            self._probe_at = now
        return True

    def snapshot(self, now: float) -> BackendLive:
        w = self._cfg.window_s
        aged = self._outcomes.expire(now, w)
        aged = self._ttft.expire(now, w) or aged
        aged = self._total.expire(now, w) or aged
        aged = self._tps.expire(now, w) or aged
        state = self.circuit(now)
        if state == "half_open" and self._probing:
            state = "open"  # a probe is in flight: others wait for its verdict
        snap = self._cached
        if snap is not None and not aged and snap.circuit == state:
            return snap
        outcomes = self._outcomes
        n = len(outcomes)
        snap = self._cached = BackendLive(
            ttft_p95_ms=self._ttft.percentile(0.95),
            total_p95_ms=self._total.percentile(0.95),
            tokens_per_s=self._tps.percentile(0.5),
            error_rate=outcomes.total / n if n else 0.0,
            samples=n,
            circuit=state,
        )
        return snap

    def p50(self, now: float) -> tuple[float | None, float | None]:
        w = self._cfg.window_s
        self._ttft.expire(now, w)
        self._total.expire(now, w)
        return self._ttft.percentile(0.5), self._total.percentile(0.5)


class _View(Mapping[str, BackendLive]):
    """The live figures of the backends a decision asks about, computed on first access (the
    engine looks at an alias's candidates, not at every backend)."""

    __slots__ = ("_by_name", "_now", "_seen")

    def __init__(self, by_name: dict[str, BackendStats], now: float) -> None:
        self._by_name = by_name
        self._now = now
        self._seen: dict[str, BackendLive] = {}

    def get(  # type: ignore[override]
        self, name: str, default: BackendLive | None = None
    ) -> BackendLive | None:
        snap = self._seen.get(name)
        if snap is None:
            s = self._by_name.get(name)
            if s is None:
                return default
            snap = self._seen[name] = s.snapshot(self._now)
        return snap

    def __getitem__(self, name: str) -> BackendLive:
        snap = self.get(name)
        if snap is None:
            raise KeyError(name)
        return snap

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._by_name))

    def __len__(self) -> int:
        return len(self._by_name)


class LiveStats:
    """All backends' stats. Created once per process and passed to router and dispatcher."""

    def __init__(self, config: StatsConfig | None = None) -> None:
        self._cfg = config or StatsConfig()
        self._by_name: dict[str, BackendStats] = {}

    def of(self, name: str) -> BackendStats:
        s = self._by_name.get(name)
        if s is None:
            s = self._by_name[name] = BackendStats(self._cfg)
        return s

    def snapshot(self, now: float) -> Mapping[str, BackendLive]:
        return {n: s.snapshot(now) for n, s in self._by_name.items()}

    def view(self, now: float) -> Mapping[str, BackendLive]:
        """Like `snapshot`, but each backend's figures are taken only when looked up."""
        return _View(self._by_name, now)


Probe = Callable[[], Awaitable[bool]]


async def probe_once(
    stats: LiveStats, probes: Mapping[str, Probe], now: Callable[[], float]
) -> dict[str, bool]:
    """Run each health probe once; a failed probe counts as an UNREACHABLE failure, a passed
    one ends an open circuit's cool-down (see `BackendStats.health_passed`)."""
    names = list(probes)
    results = await asyncio.gather(*(_safe(probes[n]) for n in names))
    out: dict[str, bool] = {}
    for name, ok in zip(names, results, strict=True):
        s = stats.of(name)
        if ok:
            s.health_passed(now())
        else:
            s.failure(now(), FailureKind.UNREACHABLE)
        out[name] = ok
    return out


async def run_probes(
    stats: LiveStats,
    probes: Callable[[], Mapping[str, Probe]],
    now: Callable[[], float],
    interval_s: float,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Probe on-prem nodes forever (cancel the task to stop)."""
    while True:
        await sleep(interval_s)
        try:
            await probe_once(stats, probes(), now)
        except Exception as exc:  # a probe loop must never die
            log.warning("health probe round failed: %s", type(exc).__name__)


async def _safe(probe: Probe) -> bool:
    try:
        return bool(await probe())
    except Exception:
        return False
