"""Embeddings orchestration, routed exactly like chat: the inputs become the user messages of
a ChatRequest, so the classifier and the policy rules see the same text; the decision is
narrowed to backends that can embed; the dispatcher falls back before answering; one ledger
row per request (prompt tokens only). The policy's rate limits charge it like chat: one request
and the estimated tokens of its inputs, corrected to the tokens the backend reports.

Redaction cannot apply to embeddings (a vector of placeholders is not the caller's vector and
cannot be restored), so a candidate the decision would redact for is dropped instead."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from gateway.core.clock import Clock
from gateway.core.errors import GatewayError, InvalidRequest, ProviderError
from gateway.core.types import ChatMessage, ChatRequest, RequestContext
from gateway.policy.decision import Dropped, DropReason, RouteDecision
from gateway.providers.tokens import estimate_text_tokens
from gateway.service.admission import Admission, RateAdmission
from gateway.service.chat import Router, Sink, _refuse_if_empty
from gateway.service.dispatcher import Outcome
from gateway.service.embed_dispatch import EmbedDispatcher
from gateway.usage.records import UsageRecord

MAX_INPUTS = 2048  # OpenAI's own limit per request
# the closed schema of the body: a field nobody reads is refused, never passed along unread
_FIELDS = frozenset({"model", "input", "encoding_format", "dimensions", "user"})

EncodingFormat = Literal["float", "base64"]


@dataclass(frozen=True, slots=True)
class EmbeddingsRequest:
    """An OpenAI `POST /v1/embeddings` body, validated."""

    model: str
    inputs: tuple[str, ...]
    encoding_format: EncodingFormat = "float"
    dimensions: int | None = None
    user: str | None = None

    def as_chat(self) -> ChatRequest:
        """The same text as chat user messages: what the router classifies and routes."""
        return ChatRequest(
            model=self.model,
            max_completion_tokens=1,
            user=self.user,
            messages=[ChatMessage(role="user", content=t) for t in self.inputs],
        )


@dataclass(slots=True)
class Embedded:
    vectors: list[list[float]]
    prompt_tokens: int
    decision: RouteDecision
    outcome: Outcome


def parse_embeddings(raw: bytes) -> EmbeddingsRequest:
    """Validate the body; every problem is a 400 naming the field."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise InvalidRequest("the request body is not valid JSON", code="invalid_json") from None
    if not isinstance(body, dict):
        raise InvalidRequest("the request body must be a JSON object")
    for name in body:
        if name not in _FIELDS:
            raise InvalidRequest(f"unknown field '{name}'", param=str(name), code="unknown_field")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise InvalidRequest("missing required field 'model'", param="model")
    inputs = _inputs(body.get("input"))
    fmt = body.get("encoding_format", "float")
    if fmt is None:
        fmt = "float"
    if fmt not in ("float", "base64"):
        raise InvalidRequest(
            "'encoding_format' must be 'float' or 'base64'", param="encoding_format"
        )
    dims = body.get("dimensions")
    if dims is not None and (
        isinstance(dims, bool) or not isinstance(dims, int) or not 1 <= dims <= 65536
    ):
        raise InvalidRequest("'dimensions' must be an integer from 1 to 65536", param="dimensions")
    user = body.get("user")
    if user is not None and not isinstance(user, str):
        raise InvalidRequest("'user' must be a string", param="user")
    return EmbeddingsRequest(
        model=model, inputs=inputs, encoding_format=fmt, dimensions=dims, user=user
    )


def _inputs(raw: Any) -> tuple[str, ...]:
    if raw is None:
        raise InvalidRequest("missing required field 'input'", param="input")
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not items:
        raise InvalidRequest(
            "'input' must be a string or a non-empty array of strings", param="input"
        )
    if len(items) > MAX_INPUTS:
        raise InvalidRequest(f"'input' may hold at most {MAX_INPUTS} strings", param="input")
    if not all(isinstance(t, str) for t in items):
        raise InvalidRequest(
            "token arrays are not supported as 'input': send the text as a "
            "string or an array of strings",
            param="input",
            code="unsupported_input",
        )
    if any(not t for t in items):
        raise InvalidRequest("'input' may not contain empty strings", param="input")
    return tuple(items)


class EmbeddingsService:
    def __init__(
        self,
        router: Router,
        dispatcher: EmbedDispatcher,
        sink: Sink,
        clock: Clock,
        budgets: Admission | None = None,
        rates: RateAdmission | None = None,
    ) -> None:
        self._router = router
        self._dispatcher = dispatcher
        self._sink = sink
        self._clock = clock
        self._budgets = budgets
        self._rates = rates

    def record_rejected(self, ctx: RequestContext, alias: str, exc: GatewayError) -> None:
        self._record(ctx, alias, None, Outcome(), 0, exc.status, exc.code or exc.type)

    async def embed(self, ctx: RequestContext, request: EmbeddingsRequest) -> Embedded:
        chat = request.as_chat()
        decision: RouteDecision | None = None
        outcome = Outcome()
        estimate = sum(estimate_text_tokens(t) for t in request.inputs)
        grant: Any = None
        try:
            decision = self._embeddable(await self._router.route(ctx, chat))
            _refuse_if_empty(decision)
            if self._rates is not None:
                decision, grant = await self._rates.admit(ctx, chat, decision, estimate)
            if self._budgets is not None:
                decision = await self._budgets.admit(ctx, chat, decision)
            vectors, tokens = await self._dispatcher.embed(decision, request.inputs, outcome)
        except GatewayError as exc:
            self._record(ctx, request.model, decision, outcome, 0, exc.status, exc.code or exc.type)
            raise
        except ProviderError as exc:
            self._record(ctx, request.model, decision, outcome, 0, 502, exc.kind.value)
            raise
        estimated = tokens <= 0
        if estimated:
            tokens = estimate
        if self._rates is not None:
            self._rates.settle(grant, tokens)
        wrong = _dimension_problem(request, vectors, outcome.backend)
        if wrong is not None:  # the call was made (and billed): the row keeps its tokens
            self._record(
                ctx,
                request.model,
                decision,
                outcome,
                tokens,
                wrong.status,
                wrong.code,
                estimated=estimated,
            )
            raise wrong
        self._record(ctx, request.model, decision, outcome, tokens, 200, None, estimated=estimated)
        return Embedded(vectors=vectors, prompt_tokens=tokens, decision=decision, outcome=outcome)

    def _embeddable(self, decision: RouteDecision) -> RouteDecision:
        """Keep the candidates that can embed the original text."""
        keep: list[str] = []
        gone: list[Dropped] = []
        for name in decision.candidates:
            if decision.needs_redaction(name):
                gone.append(
                    Dropped(
                        name,
                        "embeddings cannot be redacted, and this data may "
                        "go to the cloud only redacted",
                        DropReason.REDACTION_OFF.value,
                    )
                )
            elif not self._dispatcher.can_embed(name):
                gone.append(Dropped(name, "does not serve embeddings", DropReason.CAPABILITY.value))
            else:
                keep.append(name)
        if not gone:
            return decision
        return dataclasses.replace(
            decision, candidates=tuple(keep), dropped=decision.dropped + tuple(gone)
        )

    def _record(
        self,
        ctx: RequestContext,
        alias: str,
        decision: RouteDecision | None,
        outcome: Outcome,
        tokens: int,
        status: int,
        error: str | None,
        *,
        estimated: bool = False,
    ) -> None:
        latency = (self._clock.monotonic() - ctx.received_at) * 1000
        self._sink.record(
            UsageRecord(
                request_id=ctx.request_id,
                created_at=self._clock.now(),
                alias=alias,
                status=status,
                tenant=ctx.tenant,
                app=ctx.app,
                key_id=ctx.key_id,
                backend=outcome.backend,
                data_class=decision.data_class if decision else None,
                sensitivity_band=decision.band if decision else None,
                rule=decision.rule if decision else None,
                error_kind=error,
                prompt_tokens=tokens,
                completion_tokens=0,
                estimated=estimated,
                latency_ms=latency,
                ttft_ms=latency if status == 200 else None,
                attempts=outcome.attempts,
                trace=_trace(decision),
            )
        )


def _dimension_problem(
    request: EmbeddingsRequest, vectors: list[list[float]], backend: str | None
) -> InvalidRequest | None:
    """Vectors are never truncated behind the caller's back (that is only meaningful for
    models trained for it): a `dimensions` the backend's vectors do not have is a 400."""
    if request.dimensions is None or not vectors:
        return None
    have = len(vectors[0])
    if have == request.dimensions:
        return None
    return InvalidRequest(
        f"backend '{backend}' serving model '{request.model}' returns "
        f"{have}-dimensional vectors; dimensions={request.dimensions} is not "
        "supported",
        param="dimensions",
        code="unsupported_dimensions",
    )


def _trace(decision: RouteDecision | None) -> dict[str, Any] | None:
    if decision is None:
        return None
    trace = decision.trace()
    trace["operation"] = "embeddings"
    return trace
