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
        """Ready when every alias has at least one reachable backend."""
        names = [n for n in self.providers]
        results = await asyncio.gather(*(self.providers[n].check() for n in names))
        up = {n for n, ok in zip(names, results, strict=True) if ok}
        detail = {alias: [b for b in spec.backends if b in up]
                  for alias, spec in self.policy.policy.aliases.items()}
        return all(detail.values()), detail
