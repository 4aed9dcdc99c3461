"""The spine's router: an alias's backends in policy order, minus those not running here.

The full policy engine (data class, transfer basis, SLOs, cost) replaces this behind the same
`route()` signature."""

from __future__ import annotations

from collections.abc import Mapping

from gateway.core.errors import ModelNotFound
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.loader import CompiledPolicy
from gateway.service.decision import Dropped, RouteDecision


class AliasRouter:
    def __init__(self, policy: CompiledPolicy, disabled: Mapping[str, str]) -> None:
        self._policy = policy
        self._disabled = disabled

    def route(self, ctx: RequestContext, request: ChatRequest) -> RouteDecision:
        alias = self._policy.policy.aliases.get(request.model)
        if alias is None:
            raise ModelNotFound(f"The model '{request.model}' does not exist", param="model")
        keep: list[str] = []
        dropped: list[Dropped] = []
        for name in alias.backends:
            reason = self._disabled.get(name)
            if reason is None:
                keep.append(name)
            else:
                dropped.append(Dropped(name, f"disabled: {reason}"))
        return RouteDecision(alias=request.model, candidates=tuple(keep), dropped=tuple(dropped))
