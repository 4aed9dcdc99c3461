"""Strict wire models for the client APIs served beside chat (Responses, Anthropic Messages,
legacy completions): a field nobody mapped is refused, never forwarded or silently dropped,
so every text a client sends lands in a ChatRequest place the classifier reads."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from gateway.core.errors import InvalidRequest
from gateway.core.types import ChatRequest
from gateway.openai_api.errors import from_validation


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


M = TypeVar("M", bound=BaseModel)


def parse_strict(model: type[M], body: bytes) -> M:
    """`body` as `model`, or a 400 that names the first bad field (an unknown one as such)."""
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise _invalid(exc) from None


def chat_request(fields: dict[str, Any]) -> ChatRequest:
    """The provider-neutral request the translated fields describe (validated like chat)."""
    try:
        return ChatRequest.model_validate(fields)
    except ValidationError as exc:
        raise from_validation(exc) from None


def _invalid(exc: ValidationError) -> InvalidRequest:
    errs = exc.errors()
    if errs and errs[0]["type"] == "extra_forbidden":
        loc = ".".join(str(p) for p in errs[0]["loc"])
        return InvalidRequest(f"unknown field '{loc}': this endpoint does not support it",
                              param=loc, code="unknown_field")
    return from_validation(exc)


def unsupported(what: str, param: str | None = None) -> InvalidRequest:
    """A 400 for a documented option this gateway does not serve (never silently ignored)."""
    return InvalidRequest(what, param=param, code="unsupported_parameter")
