"""Admin auth: a `GECIT_ADMIN_KEY` bearer token. Without a configured key the admin API is off."""

from __future__ import annotations

import hmac

from fastapi import Request

from gateway.core.errors import AuthenticationFailed, PermissionDenied


def admin_key_of(request: Request) -> str | None:
    runtime = getattr(request.app.state, "runtime", None)
    settings = runtime.settings if runtime is not None else None
    return getattr(settings, "admin_key", None)


async def require_admin(request: Request) -> str:
    """FastAPI dependency: returns the actor name ("admin") or raises an OpenAI-shaped error."""
    expected = admin_key_of(request)
    if not expected:
        raise PermissionDenied("the admin API is disabled: set GECIT_ADMIN_KEY",
                               code="admin_disabled")
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise AuthenticationFailed("missing admin bearer token")
    if not hmac.compare_digest(token.strip().encode(), expected.encode()):
        raise AuthenticationFailed("invalid admin key")
    return "admin"
