"""OIDC sign-in to the admin console: `GET /admin/login/oidc` starts the authorization code
flow with PKCE (S256), `GET /admin/oidc/callback` finishes it and opens the same server-side
session a key opens. Both answer 404 while OIDC is off. The sign-in in progress is bound to
the browser by an HttpOnly cookie (SameSite=Lax: the issuer's redirect back is a cross-site
navigation, which a Strict cookie would not ride) and is used once. Pages tell what went wrong
in words; no code, token or secret is ever shown or logged."""

from __future__ import annotations

import asyncio
import logging
import re
from html import escape

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from gateway.admin import forms, pages
from gateway.admin.auth import authenticator
from gateway.core.errors import (
    AuthenticationFailed,
    GatewayError,
    InvalidRequest,
    PermissionDenied,
    ServiceUnavailable,
)
from gateway.openai_api.auth import client_of
from gateway.service.oidc.claims import map_claims
from gateway.service.oidc.flow import LoginSecrets, authorization_url
from gateway.service.oidc.wiring import OidcSignIn
from gateway.usage.oidc_logins import TooManyPending

log = logging.getLogger("gateway.oidc")

LOGIN_COOKIE = "gecit_oidc"
COOKIE_PATH = "/admin/oidc"
_TOKEN = re.compile(r"[A-Za-z0-9._~+/=-]{16,128}")  # state and browser token: ours, urlsafe
_CODE = re.compile(r"[\x21-\x7e]{1,2048}")  # an issuer's code: printable ASCII, bounded
_ERROR = re.compile(r"[a-z_]{1,64}")
_STALE = "This sign-in is not valid: it expired, was already used or was started elsewhere."


def _oidc(request: Request) -> OidcSignIn:
    found: OidcSignIn | None = request.app.state.runtime.oidc
    if found is None:
        raise InvalidRequest("no such page", status=404, code="not_found")
    return found


async def start(request: Request) -> Response:
    oidc = _oidc(request)
    client = client_of(request.scope)
    auth = authenticator(request)
    login = LoginSecrets.new()
    try:
        auth.limiter.check(client)
        found = await oidc.client.discovery()
        await asyncio.to_thread(oidc.pending.start, login.state, login.browser, oidc.clock.now())
    except TooManyPending:
        busy = ServiceUnavailable("too many sign-ins are in progress; try again shortly")
        return pages.refused(busy)
    except GatewayError as exc:
        log.warning("OIDC sign-in could not start: %s", exc.message)
        return pages.refused(exc)
    cfg = oidc.client.config
    url = authorization_url(
        found.authorization_endpoint,
        client_id=cfg.client_id,
        redirect_url=cfg.redirect_url,
        scopes=cfg.scopes,
        login=login,
    )
    response = RedirectResponse(url, status_code=303)
    response.headers["cache-control"] = "no-store"
    response.set_cookie(
        LOGIN_COOKIE,
        login.browser,
        max_age=int(oidc.pending.ttl_s),
        path=COOKIE_PATH,
        httponly=True,
        samesite="lax",
        secure=forms.secure_cookies(request),
    )
    return response


async def callback(request: Request) -> Response:
    oidc = _oidc(request)
    client = client_of(request.scope)
    auth = authenticator(request)
    q = request.query_params
    state, code = q.get("state", ""), q.get("code", "")
    browser = request.cookies.get(LOGIN_COOKIE, "")
    try:
        auth.limiter.check(client)
        if "error" in q:
            await _burn(oidc, state, browser)
            said = q.get("error", "")
            said = said if _ERROR.fullmatch(said) else "unknown"
            raise AuthenticationFailed(f"The identity provider did not sign you in ({said}).")
        if not (_TOKEN.fullmatch(state) and _TOKEN.fullmatch(browser) and _CODE.fullmatch(code)):
            raise AuthenticationFailed(_STALE, code="oidc_state_invalid")
        used = await asyncio.to_thread(oidc.pending.use, state, browser, oidc.clock.now())
        if not used:
            raise AuthenticationFailed(_STALE, code="oidc_state_invalid")
        login = LoginSecrets(browser, state)
        token = await oidc.client.exchange(code, login.verifier)
        claims = await oidc.client.verify(token, login.nonce)
        mapped = map_claims(claims, oidc.rules)
        if mapped is None:
            raise PermissionDenied(
                "You signed in at the identity provider, but your account is given no role "
                "here (neither the admin scope nor a tenant). Ask an administrator to add "
                "you to the right group.",
                code="oidc_no_role",
            )
        who = auth.oidc_principal(mapped.actor, str(claims["sub"]), mapped.tenant)
        found, cookie = await auth.open_session(who)
    except GatewayError as exc:
        if exc.status == 401:
            auth.limiter.failed(client)
        log.warning("OIDC sign-in refused: %s", exc.message)
        return _ended(pages.refused(exc), request)
    body = pages.template("signed_in.html").substitute(actor=escape(found.actor))
    response = _ended(pages.html(body), request)
    forms.set_session_cookie(response, request, cookie, auth.session_ttl_s)
    return response


async def _burn(oidc: OidcSignIn, state: str, browser: str) -> None:
    """An issuer's refusal still uses up the sign-in it answers."""
    if _TOKEN.fullmatch(state) and _TOKEN.fullmatch(browser):
        await asyncio.to_thread(oidc.pending.use, state, browser, oidc.clock.now())


def _ended(response: Response, request: Request) -> Response:
    """The pre-session cookie goes, whatever the outcome; the callback's URL (with its code)
    is never sent on as a Referer."""
    response.delete_cookie(
        LOGIN_COOKIE,
        path=COOKIE_PATH,
        httponly=True,
        samesite="lax",
        secure=forms.secure_cookies(request),
    )
    response.headers["referrer-policy"] = "no-referrer"
    return response


def build_router() -> APIRouter:
    router = APIRouter()
    router.add_api_route("/admin/login/oidc", start, methods=["GET"])
    router.add_api_route("/admin/oidc/callback", callback, methods=["GET"])
    return router
