"""Browser sign-in for the admin pages: `GET/POST /admin/login`, `POST /admin/logout` and the
console's static files. A key typed into the form opens a server-side session (the one
authenticator decides who the key is); the browser gets only an opaque, HttpOnly, SameSite=Strict
cookie. Every form carries a CSRF token; a POST without the right one is refused with 403."""

from __future__ import annotations

import secrets
from html import escape

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from gateway.admin import forms, pages
from gateway.admin.auth import authenticator, principal
from gateway.core.errors import GatewayError, InvalidRequest
from gateway.openai_api.auth import SESSION_COOKIE, client_of


def _login_page(request: Request, message: str = "", status: int = 200) -> Response:
    csrf = secrets.token_urlsafe(32)
    shown = f'<div class="error" id="login-error">{escape(message)}</div>' if message else ""
    sso = ""
    if request.app.state.runtime.oidc is not None:
        sso = '<p><a href="/admin/login/oidc" id="sign-in-oidc">Sign in with single sign-on</a></p>'
    body = pages.template("login.html").substitute(
        csrf=escape(csrf, quote=True), message=shown, oidc=sso
    )
    response = pages.html(body, status)
    forms.set_login_csrf(response, request, csrf)
    return response


def build_router() -> APIRouter:
    router = APIRouter()

    @router.get("/admin/login")
    async def login_form(request: Request) -> Response:
        return _login_page(request)

    @router.post("/admin/login")
    async def login(request: Request) -> Response:
        try:
            form = await forms.read_form(request)
            forms.check_login_csrf(request, form)
            key = form.get("key", "").strip() or None
            _who, cookie = await authenticator(request).sign_in(key, client_of(request.scope))
        except GatewayError as exc:
            if exc.status == 401:
                return _login_page(request, "That key was not accepted.", 401)
            return pages.refused(exc)
        response = RedirectResponse("/admin/dashboard", status_code=303)
        ttl = authenticator(request).session_ttl_s
        forms.set_session_cookie(response, request, cookie, ttl)
        return response

    @router.post("/admin/logout")
    async def logout(request: Request) -> Response:
        try:
            form = await forms.read_form(request)
            await principal(request, form.get("csrf", ""))  # a live session and its token
        except GatewayError as exc:
            return pages.refused(exc)
        await authenticator(request).sign_out(request.cookies.get(SESSION_COOKIE))
        response = RedirectResponse("/admin/login", status_code=303)
        forms.clear_session_cookie(response, request)
        return response

    @router.get("/admin/static/{name}")
    async def static(name: str) -> Response:
        found = pages.static_file(name)
        if found is None:
            raise InvalidRequest("no such file", status=404, code="not_found")
        return found

    return router
