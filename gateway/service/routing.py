"""Start-up of the routing machinery: live stats, the policy reloader (file watch + admin
PUT), on-prem health probes. Called once by the composition root."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
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


def start_routing(
    settings: Settings,
    clock: Clock,
    compiled: CompiledPolicy,
    pool: ProviderPool,
    stack: contextlib.AsyncExitStack,
    sink: ChangeSink | None = None,
) -> Routing:
    stats = LiveStats(StatsConfig())
    path = Path(compiled.source) if Path(compiled.source).is_file() else None

    def on_swap(_old: CompiledPolicy, new: CompiledPolicy) -> None:
        pool.sync(new)  # everyone else reads the policy from the reloader when they need it

    reloader = PolicyReloader(
        compiled, clock.now, sink=sink, on_swap=on_swap, path=path, limits=limits_from(settings)
    )
    if path is not None and settings.policy_watch_s > 0:
        _background(stack, reloader.watch(settings.policy_watch_s), "policy-watch")
    if settings.probe_interval_s > 0:
        _background(
            stack,
            run_probes(stats, pool.probes, clock.monotonic, settings.probe_interval_s),
            "health-probes",
        )
    return Routing(stats=stats, reloader=reloader)


def _background(stack: contextlib.AsyncExitStack, coro: Any, name: str) -> None:
    task = asyncio.create_task(coro, name=name)

    async def stop() -> None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    stack.push_async_callback(stop)
