"""Admin routes for the policy: read it, replace it (validated, atomic, recorded), explain a
decision without calling any backend."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.responses import Response

from gateway.admin.auth import require_admin
from gateway.core.errors import InvalidRequest
from gateway.policy.explain import explain_text
from gateway.policy.loader import PolicyError, load_text
from gateway.policy.reload import PolicyReloader
from gateway.service import policy_console

JSON = "application/json"


class ExplainBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = Field(min_length=1)
    text: str
    tenant: str = "default"
    app: str = "default"
    headers: dict[str, str] = Field(default_factory=dict)
    policy: str | None = Field(
        default=None,
        description="YAML to explain against instead of the running policy (not applied)",
    )


def _reloader(request: Request) -> PolicyReloader:
    reloader: PolicyReloader = request.app.state.runtime.reloader
    return reloader


def _problems_response(exc: PolicyError) -> Response:
    body = {
        "error": {
            "message": f"policy refused: {len(exc.problems)} problem(s)",
            "type": "invalid_request_error",
            "param": None,
            "code": "invalid_policy",
            "problems": [p.as_dict() for p in exc.problems],
        }
    }
    return Response(orjson.dumps(body), status_code=422, media_type=JSON)


def build_router() -> APIRouter:
    router = APIRouter(prefix="/admin/policy")

    @router.get("")
    async def get_policy(request: Request, _actor: str = Depends(require_admin)) -> Response:
        reloader = _reloader(request)
        cur = reloader.current()
        body = {
            "sha256": cur.sha256,
            "source": cur.source,
            "warnings": [w.as_dict() for w in cur.warnings],
            "changes": [
                {
                    "actor": c.actor,
                    "at": c.at,
                    "sha256": c.sha256,
                    "previous_sha256": c.previous_sha256,
                    "source": c.source,
                }
                for c in reloader.changes
            ],
        }
        return Response(orjson.dumps(body), media_type=JSON)

    @router.put("")
    async def put_policy(request: Request, actor: str = Depends(require_admin)) -> Response:
        raw = await request.body()
        reloader = _reloader(request)
        if len(raw) > reloader.limits.yaml.max_bytes:
            raise InvalidRequest("the policy is too large", code="policy_too_large")
        try:  # parsing and validation off the event loop; the swap itself on it
            new = await policy_console.apply(reloader, raw, actor, "admin-api")
        except PolicyError as exc:
            return _problems_response(exc)
        body = {"sha256": new.sha256, "warnings": [w.as_dict() for w in new.warnings]}
        return Response(orjson.dumps(body), media_type=JSON)

    @router.post("/explain")
    async def explain(request: Request, _actor: str = Depends(require_admin)) -> Response:
        try:
            body = ExplainBody.model_validate_json(await request.body())
        except ValidationError:
            raise InvalidRequest("expected JSON with 'model' and 'text'") from None
        rt = request.app.state.runtime
        compiled = _reloader(request).current()
        if body.policy is not None:
            try:
                compiled = await asyncio.to_thread(
                    load_text, body.policy, "explain", _reloader(request).limits
                )
            except PolicyError as exc:
                return _problems_response(exc)
        if body.model not in compiled.policy.aliases:
            raise InvalidRequest(f"unknown model '{body.model}'", param="model")
        stats = rt.stats.snapshot(rt.clock.monotonic())
        try:
            # in a worker thread: building a classifier compiles the lexicons and the judge
            # may read a sentence, neither of which the event loop should wait for
            trace: dict[str, Any] = await asyncio.to_thread(
                explain_text,
                compiled,
                body.model,
                body.text,
                tenant=body.tenant,
                app=body.app,
                headers=body.headers,
                stats=stats,
                disabled=rt.disabled,
            )
        except ValueError as exc:
            raise InvalidRequest(str(exc), param="headers") from None
        return Response(orjson.dumps(trace), media_type=JSON)

    return router
