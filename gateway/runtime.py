"""The running gateway's state: policy, providers, services. Built by `create_app`'s lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request

from gateway.core.clock import Clock
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.loader import CompiledPolicy
from gateway.providers.base import Provider
from gateway.service.chat import ChatService

log = logging.getLogger("gateway")


@dataclass
class Runtime:
    policy: CompiledPolicy
    providers: Mapping[str, Provider]
    disabled: Mapping[str, str]
    chat: ChatService
    clock: Clock
    started_at: float
    extras: dict[str, Any] = field(default_factory=dict)

    async def authenticate(self, request: Request, chat: ChatRequest | None) -> RequestContext:
        auth = self.extras.get("auth")  # gateway.openai_api.auth.Authenticator
        if auth is not None:
            ctx: RequestContext = await auth.authenticate(request)
            return ctx
        state = request.scope.get("state", {})
        return RequestContext(request_id=state.get("request_id", ""),
                              received_at=state.get("received_at", self.clock.monotonic()))

    async def readiness(self) -> tuple[bool, dict[str, list[str]]]:
        """Ready when every alias has at least one reachable backend. A check that passes
        counts as a passed health check for the circuit too (an open one turns half-open):
        what /readyz calls reachable is not then kept from traffic for a cool-down."""
        names = [n for n in self.providers]
        results = await asyncio.gather(*(self.providers[n].check() for n in names))
        up = {n for n, ok in zip(names, results, strict=True) if ok}
        stats = self.extras.get("stats")  # gateway.service.stats.LiveStats
        if stats is not None:
            now = self.clock.monotonic()
            for name in up:
                stats.of(name).health_passed(now)
        detail = {alias: [b for b in spec.backends if b in up]
                  for alias, spec in self.policy.policy.aliases.items()}
        return all(detail.values()), detail

    async def readiness_report(self) -> tuple[bool, dict[str, Any]]:
        """`/readyz`'s verdict and body: the aliases' reachable backends, and the bundled
        engine's problem while it is down (then not ready, whatever the aliases say)."""
        ready, detail = await self.readiness()
        body: dict[str, Any] = {"aliases": detail}
        engine = self.extras.get("local_engine")  # gateway.providers.local.engine.LocalEngine
        problem = engine.health() if engine is not None else None
        if problem is not None:
            ready = False
            body["local_engine"] = f"down: {problem}"
        return ready, {"status": "ready" if ready else "not_ready", **body}
