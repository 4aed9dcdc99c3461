"""HTML responses of the admin console: templates and static files from the package (nothing
from elsewhere), their Content-Security-Policy, the navigation bar and the pages that say
"sign in" or "not allowed". Pure rendering; no I/O but reading package files."""

from __future__ import annotations

from html import escape
from importlib import resources
from string import Template

from starlette.responses import HTMLResponse, Response

from gateway.core.errors import GatewayError
from gateway.openai_api.auth import Principal

# scripts only from this server (no inline script, no eval); styles from this server too
CONSOLE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
STATIC = {"console.css": "text/css; charset=utf-8", "editor.js": "text/javascript; charset=utf-8"}


def template(name: str) -> Template:
    text = resources.files("gateway.admin").joinpath(f"templates/{name}").read_text("utf-8")
    return Template(text)


def static_file(name: str) -> Response | None:
    media = STATIC.get(name)
    if media is None:
        return None
    body = resources.files("gateway.admin").joinpath(f"static/{name}").read_bytes()
    return Response(
        body,
        media_type=media,
        headers={"cache-control": "no-cache", "x-content-type-options": "nosniff"},
    )


def html(body: str, status: int = 200, csp: str = CONSOLE_CSP) -> HTMLResponse:
    return HTMLResponse(
        body,
        status_code=status,
        headers={
            "cache-control": "no-store",
            "content-security-policy": csp,
            "x-frame-options": "DENY",
            "referrer-policy": "same-origin",
            "x-content-type-options": "nosniff",
        },
    )


def refused(exc: GatewayError) -> HTMLResponse:
    """A page for a browser that is not signed in (401), not allowed (403) or throttled."""
    titles = {
        401: "Sign in required",
        403: "Not allowed",
        429: "Too many attempts",
        502: "Identity provider unavailable",
        503: "Try again shortly",
    }
    title = titles.get(exc.status, "Refused")
    body = template("message.html").substitute(title=escape(title), text=escape(exc.message))
    response = html(body, exc.status)
    for k, v in exc.headers.items():
        response.headers[k] = v
    return response


def nav(who: Principal | None) -> str:
    """Who is signed in, the pages they may open and the sign-out form (with its CSRF token);
    empty for a bearer-key caller (no session to end)."""
    if who is None or who.csrf is None:
        return ""
    scope = "admin (all tenants)" if who.is_admin else f"tenant {who.tenant}"
    links = ['<a href="/admin/dashboard">Dashboard</a>']
    if who.is_admin:
        links.append('<a href="/admin/console/policy" id="policy-link">Policy</a>')
    return (
        f'<nav id="nav"><span>signed in as <b>{escape(who.actor)}</b> — {escape(scope)}</span>'
        + "".join(links)
        + '<form method="post" action="/admin/logout" id="logout-form">'
        f'<input type="hidden" name="csrf" value="{escape(who.csrf, quote=True)}">'
        '<button type="submit" id="sign-out">Sign out</button></form></nav>'
    )
