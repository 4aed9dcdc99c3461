"""The limits of one call to one backend: the backend's own timeouts, narrowed by what is left
of the request's deadline and by its rule's TTFT deadline and objective; for a request's last
candidate, leave to wait for an on-prem node rather than be refused at once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gateway.core.clock import Clock
from gateway.policy.decision import Limits, RouteDecision
from gateway.providers.base import CallOptions

_CACHE_MAX = 256


class CallOptionsFor:
    def __init__(self, options_for: Callable[[str], CallOptions], clock: Clock) -> None:
        self._options_for = options_for
        self._clock = clock
        self._derived: dict[tuple[CallOptions, float | None, float | None], CallOptions] = {}
        self._waiting: dict[tuple[CallOptions, str, tuple[int, int]], CallOptions] = {}

    def of(
        self, name: str, limits: Limits, deadline: float | None, stream: bool
    ) -> CallOptions | None:
        """None when the request's deadline has already passed."""
        base = self._options_for(name)
        total = base.total_timeout
        if deadline is not None:
            remaining = deadline - self._clock.monotonic()
            if remaining <= 0:
                return None
            if remaining < total:
                return _derive(base, remaining, stream, limits)
        # the deadline does not bind: the result depends only on the backend's options and
        # the rule's TTFT limits, so it is built once per combination
        key = (base, limits.ttft_deadline_s if stream else None, limits.ttft_slo_s)
        options = self._derived.get(key)
        if options is None:
            if len(self._derived) > _CACHE_MAX:
                self._derived.clear()
            options = self._derived[key] = _derive(base, total, stream, limits)
        return options

    def may_wait(self, options: CallOptions, decision: RouteDecision) -> CallOptions:
        """The options of a request's last candidate: nothing may follow it, so an on-prem
        pool lets the request wait for a node (in its data class's queue) rather than refuse
        it at once. Built once per (options, class, priority)."""
        klass = decision.data_class or "public"
        key = (options, klass, decision.limits.priority)
        got = self._waiting.get(key)
        if got is None:
            if len(self._waiting) > _CACHE_MAX:
                self._waiting.clear()
            got = self._waiting[key] = replace(
                options, queue_class=klass, queue_priority=decision.limits.priority
            )
        return got


def _derive(base: CallOptions, total: float, stream: bool, limits: Limits) -> CallOptions:
    stall = min(base.between_chunks_timeout, total)
    first = min(base.first_byte_timeout, total)
    if stream and limits.ttft_deadline_s is not None:
        first = min(first, limits.ttft_deadline_s)
    slo = limits.ttft_slo_s
    if first == base.first_byte_timeout and total == base.total_timeout and slo is None:
        return base
    return replace(
        base,
        first_byte_timeout=first,
        total_timeout=total,
        ttft_slo_s=slo,
        stall_timeout=None if stall == first else stall,
    )
