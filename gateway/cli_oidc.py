"""`gateway serve`'s flags for OIDC sign-in to the admin console. There is no flag for the
client secret (a command line is visible to other local users): `--oidc-client-secret-env`
names the variable that holds it."""

from __future__ import annotations

# flag, Settings field, type, help; defaults in settings.py
OIDC_FLAGS: tuple[tuple[str, str, type, str], ...] = (
    ("--oidc-issuer", "oidc_issuer", str, "issuer URL, https (OIDC sign-in is off without it)"),
    ("--oidc-client-id", "oidc_client_id", str, "this gateway's client id at the issuer"),
    (
        "--oidc-client-secret-env",
        "oidc_client_secret_env",
        str,
        "name of the variable holding the client secret (unset: a public client, PKCE only)",
    ),
    (
        "--oidc-redirect-url",
        "oidc_redirect_url",
        str,
        "this gateway's callback as registered at the issuer: https://HOST/admin/oidc/callback",
    ),
    ("--oidc-scopes", "oidc_scopes", str, "scopes asked for (space-separated, with openid)"),
    (
        "--oidc-admin-claim",
        "oidc_admin_claim",
        str,
        "ID token claim (a string or a list) checked for --oidc-admin-value",
    ),
    (
        "--oidc-admin-value",
        "oidc_admin_value",
        str,
        "value of the admin claim that gives the admin scope (unset: no admin via OIDC)",
    ),
    (
        "--oidc-tenant-claim",
        "oidc_tenant_claim",
        str,
        "ID token claim naming the user's tenant (unset: no tenant user via OIDC)",
    ),
    ("--oidc-timeout-s", "oidc_timeout_s", float, "seconds one call to the issuer may take"),
    (
        "--oidc-max-response-bytes",
        "oidc_max_response_bytes",
        int,
        "largest answer accepted from the issuer",
    ),
    (
        "--oidc-cache-ttl-s",
        "oidc_cache_ttl_s",
        float,
        "seconds the issuer's discovery document and keys are kept",
    ),
    (
        "--oidc-jwks-refresh-s",
        "oidc_jwks_refresh_s",
        float,
        "an unknown signing key fetches the issuer's keys at most this often (seconds)",
    ),
    (
        "--oidc-login-ttl-s",
        "oidc_login_ttl_s",
        float,
        "seconds a started sign-in may take to come back from the issuer",
    ),
    (
        "--oidc-clock-skew-s",
        "oidc_clock_skew_s",
        float,
        "seconds an ID token's exp/iat/nbf may be off",
    ),
    (
        "--oidc-pending-max",
        "oidc_pending_max",
        int,
        "most sign-ins in progress at once; more gets 503",
    ),
)
