"""What the chat service asks of the gates before a call, and of cost attribution."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from gateway.core.types import ChatRequest, RequestContext
from gateway.service.decision import RouteDecision


class Admission(Protocol):
    """Budget reservation before the call (service/budgets.py): returns the decision to run
    (maybe narrowed to on-prem) or raises a GatewayError (429 naming the budget)."""

    async def admit(
        self, ctx: RequestContext, request: ChatRequest, decision: RouteDecision
    ) -> RouteDecision: ...


class RateAdmission(Protocol):
    """Rate limits before the call (service/ratelimit.py): the decision with the limits'
    headers and the charge to settle, or a GatewayError (429 with `Retry-After`)."""

    async def admit(
        self,
        ctx: RequestContext,
        request: ChatRequest,
        decision: RouteDecision,
        tokens: int | None = None,
    ) -> tuple[RouteDecision, Any]: ...

    def settle(self, grant: Any, used_tokens: int) -> None: ...


# the request's cost-attribution tags in the ledger's spelling (service/attribution.py);
# raises InvalidRequest for tags out of bounds
Tagger = Callable[[RequestContext, ChatRequest], str | None]


@dataclass(frozen=True, slots=True)
class Attribution:
    """The per-request accounting besides budgets: rate limits and cost-attribution tags."""

    rates: RateAdmission | None = None
    tags: Tagger | None = None
