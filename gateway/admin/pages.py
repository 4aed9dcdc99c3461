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

# scripts only from this server (no inline script, no eval); styles from this server too; the
# editor fetches the policy's JSON Schema from this server
CONSOLE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
_JS = "text/javascript; charset=utf-8"
_CSS = "text/css; charset=utf-8"
# name in the URL -> (file under static/, media type); CodeMirror is vendored from npm by
# scripts/vendor-codemirror.sh (its licence is served beside it)
STATIC = {
    "console.css": ("console.css", _CSS),
    "editor.js": ("editor.js", _JS),
    "codemirror.js": ("vendor/codemirror.js", _JS),
    "codemirror.css": ("vendor/codemirror.css", _CSS),
    "codemirror-yaml.js": ("vendor/codemirror-yaml.js", _JS),
    "codemirror-show-hint.js": ("vendor/codemirror-show-hint.js", _JS),
    "codemirror-show-hint.css": ("vendor/codemirror-show-hint.css", _CSS),
    "CODEMIRROR-LICENSE.txt": ("vendor/CODEMIRROR-LICENSE.txt", "text/plain; charset=utf-8"),
}


def template(name: str) -> Template:
    text = resources.files("gateway.admin").joinpath(f"templates/{name}").read_text("utf-8")
    return Template(text)


def static_file(name: str) -> Response | None:
    found = STATIC.get(name)
    if found is None:
        return None
    path, media = found
    body = resources.files("gateway.admin").joinpath(f"static/{path}").read_bytes()
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
    links = [
        '<a href="/admin/dashboard">Dashboard</a>',
        '<a href="/admin/console/keys" id="keys-link">Keys</a>',
    ]
    if who.is_admin:
        links.append('<a href="/admin/console/policy" id="policy-link">Policy</a>')
    return (
        f'<nav id="nav"><span>signed in as <b>{escape(who.actor)}</b> — {escape(scope)}</span>'
        + "".join(links)
        + '<form method="post" action="/admin/logout" id="logout-form">'
        f'<input type="hidden" name="csrf" value="{escape(who.csrf, quote=True)}">'
        '<button type="submit" id="sign-out">Sign out</button></form></nav>'
    )
