"""The running gateway's state: policy, providers, services. Built by `create_app`'s lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import Request
from sqlalchemy.engine import Engine

from gateway.core.clock import Clock
from gateway.core.types import ChatRequest, RequestContext
from gateway.metrics import Metrics
from gateway.openai_api.auth import Authenticator
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
    local_engine: LocalEngine | None = None

    @property
    def policy(self) -> CompiledPolicy:
        return self.reloader.current()

    @property
    def recorder(self) -> Recorder:
        return self.ledger.recorder

    async def authenticate(self, request: Request, chat: ChatRequest | None) -> RequestContext:
        return await self.auth.authenticate(request)

    async def readiness(self) -> tuple[bool, dict[str, list[str]]]:
        """Ready when every alias has at least one reachable backend."""
        names = [n for n in self.providers]
        results = await asyncio.gather(*(self.providers[n].check() for n in names))
        up = {n for n, ok in zip(names, results, strict=True) if ok}
        detail = {alias: [b for b in spec.backends if b in up]
                  for alias, spec in self.policy.policy.aliases.items()}
        return all(detail.values()), detail
