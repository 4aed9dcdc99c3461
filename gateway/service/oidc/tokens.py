"""Validate an ID token (OpenID Connect Core 3.1.3.7) against the issuer's keys: an asymmetric
signature by a key of its JWKS (never `none`, never a shared-secret HMAC), `iss` the configured
issuer, `aud` naming this client (and `azp` this client when it is there), `exp`, `iat` and
`nbf` against the injected clock with a small skew, and the nonce of this sign-in. PyJWT checks
the signature and the claims it knows; times are checked here, so a test's clock is the clock.
Pure: no I/O (the keys are given)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

import jwt

from gateway.core.errors import AuthenticationFailed

# asymmetric only: the family each needs of the key (an RSA key never verifies an EC alg)
ALGORITHMS = {
    "RS256": "RSA",
    "RS384": "RSA",
    "RS512": "RSA",
    "PS256": "RSA",
    "PS384": "RSA",
    "PS512": "RSA",
    "ES256": "EC",
    "ES384": "EC",
    "ES512": "EC",
}
MAX_TOKEN_CHARS = 16_384
MAX_KEYS = 50  # a JWKS with more keys is read only this far


class TokenRefused(AuthenticationFailed):
    code = "oidc_token_refused"


@dataclass(frozen=True, slots=True)
class Expectation:
    issuer: str
    client_id: str
    nonce: str
    now: float
    skew_s: float


def unverified_kid(token: str) -> tuple[str, str | None]:
    """(alg, kid) from the token's header, checked before any key is looked up."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
        raise TokenRefused("the ID token is missing or too long")
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise TokenRefused("the ID token is not a signed JWT") from None
    alg, kid = header.get("alg"), header.get("kid")
    if alg not in ALGORITHMS:
        raise TokenRefused("the ID token is not signed with an allowed algorithm")
    return str(alg), kid if isinstance(kid, str) else None


def key_set(jwks: dict[str, Any]) -> list[jwt.PyJWK]:
    """The signing keys of a JWKS document; keys this build cannot use are skipped."""
    raw = jwks.get("keys")
    if not isinstance(raw, list):
        return []
    out = []
    for item in raw[:MAX_KEYS]:
        if not isinstance(item, dict) or item.get("use", "sig") != "sig":
            continue
        try:
            out.append(jwt.PyJWK(item))
        except (jwt.PyJWTError, ValueError, TypeError, KeyError):
            continue
    return out


def pick_key(keys: list[jwt.PyJWK], alg: str, kid: str | None) -> jwt.PyJWK | None:
    family = ALGORITHMS[alg]
    for key in keys:
        if key.key_type != family:
            continue
        if kid is not None and key.key_id != kid:
            continue
        if kid is None and len([k for k in keys if k.key_type == family]) != 1:
            return None  # no kid and several candidate keys: ambiguous, refused
        return key
    return None


def validate(token: str, key: jwt.PyJWK, alg: str, want: Expectation) -> dict[str, Any]:
    """The token's claims when every check holds, else `TokenRefused` naming the check (never
    the token or its claims)."""
    try:
        claims: dict[str, Any] = jwt.decode(
            token,
            key.key,
            algorithms=[alg],
            audience=want.client_id,
            issuer=want.issuer,
            options={
                "require": ["iss", "sub", "aud", "exp", "iat"],
                "verify_exp": False,
                "verify_iat": False,
                "verify_nbf": False,
            },
        )
    except jwt.InvalidSignatureError:
        raise TokenRefused("the ID token's signature does not verify") from None
    except jwt.InvalidAudienceError:
        raise TokenRefused("the ID token is not for this gateway (aud)") from None
    except jwt.InvalidIssuerError:
        raise TokenRefused("the ID token is from another issuer (iss)") from None
    except jwt.MissingRequiredClaimError as exc:
        raise TokenRefused(f"the ID token lacks the {exc.claim} claim") from None
    except jwt.PyJWTError:
        raise TokenRefused("the ID token could not be read") from None
    _check_times(claims, want)
    azp = claims.get("azp")
    if azp is not None and azp != want.client_id:
        raise TokenRefused("the ID token was issued to another client (azp)")
    nonce = claims.get("nonce")
    if not isinstance(nonce, str) or not hmac.compare_digest(
        nonce.encode("utf-8"), want.nonce.encode("utf-8")
    ):
        raise TokenRefused("the ID token's nonce is not this sign-in's")
    return claims


def _number(claims: dict[str, Any], name: str) -> float | None:
    value = claims.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TokenRefused(f"the ID token's {name} is not a number")
    return float(value)


def _check_times(claims: dict[str, Any], want: Expectation) -> None:
    exp, iat, nbf = (_number(claims, n) for n in ("exp", "iat", "nbf"))
    if exp is None or exp <= want.now - want.skew_s:
        raise TokenRefused("the ID token has expired")
    if iat is None or iat > want.now + want.skew_s:
        raise TokenRefused("the ID token was issued in the future (iat)")
    if nbf is not None and nbf > want.now + want.skew_s:
        raise TokenRefused("the ID token is not valid yet (nbf)")
