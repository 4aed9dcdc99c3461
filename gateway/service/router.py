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
from gateway.core.offload import ChildPool
from gateway.core.textplaces import request_texts
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.decision import RouteDecision
from gateway.policy.explain import route
from gateway.policy.inputs import NO_BUDGET_LIMITS, BudgetState
from gateway.policy.loader import CompiledPolicy
from gateway.sensitivity import Classifier, Sensitivity, SensitivityConfig
from gateway.sensitivity.redaction import RedactionMap, Redactor
from gateway.service.stats import LiveStats

log = logging.getLogger("gateway.router")

PolicySource = Callable[[], CompiledPolicy]
BudgetSource = Callable[[RequestContext], BudgetState]


class ClassifierCache:
    """One classifier per sensitivity configuration (it travels with the policy): a policy
    change that leaves `sensitivity` as it was keeps the classifier it has. Building one
    compiles the lexicons (~0.2-0.4 s of Python), so on the request path a new one is built in
    a worker thread, once however many requests are waiting for it."""

    def __init__(self, offload: ChildPool | None = None) -> None:
        """`offload`: the child processes that classify long requests."""
        self._sha: str | None = None
        self._classifier: Classifier | None = None
        self._offload = offload
        self._building = asyncio.Lock()

    def for_policy(self, compiled: CompiledPolicy) -> Classifier:
        """On this thread: at start-up, before anything is served."""
        found = self._kept(compiled)
        if found is None:
            found = self._keep(compiled, self._build(compiled.policy.sensitivity))
        return found

    async def for_policy_off_loop(self, compiled: CompiledPolicy) -> Classifier:
        found = self._kept(compiled)
        if found is not None:
            return found
        async with self._building:
            found = self._kept(compiled)  # built while this request waited
            if found is None:
                built = await asyncio.to_thread(self._build, compiled.policy.sensitivity)
                found = self._keep(compiled, built)
        return found

    def _kept(self, compiled: CompiledPolicy) -> Classifier | None:
        kept = self._classifier
        if kept is None:
            return None
        if self._sha != compiled.sha256:
            if kept.config != compiled.policy.sensitivity:
                return None
            self._sha = compiled.sha256  # another policy, the same sensitivity settings
        return kept

    def _build(self, config: SensitivityConfig) -> Classifier:
        classifier = Classifier(config, offload=self._offload)
        # in this worker thread: loading the judge's model (~1-2 s) would otherwise fall on
        # the first request that needs it
        classifier.warm_judge()
        return classifier

    def _keep(self, compiled: CompiledPolicy, classifier: Classifier) -> Classifier:
        self._classifier, self._sha = classifier, compiled.sha256
        classifier.warm_offload()  # the children build it too, before it is needed
        return classifier


class PolicyRouter:
    def __init__(
        self,
        policy: PolicySource,
        stats: LiveStats,
        clock: Clock,
        disabled: Mapping[str, str] | Callable[[], Mapping[str, str]],
        budgets: BudgetSource | None = None,
        rand: Callable[[], float] | None = None,
        offload: ChildPool | None = None,
    ) -> None:
        self._policy = policy
        self._stats = stats
        self._clock = clock
        self._disabled = disabled
        self._budgets = budgets or (lambda _ctx: NO_BUDGET_LIMITS)
        self._rand = rand or (lambda: 0.0)
        self._classifiers = ClassifierCache(offload)
        # built now, at start-up: the first build compiles the lexicons (~0.5 s), which the
        # first request would otherwise wait for on the event loop
        self._classifiers.for_policy(policy())

    @property
    def classifiers(self) -> ClassifierCache:
        """The classifiers the router uses: the redactor shares them."""
        return self._classifiers

    async def route(self, ctx: RequestContext, request: ChatRequest) -> RouteDecision:
        compiled = self._policy()
        if request.model not in compiled.policy.aliases:
            raise ModelNotFound(f"The model '{request.model}' does not exist", param="model")
        classifier = await self._classifiers.for_policy_off_loop(compiled)
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
    policy's `offload_chars` is rewritten off the event loop, in a child process."""
    classifiers = cache or ClassifierCache()

    async def redact(
        request: ChatRequest, found: Sensitivity | None
    ) -> tuple[ChatRequest, RedactionMap]:
        classifier = await classifiers.for_policy_off_loop(policy())
        redactor = Redactor(classifier)
        if sum(map(len, request_texts(request))) <= classifier.config.offload_chars:
            return redactor.redact_request(request, found)
        return await redactor.redact_request_off_loop(request, found)

    return redact
