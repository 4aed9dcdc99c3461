"""FastAPI dependencies over the one authenticator (`openai_api/auth.Authenticator`): who asks
on an admin route, by bearer key or browser session, and whether that is the admin scope. No
credential is parsed here."""

from __future__ import annotations

from fastapi import Request

from gateway.core.errors import PermissionDenied
from gateway.openai_api.auth import Authenticator, Principal


def authenticator(request: Request) -> Authenticator:
    auth: Authenticator = request.app.state.runtime.auth
    return auth


async def principal(request: Request, csrf: str | None = None) -> Principal:
    """The caller (401/403/429 otherwise); an unsafe request on a session needs `csrf`."""
    return await authenticator(request).principal(request, csrf)


def admin_only(who: Principal) -> Principal:
    if not who.is_admin:
        raise PermissionDenied("this needs the admin scope (the admin key or an admin-scope key)")
    return who


async def require_admin(request: Request) -> str:
    """FastAPI dependency: the admin's actor name (key id, or "admin" for the admin key)."""
    return admin_only(await principal(request)).actor
