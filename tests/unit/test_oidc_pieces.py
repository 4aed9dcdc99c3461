"""The pure parts of OIDC sign-in: its settings and flags, the secrets of one sign-in, the claim
rules, and the ID token checks that the local issuer cannot provoke (an unsigned token, an
HMAC token keyed with the issuer's public key, a key of the wrong family)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import subprocess
import sys
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from gateway.cli import build_parser
from gateway.service.oidc import tokens as oidc_tokens
from gateway.service.oidc.claims import ClaimRules, map_claims
from gateway.service.oidc.flow import LoginSecrets, authorization_url
from gateway.service.oidc.tokens import Expectation, TokenRefused
from gateway.settings import Settings

ISSUER = "https://idp.example"
GOOD = {
    "GECIT_OIDC_ISSUER": ISSUER,
    "GECIT_OIDC_CLIENT_ID": "gecit",
    "GECIT_OIDC_REDIRECT_URL": "https://gw.example/admin/oidc/callback",
    "GECIT_OIDC_ADMIN_VALUE": "admins",
}


def test_oidc_is_off_by_default_and_on_with_an_issuer() -> None:
    assert not Settings.from_env(env={}).oidc_on
    assert not Settings.from_env(env={"GECIT_OIDC_ISSUER": ""}).oidc_on
    on = Settings.from_env(env=GOOD)
    assert on.oidc_on and on.oidc_scopes == "openid email profile"
    assert on.oidc_client_secret_env == "GECIT_OIDC_CLIENT_SECRET"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"GECIT_OIDC_ISSUER": "http://idp.example"}, "GECIT_OIDC_ISSUER must be an https"),
        ({"GECIT_OIDC_ISSUER": "https://u:p@idp.example"}, "GECIT_OIDC_ISSUER"),
        ({"GECIT_OIDC_CLIENT_ID": ""}, "GECIT_OIDC_CLIENT_ID is required"),
        ({"GECIT_OIDC_REDIRECT_URL": "http://gw.example/cb"}, "GECIT_OIDC_REDIRECT_URL"),
        ({"GECIT_OIDC_SCOPES": "email profile"}, "must include openid"),
        ({"GECIT_OIDC_ADMIN_VALUE": ""}, None),  # "" is a value: allowed, matches nobody real
        ({"GECIT_OIDC_TIMEOUT_S": "0"}, "GECIT_OIDC_TIMEOUT_S must be greater than 0"),
        ({"GECIT_OIDC_PENDING_MAX": "many"}, "GECIT_OIDC_PENDING_MAX must be an integer"),
    ],
)
def test_bad_oidc_settings_are_refused_in_one_line(change: dict[str, str], words: str) -> None:
    env = {**GOOD, **change}
    if words is None:
        Settings.from_env(env=env)
        return
    with pytest.raises(ValueError, match=words):
        Settings.from_env(env=env)


def test_a_loopback_http_issuer_is_allowed_for_tests() -> None:
    env = {**GOOD, "GECIT_OIDC_ISSUER": "http://127.0.0.1:9999"}
    env["GECIT_OIDC_REDIRECT_URL"] = "http://127.0.0.1:8080/admin/oidc/callback"
    assert Settings.from_env(env=env).oidc_on


def test_nobody_mapped_is_a_settings_error() -> None:
    env = {k: v for k, v in GOOD.items() if k != "GECIT_OIDC_ADMIN_VALUE"}
    with pytest.raises(ValueError, match="maps nobody"):
        Settings.from_env(env=env)


def test_every_oidc_setting_has_a_flag_that_wins() -> None:
    args = build_parser("serve").parse_args(
        ["serve", "--oidc-issuer", "https://other.example", "--oidc-timeout-s", "2"]
    )
    s = Settings.from_env(
        env=GOOD, oidc_issuer=args.oidc_issuer, oidc_timeout_s=args.oidc_timeout_s
    )
    assert s.oidc_issuer == "https://other.example" and s.oidc_timeout_s == 2.0
    names = {f for f in Settings.__dataclass_fields__ if f.startswith("oidc_")}
    parser_dests = set(vars(build_parser("serve").parse_args(["serve"])))
    assert names <= parser_dests
    assert "oidc_client_secret" not in parser_dests  # the secret never comes as a flag


def test_the_verifier_and_challenge_are_rfc7636_s256() -> None:
    login = LoginSecrets.new()
    assert len(login.verifier) == 43 and len(login.challenge) == 43
    digest = hashlib.sha256(login.verifier.encode()).digest()
    assert base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == login.challenge
    again = LoginSecrets(login.browser, login.state)
    assert (again.verifier, again.nonce) == (login.verifier, login.nonce)
    other = LoginSecrets(LoginSecrets.new().browser, login.state)
    assert other.verifier != login.verifier and other.nonce != login.nonce
    assert login.nonce != login.verifier


def test_the_authorization_url_keeps_the_endpoints_own_query() -> None:
    login = LoginSecrets.new()
    url = authorization_url(
        "https://idp.example/auth?tenant=x",
        client_id="c",
        redirect_url="https://gw/cb",
        scopes="openid email",
        login=login,
    )
    q = parse_qs(urlsplit(url).query)
    assert q["tenant"] == ["x"] and q["state"] == [login.state]
    assert q["code_challenge"] == [login.challenge] and q["code_challenge_method"] == ["S256"]
    assert login.verifier not in url and login.browser not in url


RULES = ClaimRules(admin_claim="groups", admin_value="admins", tenant_claim="tenant")


@pytest.mark.parametrize(
    ("claims", "tenant"),
    [
        ({"sub": "1", "groups": ["a", "admins"]}, None),
        ({"sub": "1", "groups": "admins", "tenant": "acme"}, None),
        ({"sub": "1", "groups": ["a"], "tenant": "acme"}, "acme"),
        ({"sub": "1", "groups": {"admins": True}, "tenant": "acme"}, "acme"),
    ],
)
def test_claims_map_to_one_scope(claims: dict[str, Any], tenant: str | None) -> None:
    found = map_claims(claims, RULES)
    assert found is not None and found.tenant == tenant


@pytest.mark.parametrize(
    "claims",
    [
        {"sub": "1"},
        {"sub": "1", "groups": ["Admins"]},
        {"sub": "1", "tenant": ""},
        {"sub": "1", "tenant": "a b"},
        {"sub": "1", "tenant": "x" * 200},
        {"sub": "1", "tenant": 7},
    ],
)
def test_claims_that_map_to_nothing(claims: dict[str, Any]) -> None:
    assert map_claims(claims, RULES) is None


def test_the_actor_is_short_and_printable() -> None:
    found = map_claims({"sub": "1", "email": "a\x00b" + "c" * 300, "groups": "admins"}, RULES)
    assert found is not None and found.actor.startswith("oidc:ab")
    assert len(found.actor) <= 105 and found.actor.isprintable()


def _rsa_jwk(key: rsa.RSAPrivateKey, kid: str = "k") -> jwt.PyJWK:
    public = jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key(), as_dict=True)
    return jwt.PyJWK({**public, "kid": kid, "use": "sig"})


def _want(nonce: str = "n") -> Expectation:
    return Expectation(ISSUER, "gecit", nonce, time.time(), 60.0)


def _claims() -> dict[str, Any]:
    now = int(time.time())
    return {"iss": ISSUER, "aud": "gecit", "sub": "1", "iat": now, "exp": now + 60, "nonce": "n"}


def test_a_good_token_passes_and_its_nonce_is_checked() -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    token = jwt.encode(_claims(), key, algorithm="RS256", headers={"kid": "k"})
    assert oidc_tokens.validate(token, _rsa_jwk(key), "RS256", _want())["sub"] == "1"
    with pytest.raises(TokenRefused, match="nonce"):
        oidc_tokens.validate(token, _rsa_jwk(key), "RS256", _want("other"))


def _b64json(doc: dict[str, Any]) -> bytes:
    return base64.urlsafe_b64encode(json.dumps(doc).encode()).rstrip(b"=")


def test_unsigned_and_hmac_tokens_are_refused_before_any_key() -> None:
    """`none`, and HS256 keyed with the issuer's public key (the classic confusion)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    body = _b64json(_claims())
    unsigned = _b64json({"alg": "none"}) + b"." + body + b"."
    signing_input = _b64json({"alg": "HS256", "kid": "k"}) + b"." + body
    mac = hmac.new(pem, signing_input, hashlib.sha256).digest()
    confused = signing_input + b"." + base64.urlsafe_b64encode(mac).rstrip(b"=")
    for token in (unsigned.decode(), confused.decode(), "", "x" * 20_000, "not.a.jwt"):
        with pytest.raises(TokenRefused):
            oidc_tokens.unverified_kid(token)


def test_a_key_of_the_wrong_family_or_an_ambiguous_kid_is_not_picked() -> None:
    rsa_key = _rsa_jwk(rsa.generate_private_key(public_exponent=65537, key_size=2048), "r")
    ec_pub = jwt.algorithms.ECAlgorithm.to_jwk(
        ec.generate_private_key(ec.SECP256R1()).public_key(), as_dict=True
    )
    ec_key = jwt.PyJWK({**ec_pub, "kid": "r"})
    assert oidc_tokens.pick_key([ec_key], "RS256", "r") is None
    assert oidc_tokens.pick_key([ec_key, rsa_key], "RS256", "r") is rsa_key
    second = _rsa_jwk(rsa.generate_private_key(public_exponent=65537, key_size=2048), "s")
    assert oidc_tokens.pick_key([rsa_key, second], "RS256", None) is None
    assert oidc_tokens.pick_key([rsa_key], "RS256", None) is rsa_key


def test_a_jwks_is_read_only_as_far_as_its_usable_signing_keys() -> None:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key(), as_dict=True)
    doc = {
        "keys": [
            {**public, "kid": "enc", "use": "enc"},
            {"kty": "RSA", "kid": "broken"},
            "not a key",
            {**public, "kid": "sig"},
        ]
    }
    assert [k.key_id for k in oidc_tokens.key_set(doc)] == ["sig"]
    assert oidc_tokens.key_set({"keys": "nope"}) == []


def test_the_issuer_client_is_imported_only_when_oidc_is_on() -> None:
    """PyJWT and cryptography (about 120 modules, 13 MB) stay out of a gateway without OIDC."""
    code = (
        "import sys; from gateway.app import create_app; from gateway.settings import Settings; "
        "create_app(Settings(database_url='sqlite://', local_engine=False)); "
        "print(sorted(m for m in ('jwt', 'cryptography', 'gateway.service.oidc.client') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]"
