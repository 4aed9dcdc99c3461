"""Key check -> RequestContext. Cheap on the hot path: key records are cached in memory for a
short TTL (so a revocation is seen by every replica within `ttl` seconds) and the database is
read off the event loop only on a cache miss."""

from __future__ import annotations

import asyncio
import hmac
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy.engine import Engine
from starlette.requests import Request

from gateway.core.clock import Clock
from gateway.core.errors import AuthenticationFailed, PermissionDenied
from gateway.core.types import RequestContext
from gateway.usage.keys import PREFIX, KeyInfo, get_key, matches, split_key

ADMIN_SCOPE = "admin"
_MISSING = "missing API key: send 'Authorization: Bearer <key>'"
_INVALID = "invalid API key"  # the same words for unknown, malformed and revoked keys


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
    at: float


class KeyCache:
    def __init__(self, engine: Engine, clock: Clock, *, ttl: float = 5.0,
                 max_entries: int = 10_000) -> None:
        self._engine = engine
        self._clock = clock
        self._ttl = ttl
        self._max = max_entries
        self._entries: OrderedDict[str, _Cached] = OrderedDict()

    async def lookup(self, key_id: str) -> KeyInfo | None:
        now = self._clock.monotonic()
        hit = self._entries.get(key_id)
        if hit is not None and now - hit.at < self._ttl:
            return hit.info
        info = await asyncio.to_thread(get_key, self._engine, key_id)
        self._entries[key_id] = _Cached(info, now)
        self._entries.move_to_end(key_id)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)
        return info


class Authenticator:
    def __init__(self, keys: KeyCache, clock: Clock, *, keys_required: bool,
                 admin_key: str | None = None) -> None:
        self._keys = keys
        self._clock = clock
        self._required = keys_required
        self._admin_key = admin_key

    async def _check(self, token: str) -> KeyInfo:
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
        return await self.context_for(rid, received, bearer(request), _headers(request))

    async def context_for(self, rid: str, received: float, token: str | None,
                          headers: dict[str, str]) -> RequestContext:
        """The request's context from its key (or none) and its non-secret headers."""
        if token is not None and not self._required and not token.startswith(PREFIX):
            # Keys are optional here (loopback only). OpenAI SDKs insist on sending some
            # api_key; a placeholder that is not even shaped like a Geçit key counts as no key.
            # Anything that looks like a Geçit key is checked, so unknown/revoked keys get 401.
            token = None
        if token is None:
            if self._required:
                raise AuthenticationFailed(_MISSING)
            return RequestContext(request_id=rid, received_at=received, headers=headers)
        info = await self._check(token)
        return RequestContext(request_id=rid, tenant=info.tenant, app=info.app, key_id=info.id,
                              received_at=received, headers=headers)

    async def authenticate_admin(self, request: Request) -> str:
        """The admin's identity (key id or 'admin-key'), or 401/403."""
        token = bearer(request)
        if token is None:
            raise AuthenticationFailed(_MISSING)
        if self._admin_key and hmac.compare_digest(token, self._admin_key):
            return "admin-key"
        info = await self._check(token)
        if info.scope != ADMIN_SCOPE:
            raise PermissionDenied("this key has no admin scope")
        return info.id


def _headers(request: Request) -> dict[str, str]:
    """Request headers for the policy (e.g. `x-data-class`), never the credentials."""
    return {k: v for k, v in request.headers.items() if k not in _SECRET_HEADERS}
