"""Explain a routing decision without calling any backend: classify the text with the policy's
sensitivity settings, take the effective class, run the engine, return the trace. Used by the
router (for real requests), `gateway policy explain` and `POST /admin/policy/explain`."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from datetime import date
from typing import Any

from gateway.core.textplaces import request_texts
from gateway.core.types import ChatRequest, DataClass, RequestContext
from gateway.policy.decision import RouteDecision
from gateway.policy.engine import decide
from gateway.policy.inputs import NO_BUDGET_LIMITS, BackendLive, BudgetState, RequestInfo
from gateway.policy.loader import CompiledPolicy
from gateway.providers.tokens import MESSAGE_OVERHEAD, estimate_prompt_tokens
from gateway.sensitivity import Classifier, Sensitivity, declared_class_from, effective_class

log = logging.getLogger("gateway.policy")


def classify(classifier: Classifier, request: ChatRequest) -> Sensitivity:
    """Fail closed: a classifier that raises makes the request `special`."""
    try:
        return classifier.classify_request(request)
    except Exception as exc:
        log.error("classifier raised %s; treating the request as special", type(exc).__name__)
        return Sensitivity(
            data_class="special", confidence=0.0, reason=f"classifier error: {type(exc).__name__}"
        )


def request_info(
    ctx: RequestContext,
    request: ChatRequest,
    sens: Sensitivity,
    data_class: DataClass,
    today: date | None,
    seed: float,
) -> RequestInfo:
    rf = request.response_format
    return RequestInfo(
        alias=request.model,
        data_class=data_class,
        tenant=ctx.tenant,
        app=ctx.app,
        headers=ctx.headers,
        prompt_tokens=_prompt_tokens(request, sens),
        max_output_tokens=request.token_limit,
        needs_tools=bool(request.tools),
        stream=request.stream,
        json_mode=rf is not None and rf.type != "text",
        today=today,
        seed=seed,
        entities=tuple((e.type, e.count) for e in sens.entities),
        categories=sens.categories,
        band=sens.band,
        stage=sens.stage,
        classifier_note=f"fail closed: {sens.reason}" if sens.reason else None,
    )


# above this many characters a fail-closed request's tokens are estimated from its length: an
# exact count reads every character on the event loop (~30 ms per MB), for a request that
# already overran the classifier's deadline
_COUNT_CHARS = 256 << 10


def _prompt_tokens(request: ChatRequest, sens: Sensitivity) -> int:
    """The classifier counted the texts' tokens while reading them (each text encoded once per
    request, a repeated one not at all); after a fail-closed classification, count here."""
    if sens.tokens is None:
        chars = sum(map(len, request_texts(request)))
        if chars > _COUNT_CHARS:
            return chars // 4 + MESSAGE_OVERHEAD * len(request.messages)
        return estimate_prompt_tokens(request)
    return sens.tokens + MESSAGE_OVERHEAD * len(request.messages)


def declared_of(ctx: RequestContext, request: ChatRequest) -> DataClass | None:
    """The declared class (header, metadata, key); ValueError for an unknown value."""
    declared = declared_class_from(ctx.headers, request.metadata)
    if ctx.declared_class is not None:
        declared = effective_class(declared, ctx.declared_class)
    return declared


def route(
    compiled: CompiledPolicy,
    classifier: Classifier,
    ctx: RequestContext,
    request: ChatRequest,
    *,
    stats: Mapping[str, BackendLive] | None = None,
    budget: BudgetState = NO_BUDGET_LIMITS,
    disabled: Mapping[str, str] | None = None,
    today: date | None = None,
    seed: float = 0.0,
    sensitivity: Sensitivity | None = None,
) -> RouteDecision:
    """`sensitivity`: the request's classification when the caller made it already (the
    router classifies large requests off the event loop)."""
    declared = declared_of(ctx, request)
    sens = sensitivity if sensitivity is not None else classify(classifier, request)
    data_class = effective_class(declared, sens.data_class)
    info = request_info(ctx, request, sens, data_class, today, seed)
    decision = decide(compiled.policy, info, stats, budget, disabled)
    if decision.redact:
        decision = dataclasses.replace(decision, sensitivity=sens)
    decision.extra["policy_sha256"] = compiled.sha256
    if declared is not None:
        decision.extra["declared_class"] = declared
    return decision


def explain_text(
    compiled: CompiledPolicy,
    alias: str,
    text: str,
    *,
    tenant: str = "default",
    app: str = "default",
    headers: Mapping[str, str] | None = None,
    stats: Mapping[str, BackendLive] | None = None,
    disabled: Mapping[str, str] | None = None,
    today: date | None = None,
) -> dict[str, Any]:
    request = ChatRequest.model_validate(
        {"model": alias, "messages": [{"role": "user", "content": text}]}
    )
    ctx = RequestContext(request_id="explain", tenant=tenant, app=app, headers=dict(headers or {}))
    classifier = Classifier(compiled.policy.sensitivity)
    # the judge's model is the process's (in the gateway, loaded at start-up): the explanation
    # is the answer the gateway gives, not the context model's while the model loads
    classifier.warm_judge()
    decision = route(
        compiled,
        classifier,
        ctx,
        request,
        stats=stats,
        disabled=disabled,
        today=today,
    )
    return decision.trace()
