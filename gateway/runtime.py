"""The running gateway's state: policy, providers, services. Built by `create_app`'s lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import Request
from sqlalchemy.engine import Engine

from gateway.core.clock import Clock
from gateway.core.types import ChatRequest, RequestContext
from gateway.metrics import Metrics
from gateway.openai_api.auth import Authenticator
from gateway.openai_api.intake import BodyOffload
from gateway.openai_api.response_store import ResponseStore
from gateway.policy.loader import CompiledPolicy
from gateway.policy.reload import PolicyReloader
from gateway.providers.base import Provider
from gateway.service.budgets import BudgetGate
from gateway.service.chat import ChatService
from gateway.service.embeddings import EmbeddingsService
from gateway.service.policy_sync import PolicySync
from gateway.service.stats import LiveStats
from gateway.settings import Settings
from gateway.usage.recorder import Recorder
from gateway.usage.wiring import Ledger

if TYPE_CHECKING:  # the bundled engine's module is imported only when a policy uses it
    from gateway.providers.local.engine import LocalEngine
    from gateway.service.oidc.wiring import OidcSignIn

log = logging.getLogger("gateway")


@dataclass
class Runtime:
    """Everything the handlers reach, each part typed; `create_app`'s lifespan builds the
    parts in dependency order and this last, so nothing points back at it."""

    reloader: PolicyReloader  # the running policy (hot reload swaps it there)
    providers: Mapping[str, Provider]
    disabled: Mapping[str, str]
    chat: ChatService
    embeddings: EmbeddingsService
    clock: Clock
    started_at: float
    settings: Settings
    engine: Engine
    ledger: Ledger
    budgets: BudgetGate
    auth: Authenticator
    metrics: Metrics
    stats: LiveStats
    policy_sync: PolicySync
    responses: ResponseStore  # /v1/responses kept in memory for previous_response_id
    local_engine: LocalEngine | None = None
    body_offload: BodyOffload | None = None  # large chat bodies parsed in a child process
    oidc: OidcSignIn | None = None  # OIDC sign-in to the admin console (None: off)

    @property
    def policy(self) -> CompiledPolicy:
        return self.reloader.current()

    @property
    def recorder(self) -> Recorder:
        return self.ledger.recorder

    async def authenticate(self, request: Request, chat: ChatRequest | None) -> RequestContext:
        return await self.auth.authenticate(request)

    async def readiness(self) -> tuple[bool, dict[str, list[str]]]:
        """Ready when every alias has at least one reachable backend. A check that passes
        counts as a passed health check for the circuit too (an open one turns half-open):
        what /readyz calls reachable is not then kept from traffic for a cool-down."""
        names = [n for n in self.providers]
        results = await asyncio.gather(*(self.providers[n].check() for n in names))
        up = {n for n, ok in zip(names, results, strict=True) if ok}
        stats = self.stats  # gateway.service.stats.LiveStats
        if stats is not None:
            now = self.clock.monotonic()
            for name in up:
                stats.of(name).health_passed(now)
        detail = {
            alias: [b for b in spec.backends if b in up]
            for alias, spec in self.policy.policy.aliases.items()
        }
        return all(detail.values()), detail

    async def readiness_report(self) -> tuple[bool, dict[str, Any]]:
        """`/readyz`'s verdict and body: the aliases' reachable backends, and the bundled
        engine's problem while it is down (then not ready, whatever the aliases say)."""
        ready, detail = await self.readiness()
        body: dict[str, Any] = {"aliases": detail}
        engine = self.local_engine  # gateway.providers.local.engine.LocalEngine
        problem = engine.health() if engine is not None else None
        if problem is not None:
            ready = False
            body["local_engine"] = f"down: {problem}"
        return ready, {"status": "ready" if ready else "not_ready", **body}
