"""OIDC sign-in's parts, built once at start-up from the settings (None while OIDC is off):
the issuer client on its own bounded HTTP client, the store of sign-ins in progress and the
claim rules. The client secret is read here from the variable the settings name, once.

The issuer client (PyJWT and `cryptography`, about 120 modules and 13 MB) is imported only
when OIDC is on: a gateway that never signs anyone in through an issuer does not carry it."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx
from sqlalchemy.engine import Engine

from gateway.core.clock import Clock
from gateway.service.oidc.claims import ClaimRules
from gateway.service.oidc.http import IssuerHttp
from gateway.settings import Settings
from gateway.usage.oidc_logins import PendingLogins

if TYPE_CHECKING:
    from gateway.service.oidc.client import OidcClient


@dataclass(frozen=True, slots=True)
class OidcSignIn:
    client: OidcClient
    pending: PendingLogins
    rules: ClaimRules
    clock: Clock


def build_oidc(
    settings: Settings,
    env: Mapping[str, str],
    engine: Engine,
    clock: Clock,
    stack: contextlib.AsyncExitStack,
) -> OidcSignIn | None:
    if not settings.oidc_on:
        return None
    from gateway.service.oidc.client import OidcClient, OidcConfig  # only when on: see above

    assert settings.oidc_issuer and settings.oidc_client_id and settings.oidc_redirect_url
    timeout = settings.oidc_timeout_s
    # no redirects followed: the issuer's endpoints are called where discovery says they are
    http = httpx.AsyncClient(timeout=httpx.Timeout(timeout), follow_redirects=False)
    stack.push_async_callback(http.aclose)
    config = OidcConfig(
        issuer=settings.oidc_issuer,
        client_id=settings.oidc_client_id,
        client_secret=env.get(settings.oidc_client_secret_env) or None,
        redirect_url=settings.oidc_redirect_url,
        scopes=settings.oidc_scopes,
        cache_ttl_s=settings.oidc_cache_ttl_s,
        jwks_refresh_s=settings.oidc_jwks_refresh_s,
        skew_s=settings.oidc_clock_skew_s,
    )
    return OidcSignIn(
        client=OidcClient(
            IssuerHttp(http, timeout_s=timeout, max_bytes=settings.oidc_max_response_bytes),
            config,
            clock,
        ),
        pending=PendingLogins(
            engine, ttl_s=settings.oidc_login_ttl_s, max_pending=settings.oidc_pending_max
        ),
        rules=ClaimRules(
            admin_claim=settings.oidc_admin_claim,
            admin_value=settings.oidc_admin_value,
            tenant_claim=settings.oidc_tenant_claim,
        ),
        clock=clock,
    )
