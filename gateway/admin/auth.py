"""Admin auth: a `GECIT_ADMIN_KEY` bearer token. Without a configured key the admin API is off."""

from __future__ import annotations

import hmac

from fastapi import Request

from gateway.core.errors import AuthenticationFailed, PermissionDenied
from gateway.openai_api.auth import FailedAuthLimiter, as_bytes, client_of


def admin_key_of(request: Request) -> str | None:
    runtime = getattr(request.app.state, "runtime", None)
    settings = runtime.settings if runtime is not None else None
    return getattr(settings, "admin_key", None)


async def require_admin(request: Request) -> str:
    """FastAPI dependency: returns the actor name ("admin") or raises an OpenAI-shaped error."""
    expected = admin_key_of(request)
    if not expected:
        raise PermissionDenied(
            "the admin API is disabled: set GECIT_ADMIN_KEY", code="admin_disabled"
        )
    limiter = _limiter_of(request)
    client = client_of(request.scope)
    if limiter is not None:
        limiter.check(client)  # before the key is compared: no guessing past the limit
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        if limiter is not None:
            limiter.failed(client)
        raise AuthenticationFailed("missing admin bearer token")
    # as bytes: the header's own bytes against the key's (a str compare refuses non-ASCII)
    if not hmac.compare_digest(as_bytes(token.strip()), as_bytes(expected)):
        if limiter is not None:
            limiter.failed(client)
        raise AuthenticationFailed("invalid admin key")
    return "admin"


def _limiter_of(request: Request) -> FailedAuthLimiter | None:
    runtime = getattr(request.app.state, "runtime", None)
    auth = runtime.auth if runtime is not None else None
    return getattr(auth, "limiter", None)
