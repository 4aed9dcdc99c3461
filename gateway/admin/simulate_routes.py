"""`POST /admin/policy/simulate`: the what-if replay of `gateway policy simulate` as JSON, for
the console and scripts (admin key). The policy is only compiled, never applied."""

from __future__ import annotations

from datetime import date

import orjson
from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.responses import Response

from gateway.admin.auth import require_admin
from gateway.admin.policy_routes import _problems_response
from gateway.core.errors import InvalidRequest
from gateway.policy.loader import PolicyError
from gateway.service import policy_console
from gateway.usage.simulate import SimulationError

JSON = "application/json"


class SimulateBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    policy: str = Field(description="the policy YAML to replay the ledger under (not applied)")
    start: date = Field(alias="from")
    end: date = Field(alias="to")
    tenant: str | None = None


def build_router() -> APIRouter:
    router = APIRouter(prefix="/admin/policy")

    @router.post("/simulate")
    async def simulate_policy(request: Request, _actor: str = Depends(require_admin)) -> Response:
        rt = request.app.state.runtime
        raw = await request.body()
        limits = rt.reloader.limits
        if len(raw) > 2 * limits.yaml.max_bytes:
            raise InvalidRequest("the request is too large", code="policy_too_large")
        try:
            body = SimulateBody.model_validate_json(raw)
        except ValidationError:
            raise InvalidRequest(
                "expected JSON with 'policy', 'from' and 'to' (YYYY-MM-DD)"
            ) from None
        max_days = rt.settings.report_max_days if rt.settings is not None else 366
        try:
            query = policy_console.sim_query(body.start, body.end, body.tenant, max_days)
            result = await policy_console.simulate(
                rt.reloader, rt.engine, rt.ledger.pricer, body.policy, query
            )
        except SimulationError as exc:
            raise InvalidRequest(str(exc), param="to") from None
        except PolicyError as exc:
            return _problems_response(exc)
        return Response(orjson.dumps(result.as_dict()), media_type=JSON)

    return router
