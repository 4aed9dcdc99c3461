"""Key check -> RequestContext, and the one way the admin surfaces learn who is asking (a bearer
key or a browser session opened with one). Cheap on the hot path: key records are cached in
memory for a short TTL (so a revocation is seen by every replica within `ttl` seconds) and the
database is read off the event loop only on a cache miss. While the database cannot be read (a
restart, a failover), a key seen within `stale_s` is still honoured: callers keep being served
instead of every request failing; an unseen key gets 503 with Retry-After, never an unhandled
500.

The admin-scope rule, the same on every admin route: the admin key (`GECIT_ADMIN_KEY`) or a key
whose scope is `admin` reads every tenant and edits the policy; any other valid key reads only
its own tenant. A browser session carries the scope of the key it was opened with, and ends when
that key is revoked (or the admin key changes), when it expires, or at sign-out. A session an
OIDC issuer vouched for (`admin/oidc_routes.py`) carries the scope its claims map to and ends
the same ways, or when OIDC is turned off or pointed at another issuer."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import math
from collections import OrderedDict, deque
from dataclasses import dataclass, replace

from sqlalchemy.engine import Engine
from starlette.requests import Request

from gateway.core.clock import Clock
from gateway.core.errors import (
    AuthenticationFailed,
    PermissionDenied,
    RateLimited,
    ServiceUnavailable,
)
from gateway.core.types import RequestContext
from gateway.usage.keys import ADMIN_SCOPE, PREFIX, KeyInfo, get_key, matches, split_key
from gateway.usage.sessions import SessionStore

log = logging.getLogger("gateway.auth")

ADMIN_ACTOR = "admin"  # who the admin key is in the policy history and the audit chain
SESSION_COOKIE = "gecit_session"
CSRF_HEADER = "x-csrf-token"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_MISSING = "missing API key: send 'Authorization: Bearer <key>'"
_INVALID = "invalid API key"  # the same words for unknown, malformed and revoked keys
_SESSION_OVER = "the session has ended or expired: sign in again at /admin/login"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is asking on an admin surface. `tenant` None is the admin scope (every tenant, the
    policy); `csrf` is set when the credential was a session cookie, whose unsafe requests
    must carry that token."""

    actor: str  # ADMIN_ACTOR or the key id
    key_id: str  # the key id, or the admin key's fingerprint ("admin-key:<hex>")
    tenant: str | None
    csrf: str | None = None

    @property
    def is_admin(self) -> bool:
        return self.tenant is None


def bearer(request: Request) -> str | None:
    return bearer_of(request.headers.get("authorization"), request.headers.get("x-api-key"))


def bearer_of(authorization: str | None, api_key: str | None) -> str | None:
    """The key from `Authorization: Bearer <key>`, else from `x-api-key`."""
    if authorization:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip()
    return api_key.strip() if api_key else None


_SECRET_HEADERS = frozenset({"authorization", "x-api-key", "cookie", "proxy-authorization"})


def split_headers(raw: list[tuple[bytes, bytes]]) -> tuple[str | None, dict[str, str]]:
    """One pass over the ASGI headers: (the key, if any) and the headers the policy may see
    (never the credentials). As Starlette's `Headers`: names and values decoded as latin-1,
    the first `authorization`/`x-api-key` counts, a later duplicate of any other name wins."""
    authorization = api_key = None
    out: dict[str, str] = {}
    for k, v in raw:
        name = k.decode("latin-1")
        if name in _SECRET_HEADERS:
            if name == "authorization":
                if authorization is None:
                    authorization = v.decode("latin-1")
            elif name == "x-api-key" and api_key is None:
                api_key = v.decode("latin-1")
            continue
        out[name] = v.decode("latin-1")
    return bearer_of(authorization, api_key), out


@dataclass(slots=True)
class _Cached:
    info: KeyInfo | None
    at: float  # when the record was read from the database
    tried: float  # the last look-up, answered or not: the TTL runs from it


class KeyCache:
    def __init__(
        self,
        engine: Engine,
        clock: Clock,
        *,
        ttl: float = 5.0,
        stale_s: float = 300.0,
        max_entries: int = 10_000,
    ) -> None:
        self._engine = engine
        self._clock = clock
        self._ttl = ttl
        self._stale = stale_s
        self._max = max_entries
        self._entries: OrderedDict[str, _Cached] = OrderedDict()

    async def lookup(self, key_id: str) -> KeyInfo | None:
        now = self._clock.monotonic()
        hit = self._entries.get(key_id)
        if hit is not None and now - hit.tried < self._ttl:
            return hit.info
        try:
            info = await asyncio.to_thread(get_key, self._engine, key_id)
        except Exception as exc:
            return self._unreadable(hit, now, exc)
        self._entries[key_id] = _Cached(info, now, now)
        self._entries.move_to_end(key_id)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)
        return info

    def _unreadable(self, hit: _Cached | None, now: float, exc: Exception) -> KeyInfo | None:
        """The key database failed: the last record read within `stale_s` stands in (asked
        again after the TTL, so requests do not queue on a dead database; it expires
        `stale_s` after it was read), else 503 (the caller may retry; nothing was decided
        about the key)."""
        log.warning("key look-up failed (%s)", type(exc).__name__)
        if hit is not None and now - hit.at < self._stale:
            hit.tried = now
            return hit.info
        raise ServiceUnavailable(
            "the key store is unreachable; retry shortly",
            code="key_store_unavailable",
            headers={"retry-after": "1"},
        ) from None


def as_bytes(text: str) -> bytes:
    """A header value back as the bytes that came in (Starlette and `split_headers` decode
    them as latin-1); any other text (a key from the environment) as UTF-8."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


def _printable_ascii(token: str) -> bool:
    return token.isascii() and token.isprintable() and " " not in token


class FailedAuthLimiter:
    """Failed key checks per client address within a sliding window; past `limit`, that
    address gets 429 until its oldest failure leaves the window. Keeps at most `max_clients`
    addresses (least recently failing dropped first), so a flood of addresses is bounded."""

    def __init__(
        self, clock: Clock, limit: int, *, window_s: float = 60.0, max_clients: int = 10_000
    ) -> None:
        self._clock = clock
        self._limit = limit
        self._window = window_s
        self._max = max_clients
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def check(self, client: str | None) -> None:
        """Raise 429 (with Retry-After) when `client` has failed too often lately."""
        if client is None:
            return
        times = self._failures.get(client)
        if times is None:
            return
        now = self._clock.monotonic()
        while times and now - times[0] >= self._window:
            times.popleft()
        if len(times) >= self._limit:
            wait = max(1, math.ceil(times[0] + self._window - now))
            raise RateLimited(
                "too many failed authentication attempts from this address",
                code="too_many_auth_failures",
                headers={"retry-after": str(wait)},
            )

    def failed(self, client: str | None) -> None:
        if client is None:
            return
        times = self._failures.get(client)
        if times is None:
            times = self._failures[client] = deque()
        times.append(self._clock.monotonic())
        if len(times) > self._limit:
            times.popleft()
        self._failures.move_to_end(client)
        while len(self._failures) > self._max:
            self._failures.popitem(last=False)


class Authenticator:
    def __init__(
        self,
        keys: KeyCache,
        clock: Clock,
        *,
        keys_required: bool,
        admin_key: str | None = None,
        metrics_key: str | None = None,
        limiter: FailedAuthLimiter | None = None,
        sessions: SessionStore | None = None,
        oidc_issuer: str | None = None,
    ) -> None:
        self._keys = keys
        self._clock = clock
        self._required = keys_required
        self._admin_key = as_bytes(admin_key) if admin_key else None
        self._admin_print = _fingerprint(self._admin_key) if self._admin_key else None
        self._sessions = sessions
        self._oidc_print = oidc_prefix(oidc_issuer) if oidc_issuer else None
        self._metrics_key = as_bytes(metrics_key) if metrics_key else None
        self._limiter = limiter or FailedAuthLimiter(clock, 30)

    @property
    def keys_required(self) -> bool:
        return self._required

    @property
    def limiter(self) -> FailedAuthLimiter:
        return self._limiter

    async def authorize_metrics(self, request: Request) -> None:
        """`/metrics` names tenants and their budgets: when keys are required it needs the
        metrics key, the admin key or an admin-scoped key (401/403/429 otherwise). Keyless
        (loopback) gateways serve it like every other route."""
        if not self._required:
            return
        token, client = bearer(request), client_of(request.scope)
        self._limiter.check(client)
        if (
            token is not None
            and self._metrics_key is not None
            and hmac.compare_digest(as_bytes(token), self._metrics_key)
        ):
            return
        await self.admin_of(token, client)

    async def _check(self, token: str) -> KeyInfo:
        if not _printable_ascii(token):  # keys are ASCII: anything else is not one of ours
            raise AuthenticationFailed(_INVALID)
        parts = split_key(token)
        if parts is None:
            raise AuthenticationFailed(_INVALID)
        info = await self._keys.lookup(parts[0])
        if info is None or not info.active or not matches(info, parts[1]):
            raise AuthenticationFailed(_INVALID)
        return info

    async def authenticate(self, request: Request) -> RequestContext:
        state = request.scope.get("state", {})
        rid = state.get("request_id", "")
        received = state.get("received_at", self._clock.monotonic())
        return await self.context_for(
            rid, received, bearer(request), _headers(request), client_of(request.scope)
        )

    async def context_for(
        self,
        rid: str,
        received: float,
        token: str | None,
        headers: dict[str, str],
        client: str | None = None,
    ) -> RequestContext:
        """The request's context from its key (or none) and its non-secret headers; `client`
        (the peer address) is what failed checks are counted against."""
        if token is not None and not self._required and not token.startswith(PREFIX):
            # Keys are optional here (loopback only). OpenAI SDKs insist on sending some
            # api_key; a placeholder that is not even shaped like a Geçit key counts as no key.
            # Anything that looks like a Geçit key is checked, so unknown/revoked keys get 401.
            token = None
        if token is None:
            if self._required:
                self._limiter.check(client)
                self._limiter.failed(client)
                raise AuthenticationFailed(_MISSING)
            return RequestContext(request_id=rid, received_at=received, headers=headers)
        info = await self._checked(token, client)
        return RequestContext(
            request_id=rid,
            tenant=info.tenant,
            app=info.app,
            key_id=info.id,
            received_at=received,
            headers=headers,
        )

    async def _checked(self, token: str, client: str | None) -> KeyInfo:
        """`_check`, refused outright while `client` is over its failure limit; a failure
        counts against it."""
        self._limiter.check(client)
        try:
            return await self._check(token)
        except AuthenticationFailed:
            self._limiter.failed(client)
            raise

    async def authenticate_admin(self, request: Request) -> str:
        """The admin's identity (key id or 'admin'), or 401/403."""
        return await self.admin_of(bearer(request), client_of(request.scope))

    async def admin_of(self, token: str | None, client: str | None) -> str:
        found = await self.principal_of(token, client)
        if not found.is_admin:
            raise PermissionDenied("this key has no admin scope")
        return found.actor

    async def principal_of(self, token: str | None, client: str | None) -> Principal:
        """Who a key is (the admin-scope rule in one place), or 401/429."""
        self._limiter.check(client)  # before the admin key is compared: no guessing it
        if token is None:
            self._limiter.failed(client)
            raise AuthenticationFailed(_MISSING)
        if self._admin_key and hmac.compare_digest(as_bytes(token), self._admin_key):
            assert self._admin_print is not None
            return Principal(ADMIN_ACTOR, self._admin_print, None)
        info = await self._checked(token, client)
        return Principal(info.id, info.id, None if info.scope == ADMIN_SCOPE else info.tenant)

    async def principal(self, request: Request, csrf: str | None = None) -> Principal:
        """Who asks on an admin route: a bearer key, else the session cookie. A request that
        changes something on a session's behalf must carry its CSRF token (`csrf`, from the
        form, or the `x-csrf-token` header): 403 otherwise."""
        token, client = bearer(request), client_of(request.scope)
        cookie = request.cookies.get(SESSION_COOKIE)
        if token is not None or not cookie:
            return await self.principal_of(token, client)
        found = await self.session_principal(cookie, client)
        if request.method not in _SAFE_METHODS:
            given = csrf if csrf is not None else request.headers.get(CSRF_HEADER, "")
            if not (found.csrf and hmac.compare_digest(as_bytes(given), as_bytes(found.csrf))):
                raise PermissionDenied("missing or invalid CSRF token", code="csrf_failed")
        return found

    async def session_principal(self, cookie: str, client: str | None) -> Principal:
        """The session's principal while it lives and its key is still valid, else 401."""
        self._limiter.check(client)
        store = self._sessions
        info = None
        if store is not None and _printable_ascii(cookie) and len(cookie) <= 128:
            info = await asyncio.to_thread(store.find, cookie, self._clock.now())
        if info is None or not await self._key_still_valid(info.key_id):
            self._limiter.failed(client)
            raise AuthenticationFailed(_SESSION_OVER, code="session_ended")
        return Principal(info.actor, info.key_id, info.tenant, info.csrf)

    async def _key_still_valid(self, key_id: str) -> bool:
        if key_id.startswith("admin-key:"):  # a changed admin key ends its sessions
            return self._admin_print is not None and hmac.compare_digest(key_id, self._admin_print)
        if key_id.startswith(OIDC_PREFIX):  # OIDC turned off or another issuer ends them
            return self._oidc_print is not None and key_id.startswith(self._oidc_print)
        key = await self._keys.lookup(key_id)
        return key is not None and key.active

    async def sign_in(self, token: str | None, client: str | None) -> tuple[Principal, str]:
        """Open a session for a valid key: (its principal, with the CSRF token; the cookie's
        token). 401/429 as for the key itself."""
        return await self.open_session(await self.principal_of(token, client))

    async def open_session(self, found: Principal) -> tuple[Principal, str]:
        """The one way a browser session starts, whoever vouched for `found` (a key, or an
        OIDC issuer through `oidc_principal`): (the principal with its CSRF token, the
        cookie's token)."""
        if self._sessions is None:
            raise PermissionDenied("sign-in is not available here", code="sessions_off")
        cookie, csrf = await asyncio.to_thread(
            self._sessions.create, found.actor, found.key_id, found.tenant, self._clock.now()
        )
        return replace(found, csrf=csrf), cookie

    def oidc_principal(self, actor: str, subject: str, tenant: str | None) -> Principal:
        """Who an OIDC user is here: their sessions' key id ties them to this issuer (a
        changed issuer or OIDC turned off ends them) and bounds them per user."""
        if self._oidc_print is None:
            raise PermissionDenied("OIDC sign-in is off", code="oidc_off")
        user = hashlib.sha256(subject.encode("utf-8")).hexdigest()[:24]
        return Principal(actor, self._oidc_print + user, tenant)

    async def sign_out(self, cookie: str | None) -> None:
        if cookie and self._sessions is not None and _printable_ascii(cookie):
            await asyncio.to_thread(self._sessions.end, cookie, self._clock.now())

    @property
    def session_ttl_s(self) -> float:
        return self._sessions.ttl_s if self._sessions is not None else 0.0


def _fingerprint(admin_key: bytes) -> str:
    """What a session opened with the admin key stores to tell whether that key still holds:
    a slow hash, so a copy of the ledger does not make a weak admin key cheap to guess."""
    digest = hashlib.pbkdf2_hmac("sha256", admin_key, b"gecit-admin-session", 100_000)
    return "admin-key:" + digest[:8].hex()


OIDC_PREFIX = "oidc:"


def oidc_prefix(issuer: str) -> str:
    """The start of the key id of every session an issuer opened ("oidc:<hex>:")."""
    return f"{OIDC_PREFIX}{hashlib.sha256(issuer.encode('utf-8')).hexdigest()[:12]}:"


def client_of(scope: dict[str, object] | object) -> str | None:
    """The peer address of an ASGI scope (None when the server gives none)."""
    client = scope.get("client") if isinstance(scope, dict) else None
    if isinstance(client, (tuple, list)) and client:
        return str(client[0])
    return None


def _headers(request: Request) -> dict[str, str]:
    """Request headers for the policy (e.g. `x-data-class`), never the credentials."""
    return {k: v for k, v in request.headers.items() if k not in _SECRET_HEADERS}
