"""Keyless mode's fence: with keys optional (loopback only), every program on this machine can
call the gateway, and so can a web page open in a browser here. Two browser tricks are shut:

- DNS rebinding: a page from `evil.example` whose name now resolves to 127.0.0.1 talks to the
  gateway as its own origin. Its requests still carry `Host: evil.example`, so only a `Host` of
  localhost, 127.0.0.1 or [::1] (any port) is served.
- Cross-site requests: a page may POST `text/plain` (or a form) to 127.0.0.1 without asking
  first. A request body without credentials must be `application/json`, which a browser only
  sends cross-site after a CORS preflight that the gateway never grants. A request carrying
  `Authorization` or `x-api-key` is never a "simple" one, so it passes (the admin API's
  YAML policy upload, for one). The admin console's own forms (`/admin/login`, `/admin/logout`,
  `/admin/console/...`) are the one exception: each carries a CSRF token that the handler checks
  (and the session cookie is SameSite=Strict), so a form from another site is refused there.
"""

from __future__ import annotations

import logging

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from gateway.settings import Settings

log = logging.getLogger("gateway")

LOCAL_HOSTS = frozenset({b"localhost", b"127.0.0.1", b"[::1]"})
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_CREDENTIALS = frozenset({b"authorization", b"x-api-key"})
_FORM = b"application/x-www-form-urlencoded"
# the admin console's forms: their handlers refuse a POST without the CSRF token
CSRF_CHECKED = ("/admin/login", "/admin/logout", "/admin/console/")
KEYLESS_WARNING = (
    "KEYLESS MODE: no API key is required (loopback only). Every request is billed to tenant "
    "'default'; only Host localhost/127.0.0.1/[::1] and JSON bodies are served. Set "
    "GECIT_REQUIRE_KEYS=true (or --require-keys) to require keys."
)


def host_name(host: bytes) -> bytes:
    """The name in a `Host` value without its port: `[::1]:8080` -> `[::1]`."""
    host = host.strip().lower()
    if host.startswith(b"["):
        end = host.find(b"]")
        return host[: end + 1] if end > 0 else host
    return host.partition(b":")[0]


def refusal_of(scope: Scope) -> tuple[int, str, str, str] | None:
    """(status, type, code, message) when keyless mode must not serve this request."""
    host = None
    content_type = b""
    credentials = False
    for name, value in scope["headers"]:
        if name == b"host":
            host = value
        elif name == b"content-type":
            content_type = value
        elif name in _CREDENTIALS:
            credentials = True
    if host is None or host_name(host) not in LOCAL_HOSTS:
        return (
            403,
            "permission_error",
            "host_not_allowed",
            "without API keys only Host localhost, 127.0.0.1 or [::1] is served",
        )
    if scope["method"] in _BODY_METHODS and not credentials:
        media = content_type.partition(b";")[0].strip().lower()
        console_form = media == _FORM and str(scope["path"]).startswith(CSRF_CHECKED)
        if media != b"application/json" and not console_form:
            return (
                415,
                "invalid_request_error",
                "unsupported_media_type",
                "without API keys a request body must be sent as application/json",
            )
    return None


class LocalOnlyGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = refusal_of(scope)
            if refused is not None:
                status, kind, code, message = refused
                body = orjson.dumps(
                    {"error": {"message": message, "type": kind, "param": None, "code": code}}
                )
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def guarded(app: ASGIApp, settings: Settings) -> ASGIApp:
    """`app` as it is served: behind the fence (and announced loudly) in keyless mode."""
    if settings.keys_required:
        return app
    log.warning("%s", KEYLESS_WARNING)
    return LocalOnlyGuard(app)
