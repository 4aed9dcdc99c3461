"""Strict wire models for the client APIs served beside chat (Responses, Anthropic Messages,
legacy completions): a field nobody mapped is refused, never forwarded or silently dropped,
so every text a client sends lands in a ChatRequest place the classifier reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from gateway.core.errors import InvalidRequest
from gateway.core.types import ChatRequest
from gateway.openai_api.errors import from_validation


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


M = TypeVar("M", bound=BaseModel)


def by_type(default: str | None) -> Callable[[Any], str]:
    """A union discriminator on `type` (tags are written `type=<value>`, so they never read
    as a field name in an error's location); `default` for items that may omit it."""

    def tag(value: Any) -> str:
        kind = (
            value.get("type", default)
            if isinstance(value, dict)
            else getattr(value, "type", default)
        )
        return f"type={kind}"

    return tag


def parse_strict(model: type[M], body: bytes) -> M:
    """`body` as `model`, or a 400 that names the most specific problem (an unknown field as
    such)."""
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise _invalid(exc, body) from None


def json_text(value: Any, param: str) -> str:
    """`value` written as JSON text, or a 400 naming `param`: a client's JSON may hold an
    integer beyond 64 bits, which parses but cannot be written again for a backend."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        raise InvalidRequest(
            f"'{param}' holds a value that cannot be sent on (an integer beyond 64 bits)",
            param=param,
        ) from None


def chat_request(fields: dict[str, Any]) -> ChatRequest:
    """The provider-neutral request the translated fields describe (validated like chat)."""
    try:
        return ChatRequest.model_validate(fields)
    except ValidationError as exc:
        raise from_validation(exc) from None


def _invalid(exc: ValidationError, body: bytes) -> InvalidRequest:
    """A 400 from the most specific problem: these bodies are unions of item and block
    shapes, and pydantic reports one error per shape tried, the shallowest first."""
    errs = exc.errors()
    if not errs or errs[0]["type"] == "json_invalid":
        return from_validation(exc)
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:  # JSON pydantic reads and orjson does not (NaN)
        return from_validation(exc)
    locs = [_path(data, e["loc"]) for e in errs]
    # deepest first; at one depth a wrong value says more than an unknown field beside it
    best = max(
        range(len(errs)), key=lambda i: (len(locs[i]), errs[i]["type"] != "extra_forbidden", -i)
    )
    err = errs[best]
    loc = ".".join(str(p) for p in locs[best])
    if err["type"] == "extra_forbidden":
        return InvalidRequest(
            f"unknown field '{loc}': this endpoint does not support it",
            param=loc,
            code="unknown_field",
        )
    if err["type"] == "missing":
        return InvalidRequest(f"missing required field '{loc}'", param=loc)
    if not loc:
        return InvalidRequest("the request body must be a JSON object")
    if err["type"] == "union_tag_invalid":
        kind = str(err["ctx"]["tag"]).removeprefix("type=")
        expected = str(err["ctx"]["expected_tags"]).replace("type=", "")
        return InvalidRequest(
            f"invalid value for '{loc}': type '{kind}' is not supported "
            f"here (supported: {expected})",
            param=loc,
        )
    return InvalidRequest(f"invalid value for '{loc}': {err['msg']}", param=loc)


def _path(data: Any, loc: tuple[int | str, ...]) -> list[int | str]:
    """The location as the client wrote it: the keys and indexes that exist in the body, plus
    a last missing field name; without the union members pydantic tried on the way (`str`,
    `list[...]`, `MessageItem`, the discriminator tags)."""
    out: list[int | str] = []
    for i, part in enumerate(loc):
        if isinstance(part, str) and part.startswith("type="):
            continue  # a union member's tag
        if isinstance(data, dict) and part in data:
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        elif i == len(loc) - 1 and isinstance(data, dict) and _is_name(part):
            pass  # a missing field
        else:
            continue
        out.append(part)
    return out


def _is_name(part: int | str) -> bool:
    text = str(part)
    return not (text[:1].isupper() or "[" in text or text in _SCALARS)


_SCALARS = frozenset({"str", "int", "float", "bool", "dict", "list", "none"})


def unsupported(what: str, param: str | None = None) -> InvalidRequest:
    """A 400 for a documented option this gateway does not serve (never silently ignored)."""
    return InvalidRequest(what, param=param, code="unsupported_parameter")
