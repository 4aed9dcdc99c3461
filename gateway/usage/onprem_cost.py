"""An on-prem node's hourly cost, shared across the requests it actually served.

The node costs `hourly_usd` whatever it does. While it serves n requests at once, each of them
carries 1/n of that rate, so N concurrent streams cost about 1/N per token of one stream alone,
as on a real GPU. Whether the hours it sits idle are charged is the policy's choice: when they
are, the idle time before a request is added to that request's share, so the requests of a
period pay the whole period.

Exact by construction (a virtual clock, as in fair queueing): `_per_request` accumulates the
cost one request active at every instant has carried since the meter began; a request pays the
difference between its end and its start. The shares of any set of requests therefore sum to
the rate times the busy time (plus the idle time when charged), to the last digit of Decimal.
Time comes in as arguments (monotonic seconds); nothing here reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

SECONDS_PER_HOUR = Decimal(3600)


class NodeCostMeter:
    def __init__(
        self, hourly_usd: Decimal, *, charge_idle: bool = False, start: float = 0.0
    ) -> None:
        self._rate = hourly_usd / SECONDS_PER_HOUR  # USD per second
        self._charge_idle = charge_idle
        self._at = Decimal(repr(start))
        self._active = 0
        self._per_request = Decimal(0)
        self._idle_owed = Decimal(0)
        self._marks: dict[object, Decimal] = {}
        self.busy_s = Decimal(0)

    def _advance(self, now: float) -> None:
        t = Decimal(repr(now))
        if t < self._at:
            raise ValueError("time went backwards")
        dt = t - self._at
        if self._active:
            self._per_request += self._rate * dt / self._active
            self.busy_s += dt
        elif self._charge_idle:
            self._idle_owed += self._rate * dt
        self._at = t

    def started(self, key: object, now: float) -> None:
        self._advance(now)
        # the idle time before it is this request's to pay (when idle is charged)
        self._marks[key] = self._per_request - self._idle_owed
        self._idle_owed = Decimal(0)
        self._active += 1

    def finished(self, key: object, now: float) -> Decimal:
        """The request's share of the node's cost, USD."""
        self._advance(now)
        self._active -= 1
        return self._per_request - self._marks.pop(key)

    def utilisation(self, elapsed_s: float) -> Decimal:
        return self.busy_s / Decimal(repr(elapsed_s)) if elapsed_s > 0 else Decimal(0)


class OnPremCosts:
    """One NodeCostMeter per on-prem backend that declares `hourly_cost_usd` (and no per-token
    price), as the current policy says: the dispatcher reports when each attempt on a backend
    starts and ends, and gets that attempt's share back. A pooled backend's hourly cost is the
    whole pool's. A reload that changes a backend's cost or the idle setting starts a new
    meter; attempts already running finish on the one they started on."""

    def __init__(self, policy: Callable[[], Any]) -> None:
        self._policy = policy
        self._meters: dict[tuple[str, Decimal, bool], NodeCostMeter] = {}
        self._open: dict[object, NodeCostMeter] = {}

    def started(self, backend: str, key: object, now: float) -> None:
        policy = self._policy()
        spec = policy.backends.get(backend)
        if (
            spec is None
            or spec.zone != "on_prem"
            or spec.price is not None
            or spec.hourly_cost_usd is None
        ):
            return
        idle = bool(getattr(policy.billing, "charge_idle_hours", False))
        k = (backend, spec.hourly_cost_usd, idle)
        meter = self._meters.get(k)
        if meter is None:
            meter = self._meters[k] = NodeCostMeter(
                spec.hourly_cost_usd, charge_idle=idle, start=now
            )
        meter.started(key, now)
        self._open[key] = meter

    def finished(self, key: object, now: float) -> Decimal | None:
        """The attempt's share (None when its backend is not metered, or already settled)."""
        meter = self._open.pop(key, None)
        return None if meter is None else meter.finished(key, now)
