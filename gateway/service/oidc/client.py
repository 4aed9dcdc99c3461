"""The relying party's side of OIDC: the issuer's discovery document and JWKS (fetched through
the bounded `IssuerHttp`, kept `cache_ttl_s`; an unknown key id fetches the JWKS again at
most every `jwks_refresh_s`), the code exchange at the token endpoint (with the PKCE
verifier, the client secret sent only there) and the ID token's checks (`tokens.py`)."""

from __future__ import annotations

import asyncio
import base64
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import jwt

from gateway.core.clock import Clock
from gateway.service.oidc import tokens as oidc_tokens
from gateway.service.oidc.http import IssuerError, IssuerHttp
from gateway.service.oidc.tokens import Expectation, TokenRefused
from gateway.settings import secure_url


@dataclass(frozen=True, slots=True)
class OidcConfig:
    issuer: str
    client_id: str
    client_secret: str | None = field(repr=False)  # from the variable the settings name
    redirect_url: str
    scopes: str
    cache_ttl_s: float
    jwks_refresh_s: float
    skew_s: float


@dataclass(frozen=True, slots=True)
class Discovery:
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    auth_methods: tuple[str, ...]


def parse_discovery(doc: dict[str, Any], issuer: str) -> Discovery:
    """The endpoints of a discovery document, checked: its `issuer` is exactly ours (OIDC
    Discovery 4.3), every endpoint https, and PKCE S256 offered if it lists its methods."""
    if doc.get("issuer") != issuer:
        raise IssuerError("the discovery document names another issuer")
    urls = {}
    for name in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        value = doc.get(name)
        if not isinstance(value, str) or len(value) > 2048 or not secure_url(value):
            raise IssuerError(f"the discovery document's {name} is missing or not https")
        urls[name] = value
    methods = doc.get("code_challenge_methods_supported")
    if isinstance(methods, list) and "S256" not in methods:
        raise IssuerError("the issuer does not offer PKCE with S256")
    auth = doc.get("token_endpoint_auth_methods_supported")
    auth_methods = tuple(m for m in auth if isinstance(m, str)) if isinstance(auth, list) else ()
    return Discovery(**urls, auth_methods=auth_methods)


class OidcClient:
    def __init__(self, http: IssuerHttp, config: OidcConfig, clock: Clock) -> None:
        self._http = http
        self.config = config
        self._clock = clock
        self._discovery: tuple[float, Discovery] | None = None
        self._jwks: tuple[float, list[jwt.PyJWK]] | None = None
        self._lock = asyncio.Lock()  # one fetch at a time: a burst of sign-ins fetches once

    async def discovery(self) -> Discovery:
        now = self._clock.monotonic()
        cached = self._discovery
        if cached is not None and now - cached[0] < self.config.cache_ttl_s:
            return cached[1]
        async with self._lock:
            cached = self._discovery
            if cached is not None and now - cached[0] < self.config.cache_ttl_s:
                return cached[1]
            url = self.config.issuer.rstrip("/") + "/.well-known/openid-configuration"
            found = parse_discovery(await self._http.get_json("discovery", url), self.config.issuer)
            self._discovery = (self._clock.monotonic(), found)
            return found

    async def _keys(self, *, refresh: bool) -> list[jwt.PyJWK]:
        now = self._clock.monotonic()
        cached = self._jwks
        if cached is not None:
            age = now - cached[0]
            fresh = age < self.config.cache_ttl_s
            if (fresh and not refresh) or (refresh and age < self.config.jwks_refresh_s):
                return cached[1]
        where = (await self.discovery()).jwks_uri
        async with self._lock:
            if self._jwks is not None and self._jwks is not cached:
                return self._jwks[1]  # another sign-in fetched them meanwhile
            keys = oidc_tokens.key_set(await self._http.get_json("JWKS", where))
            self._jwks = (self._clock.monotonic(), keys)
            return keys

    async def exchange(self, code: str, verifier: str) -> str:
        """The ID token for an authorization code (sent with its PKCE verifier)."""
        found = await self.discovery()
        cfg = self.config
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": cfg.redirect_url,
            "code_verifier": verifier,
        }
        headers: dict[str, str] = {}
        if cfg.client_secret is None:
            form["client_id"] = cfg.client_id  # a public client: PKCE is its proof
        elif found.auth_methods and "client_secret_basic" not in found.auth_methods:
            form["client_id"], form["client_secret"] = cfg.client_id, cfg.client_secret
        else:  # client_secret_basic, the default (RFC 6749 2.3.1: both form-urlencoded)
            pair = f"{quote(cfg.client_id, safe='')}:{quote(cfg.client_secret, safe='')}"
            headers["authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
        answer = await self._http.post_form("token endpoint", found.token_endpoint, form, headers)
        token = answer.get("id_token")
        if not isinstance(token, str):
            raise IssuerError("the issuer's token endpoint answered without an ID token")
        return token

    async def verify(self, token: str, nonce: str) -> dict[str, Any]:
        """The claims of a valid ID token for this sign-in, else `TokenRefused`."""
        alg, kid = oidc_tokens.unverified_kid(token)
        key = oidc_tokens.pick_key(await self._keys(refresh=False), alg, kid)
        if key is None:  # the issuer may have rotated its keys since they were fetched
            key = oidc_tokens.pick_key(await self._keys(refresh=True), alg, kid)
        if key is None:
            raise TokenRefused("the ID token is signed by a key the issuer does not publish")
        want = Expectation(
            issuer=self.config.issuer,
            client_id=self.config.client_id,
            nonce=nonce,
            now=self._clock.now(),
            skew_s=self.config.skew_s,
        )
        return oidc_tokens.validate(token, key, alg, want)
