"""The secrets of one OIDC sign-in, all from two random values: the browser's pre-session token
(in an HttpOnly cookie, never sent to the issuer) and the `state` (sent to the issuer). The PKCE
verifier and the nonce are HMACs of the state under the browser token, so the server stores
neither (only hashes, `usage/oidc_logins.py`) and only the browser that started a sign-in can
finish it. Pure functions."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _derive(browser: str, label: str, state: str) -> str:
    mac = hmac.new(browser.encode("utf-8"), f"{label}:{state}".encode(), hashlib.sha256)
    return _b64(mac.digest())


@dataclass(frozen=True, slots=True)
class LoginSecrets:
    browser: str  # the pre-session cookie's value
    state: str

    @classmethod
    def new(cls) -> LoginSecrets:
        return cls(secrets.token_urlsafe(32), secrets.token_urlsafe(32))

    @property
    def verifier(self) -> str:
        """PKCE code_verifier: 43 characters of base64url (RFC 7636 allows 43 to 128)."""
        return _derive(self.browser, "pkce", self.state)

    @property
    def challenge(self) -> str:
        """S256: base64url(SHA-256(verifier)), no padding."""
        return _b64(hashlib.sha256(self.verifier.encode("ascii")).digest())

    @property
    def nonce(self) -> str:
        return _derive(self.browser, "nonce", self.state)


def authorization_url(
    endpoint: str, *, client_id: str, redirect_url: str, scopes: str, login: LoginSecrets
) -> str:
    """The issuer's authorization endpoint with the code flow's parameters (its own query, if
    it has one, kept)."""
    query = urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_url,
            "scope": scopes,
            "state": login.state,
            "nonce": login.nonce,
            "code_challenge": login.challenge,
            "code_challenge_method": "S256",
        }
    )
    return f"{endpoint}{'&' if '?' in endpoint else '?'}{query}"
