"""The admin console's HTML forms: reading a url-encoded body (bounded), the CSRF token of the
sign-in form (double-submit: a cookie and a field that must match, before any session exists)
and the cookies' flags. The session's own CSRF token is checked by the authenticator."""

from __future__ import annotations

import hmac
from urllib.parse import parse_qsl

from fastapi import Request
from starlette.responses import Response

from gateway.core.errors import InvalidRequest, PermissionDenied
from gateway.openai_api.auth import SESSION_COOKIE
from gateway.settings import LOOPBACK

LOGIN_CSRF_COOKIE = "gecit_login_csrf"
LOGIN_CSRF_TTL_S = 900
MAX_FIELDS = 32


async def read_form(request: Request) -> dict[str, str]:
    """The fields of a url-encoded form (the first of a repeated name). The body is already
    bounded by the edge (`max_body_bytes`); the number of fields is bounded here."""
    body = await request.body()
    if not body:  # no fields at all: the CSRF check refuses it, not the parser
        return {}
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/x-www-form-urlencoded":
        raise InvalidRequest("expected a form (application/x-www-form-urlencoded)")
    try:
        text = body.decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise InvalidRequest("the form could not be read") from None
    out: dict[str, str] = {}
    for name, value in pairs:
        out.setdefault(name, value)
    return out


def secure_cookies(request: Request) -> bool:
    """Secure cookies unless the gateway listens on loopback only (plain http://127.0.0.1)."""
    return str(request.app.state.runtime.settings.host) not in LOOPBACK


def set_login_csrf(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        LOGIN_CSRF_COOKIE,
        token,
        max_age=LOGIN_CSRF_TTL_S,
        path="/admin/login",
        httponly=True,
        samesite="strict",
        secure=secure_cookies(request),
    )


def check_login_csrf(request: Request, form: dict[str, str]) -> None:
    cookie = request.cookies.get(LOGIN_CSRF_COOKIE, "")
    field = form.get("csrf", "")
    if not (cookie and field and hmac.compare_digest(cookie.encode(), field.encode())):
        raise PermissionDenied("missing or invalid CSRF token", code="csrf_failed")


def set_session_cookie(response: Response, request: Request, token: str, ttl_s: float) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(ttl_s),
        path="/admin",
        httponly=True,
        samesite="strict",
        secure=secure_cookies(request),
    )
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/admin/login")


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        SESSION_COOKIE,
        path="/admin",
        httponly=True,
        samesite="strict",
        secure=secure_cookies(request),
    )
