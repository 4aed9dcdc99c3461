"""The policy router: classify the request, take the effective data class, ask the pure
engine for a decision with the live stats and budget state. Fails closed: a classifier error
makes the request `special`."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime

from gateway.core.clock import Clock
from gateway.core.errors import InvalidRequest, ModelNotFound
from gateway.core.textplaces import request_texts
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.decision import RouteDecision
from gateway.policy.explain import route
from gateway.policy.inputs import NO_BUDGET_LIMITS, BudgetState
from gateway.policy.loader import CompiledPolicy
from gateway.sensitivity import Classifier, Sensitivity
from gateway.sensitivity.redaction import RedactionMap, Redactor
from gateway.service.stats import LiveStats

log = logging.getLogger("gateway.router")

PolicySource = Callable[[], CompiledPolicy]
BudgetSource = Callable[[RequestContext], BudgetState]


class ClassifierCache:
    """One classifier per policy version (its sensitivity settings travel with the policy)."""

    def __init__(self) -> None:
        self._sha: str | None = None
        self._classifier: Classifier | None = None

    def for_policy(self, compiled: CompiledPolicy) -> Classifier:
        if self._classifier is None or self._sha != compiled.sha256:
            self._classifier = Classifier(compiled.policy.sensitivity)
            self._sha = compiled.sha256
        return self._classifier


class PolicyRouter:
    def __init__(
        self,
        policy: PolicySource,
        stats: LiveStats,
        clock: Clock,
        disabled: Mapping[str, str] | Callable[[], Mapping[str, str]],
        budgets: BudgetSource | None = None,
        rand: Callable[[], float] | None = None,
    ) -> None:
        self._policy = policy
        self._stats = stats
        self._clock = clock
        self._disabled = disabled
        self._budgets = budgets or (lambda _ctx: NO_BUDGET_LIMITS)
        self._rand = rand or (lambda: 0.0)
        self._classifiers = ClassifierCache()
        # built now, at start-up: the first build compiles the lexicons (~0.5 s), which the
        # first request would otherwise wait for on the event loop
        self._classifiers.for_policy(policy())

    async def route(self, ctx: RequestContext, request: ChatRequest) -> RouteDecision:
        compiled = self._policy()
        if request.model not in compiled.policy.aliases:
            raise ModelNotFound(f"The model '{request.model}' does not exist", param="model")
        classifier = self._classifiers.for_policy(compiled)
        sens = await classifier.classify_request_bounded(request)
        today = datetime.fromtimestamp(self._clock.now(), UTC).date()
        disabled = self._disabled() if callable(self._disabled) else self._disabled
        try:
            return route(
                compiled,
                classifier,
                ctx,
                request,
                stats=self._stats.view(self._clock.monotonic()),
                budget=self._budgets(ctx),
                disabled=disabled,
                today=today,
                seed=self._rand(),
                sensitivity=sens,
            )
        except ValueError as exc:  # an unknown declared data class
            raise InvalidRequest(str(exc), param="data_class") from None


def redactor_for(
    policy: PolicySource, cache: ClassifierCache | None = None
) -> Callable[[ChatRequest, Sensitivity | None], Awaitable[tuple[ChatRequest, RedactionMap]]]:
    """The redaction function ChatService uses: placeholders where the routing decision's
    classification found values (classified here with the current policy's sensitivity
    settings only when the decision does not carry it). A request with more text than the
    policy's `offload_chars` is rewritten in a worker thread, off the event loop."""
    classifiers = cache or ClassifierCache()

    async def redact(
        request: ChatRequest, found: Sensitivity | None
    ) -> tuple[ChatRequest, RedactionMap]:
        classifier = classifiers.for_policy(policy())
        redactor = Redactor(classifier)
        if sum(map(len, request_texts(request))) <= classifier.config.offload_chars:
            return redactor.redact_request(request, found)
        return await asyncio.to_thread(redactor.redact_request, request, found)

    return redact
