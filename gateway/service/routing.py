"""Start-up of the routing machinery: live stats, the policy reloader (file watch + admin
PUT), on-prem health probes. Called once by the composition root."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gateway.core.clock import Clock
from gateway.policy.limits import limits_from
from gateway.policy.loader import CompiledPolicy
from gateway.policy.reload import ChangeSink, PolicyReloader
from gateway.service.pool import ProviderPool
from gateway.service.stats import LiveStats, StatsConfig, run_probes
from gateway.settings import Settings

log = logging.getLogger("gateway")


@dataclass
class Routing:
    stats: LiveStats
    reloader: PolicyReloader
    runtime: list[Any] = field(default_factory=list)  # the Runtime, once built


def start_routing(settings: Settings, clock: Clock, compiled: CompiledPolicy,
                        pool: ProviderPool, stack: contextlib.AsyncExitStack,
                        sink: ChangeSink | None = None) -> Routing:
    clk = clock
    stats = LiveStats(StatsConfig())
    path = Path(compiled.source) if Path(compiled.source).is_file() else None
    routing_ref: list[Routing] = []

    def on_swap(_old: CompiledPolicy, new: CompiledPolicy) -> None:
        pool.sync(new)
        for rt in routing_ref[0].runtime:
            rt.policy = new

    reloader = PolicyReloader(compiled, clk.now, sink=sink, on_swap=on_swap, path=path,
                              limits=limits_from(settings))
    routing = Routing(stats=stats, reloader=reloader)
    routing_ref.append(routing)
    extra = settings.extra
    if path is not None and float(extra.get("policy_watch_s", 2.0)) > 0:
        _background(stack, reloader.watch(float(extra.get("policy_watch_s", 2.0))),
                    "policy-watch")
    probe_s = float(extra.get("probe_interval_s", 10.0))
    if probe_s > 0:
        _background(stack, run_probes(stats, pool.probes, clk.monotonic, probe_s),
                    "health-probes")
    return routing


def _background(stack: contextlib.AsyncExitStack, coro: Any, name: str) -> None:
    task = asyncio.create_task(coro, name=name)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    stack.push_async_callback(stop)
