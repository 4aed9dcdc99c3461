"""Cost attribution on the request path: the request's tags, read under the running policy's
`tags:` (policy/tags.py) and spelled as the ledger keeps them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.core.errors import InvalidRequest
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.tags import TagError, format_tags, tags_of

PolicyNow = Callable[[], Any]  # -> gateway.policy.schema.Policy


class Tagger:
    def __init__(self, policy: PolicyNow) -> None:
        self._policy = policy

    def __call__(self, ctx: RequestContext, request: ChatRequest) -> str | None:
        spec = self._policy().tags
        if not spec.keys:
            return None
        try:
            return format_tags(tags_of(spec, ctx.headers, request.metadata))
        except TagError as exc:
            raise InvalidRequest(str(exc), param=exc.param, code="invalid_tags") from None
