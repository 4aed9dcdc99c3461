"""Turn every failure into the OpenAI error shape with the right status."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from gateway.core import types
from gateway.core.errors import FailureKind, GatewayError, InvalidRequest, ProviderError

log = logging.getLogger("gateway.api")


def error_response(exc: GatewayError) -> Response:
    return Response(
        orjson.dumps(exc.body()),
        status_code=exc.status,
        media_type="application/json",
        headers=exc.headers or None,
    )


def from_validation(exc: ValidationError) -> InvalidRequest:
    errs = exc.errors()
    if not errs:
        return InvalidRequest("the request body is invalid")
    # an unknown field is the problem to name: under a union (`content`: a string or a list
    # of parts) the first error is only that the other member did not fit either
    first = next((e for e in errs if e["type"] == "extra_forbidden"), errs[0])
    if first["type"] == "json_invalid":
        return InvalidRequest("the request body is not valid JSON", code="invalid_json")
    loc = [str(p) for p in first["loc"] if not _is_union_tag(str(p))]
    param = ".".join(loc) if loc else None
    if first["type"] == "missing":
        msg = f"missing required field '{param}'"
    elif first["type"] == "extra_forbidden":
        # the request schema is closed: an unread field could carry data past the classifier
        msg = f"unknown field '{param}'"
    elif first["type"] == "model_type" and not loc:
        msg = "the request body must be a JSON object"
    else:
        msg = f"invalid value for '{param}': {first['msg']}"
    extra = f" (and {len(errs) - 1} more problem(s))" if len(errs) > 1 else ""
    if first["type"] == "extra_forbidden":
        return InvalidRequest(msg + extra, param=param, code="unknown_field")
    return InvalidRequest(msg + extra, param=param)


# what pydantic puts in an error's location for the member of a union it tried (`str`,
# `list[ContentPart]`, `ContentPart`, `function-after[...]`): not part of the field's path
_SCALAR_TAGS = frozenset({"str", "int", "float", "bool", "none"})


def _is_union_tag(p: str) -> bool:
    return p in _SCALAR_TAGS or "[" in p or p in _MODEL_TAGS or p.startswith("function-")


_MODEL_TAGS = frozenset(
    name
    for name, obj in vars(types).items()
    if isinstance(obj, type) and issubclass(obj, BaseModel)
)


def from_provider(exc: ProviderError) -> GatewayError:
    """A provider failure that could not be retried or fallen back from."""
    if exc.kind == FailureKind.CALLER:
        return InvalidRequest(exc.message, code="upstream_rejected")
    if exc.kind == FailureKind.CONTEXT_LENGTH:
        return InvalidRequest(exc.message, code="context_length_exceeded")
    if exc.kind == FailureKind.UNSUPPORTED:
        return InvalidRequest(exc.message, code="unsupported_capability")
    return GatewayError(exc.message, code=exc.kind.value, status=502)


def install(app: FastAPI) -> None:
    async def gateway_error(_req: Request, exc: Exception) -> Response:
        assert isinstance(exc, GatewayError)
        return error_response(exc)

    async def provider_error(_req: Request, exc: Exception) -> Response:
        assert isinstance(exc, ProviderError)
        return error_response(from_provider(exc))

    async def http_error(_req: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 404:
            err = GatewayError("unknown route", code="not_found", status=404)
            err.type = "invalid_request_error"
        elif exc.status_code == 405:
            err = GatewayError("method not allowed", code="method_not_allowed", status=405)
            err.type = "invalid_request_error"
        else:
            err = GatewayError(str(exc.detail), status=exc.status_code)
        return error_response(err)

    async def validation_error(_req: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return error_response(InvalidRequest("the request is invalid"))

    async def unexpected(_req: Request, exc: Exception) -> Response:
        log.error("internal error: %s", type(exc).__name__)
        return error_response(GatewayError("internal error", code="internal_error"))

    handlers: dict[Any, Any] = {
        GatewayError: gateway_error,
        ProviderError: provider_error,
        StarletteHTTPException: http_error,
        RequestValidationError: validation_error,
        Exception: unexpected,
    }
    for cls, fn in handlers.items():
        app.add_exception_handler(cls, fn)
