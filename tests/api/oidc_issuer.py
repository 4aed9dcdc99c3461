"""A small OpenID Connect issuer on 127.0.0.1 for the admin console's OIDC tests: discovery,
JWKS, an authorize endpoint that signs in whoever the test names (no login form) and a token
endpoint that checks the client's secret, the redirect URI, the code (once) and the PKCE
verifier against the S256 challenge, then signs an ID token with its generated RSA key. Knobs
make it misbehave one way at a time (a claim overridden, a foreign signing key, a discovery
document changed or padded), and it counts what it checked."""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from gateway.emulators.base import EmulatorServer, free_port

CLIENT_ID = "gecit-console"
CLIENT_SECRET = "issuer-test-client-secret-3f9a"
KID = "test-key-1"


def _rsa() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass
class Grant:
    challenge: str
    nonce: str
    redirect_uri: str
    claims: dict[str, Any]


@dataclass
class LocalIssuer:
    """The issuer's state; `user` is who the next authorization signs in."""

    url: str
    redirect_uri: str
    key: rsa.RSAPrivateKey = field(default_factory=_rsa)
    kid: str = KID
    user: dict[str, Any] = field(default_factory=dict)
    tamper: dict[str, Any] = field(default_factory=dict)  # claims overridden in the ID token
    foreign_key: bool = False  # sign with a key the JWKS does not publish (same kid)
    discovery_extra: dict[str, Any] = field(default_factory=dict)
    pad_discovery: int = 0  # bytes of padding added to the discovery document
    # how the client proves itself at the token endpoint: client_secret_basic,
    # client_secret_post, or none (a public client: PKCE alone)
    client_auth: str = "client_secret_basic"
    grants: dict[str, Grant] = field(default_factory=dict)
    pkce_passed: int = 0
    pkce_failed: int = 0
    token_calls: int = 0
    discovery_calls: int = 0
    jwks_calls: int = 0

    def rotate(self) -> None:
        """A new signing key under a new key id; the old one is no longer published."""
        self.key, self.kid = _rsa(), f"key-{secrets.token_hex(4)}"

    def discovery(self, _r: Request) -> Response:
        self.discovery_calls += 1
        doc: dict[str, Any] = {
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/authorize",
            "token_endpoint": f"{self.url}/token",
            "jwks_uri": f"{self.url}/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": [self.client_auth],
            **self.discovery_extra,
        }
        if self.pad_discovery:
            doc["padding"] = "x" * self.pad_discovery
        return JSONResponse(doc)

    def jwks(self, _r: Request) -> Response:
        self.jwks_calls += 1
        public = jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key(), as_dict=True)
        return JSONResponse({"keys": [{**public, "kid": self.kid, "use": "sig", "alg": "RS256"}]})

    def authorize(self, r: Request) -> Response:
        q = r.query_params
        wrong = [
            name
            for name, ok in (
                ("response_type", q.get("response_type") == "code"),
                ("client_id", q.get("client_id") == CLIENT_ID),
                ("redirect_uri", q.get("redirect_uri") == self.redirect_uri),
                ("scope", "openid" in q.get("scope", "").split()),
                ("code_challenge_method", q.get("code_challenge_method") == "S256"),
                ("code_challenge", len(q.get("code_challenge", "")) == 43),
                ("nonce", bool(q.get("nonce"))),
                ("state", bool(q.get("state"))),
            )
            if not ok
        ]
        if wrong:
            return JSONResponse({"error": "invalid_request", "wrong": wrong}, status_code=400)
        code = secrets.token_urlsafe(24)
        self.grants[code] = Grant(
            q["code_challenge"], q["nonce"], q["redirect_uri"], dict(self.user)
        )
        back = urlencode({"code": code, "state": q["state"]})
        return RedirectResponse(f"{self.redirect_uri}?{back}", status_code=302)

    async def token(self, r: Request) -> Response:
        self.token_calls += 1
        form = dict(parse_qsl((await r.body()).decode("utf-8")))
        if not self._client_ok(r, form):
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        if form.get("grant_type") != "authorization_code":
            return JSONResponse({"error": "unsupported_grant_type"}, status_code=400)
        grant = self.grants.pop(form.get("code", ""), None)  # a code works once
        if grant is None or form.get("redirect_uri") != grant.redirect_uri:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        if _s256(form.get("code_verifier", "")) != grant.challenge:
            self.pkce_failed += 1
            return JSONResponse({"error": "invalid_grant", "why": "pkce"}, status_code=400)
        self.pkce_passed += 1
        return JSONResponse(
            {
                "access_token": secrets.token_urlsafe(24),
                "token_type": "Bearer",
                "expires_in": 300,
                "id_token": self.id_token(grant),
            }
        )

    def _client_ok(self, r: Request, form: dict[str, str]) -> bool:
        basic = r.headers.get("authorization")
        if self.client_auth == "client_secret_basic":
            expected = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
            return basic == f"Basic {expected}" and "client_secret" not in form
        in_form = form.get("client_id") == CLIENT_ID and basic is None
        if self.client_auth == "client_secret_post":
            return in_form and form.get("client_secret") == CLIENT_SECRET
        return in_form and "client_secret" not in form

    def id_token(self, grant: Grant) -> str:
        now = int(time.time())
        claims = {
            "iss": self.url,
            "aud": CLIENT_ID,
            "iat": now,
            "exp": now + 300,
            "nonce": grant.nonce,
            **grant.claims,
            **self.tamper,
        }
        key = _rsa() if self.foreign_key else self.key
        return jwt.encode(claims, key, algorithm="RS256", headers={"kid": self.kid})

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/.well-known/openid-configuration", self.discovery),
                Route("/jwks", self.jwks),
                Route("/authorize", self.authorize),
                Route("/token", self.token, methods=["POST"]),
            ]
        )


class IssuerServer:
    """The issuer served by uvicorn in a thread (as the vendor emulators are)."""

    def __init__(self, redirect_uri: str, host: str = "127.0.0.1") -> None:
        """`host` names the issuer in its URL (`localhost` makes it another site than a
        gateway at 127.0.0.1, for a browser); it listens on 127.0.0.1 either way."""
        port = free_port()
        self.issuer = LocalIssuer(f"http://{host}:{port}", redirect_uri)
        self._server = EmulatorServer(lambda _state: self.issuer.app(), port=port)

    def __enter__(self) -> LocalIssuer:
        self._server.start()
        return self.issuer

    def __exit__(self, *exc: object) -> None:
        self._server.stop()
