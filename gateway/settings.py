"""Process settings: every setting has a GECIT_ env var and a CLI flag (the flag wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

LOOPBACK = ("127.0.0.1", "localhost", "::1")
DEFAULT_POLICY = Path(__file__).resolve().parent / "policies" / "default.yaml"


@dataclass(frozen=True, slots=True)
class Settings:
    policy: str = str(DEFAULT_POLICY)
    database_url: str = "sqlite:///./gecit.db"
    host: str = "127.0.0.1"
    port: int = 8080
    log_level: str = "info"
    # background cadences (seconds; 0 turns the loop off, as tests do)
    probe_interval_s: float = 10.0  # health probes of every backend
    policy_watch_s: float = 2.0  # how often the policy file is checked for changes
    policy_sync_s: float = 1.0  # how often the shared policy version is read from the database
    budget_sweep_s: float = 60.0  # how often budget holds are swept
    budget_hold_stale_s: float = 3600.0  # a hold older than this is released by the sweep
    redis_url: str | None = None
    redis_prefix: str = "gecit:"  # keys and channels on a shared Redis
    admin_key: str | None = None
    # None = decide from the listen address (loopback only -> keys optional)
    require_keys: bool | None = None
    upstream: str | None = None
    local_engine: bool = True  # start the bundled llama.cpp server when the policy uses it
    local_model_path: str | None = None
    local_ctx: int = 2048
    local_restart_max_s: float = 30.0  # the longest wait between restarts of a failing engine
    journal_path: str | None = None
    drain_seconds: float = 30.0  # SIGTERM: how long in-flight requests (streams) may finish
    # a policy document is untrusted input (admin PUT, mounted file): its size and shape
    policy_max_bytes: int = 1_000_000
    policy_max_depth: int = 64
    policy_max_nodes: int = 200_000
    # backend credential variables must carry this prefix (or be a vendor's standard name);
    # other GECIT_* names are always refused (policy/destinations.py)
    credential_env_prefix: str = "GECIT_CRED_"
    report_max_days: int = 366  # the longest range a cost report or dashboard may cover
    # the edge: what one request may make the gateway hold or wait for
    max_body_bytes: int = 8 * 1024 * 1024  # a larger body gets 413 before it is read
    max_header_bytes: int = 64 * 1024  # request line + headers; larger gets 431
    max_headers: int = 100  # more header fields gets 431
    max_messages: int = 2048  # messages in one chat request; more gets 400
    max_content_parts: int = 10_000  # content parts (text, image, ...) in one request; more: 400
    max_request_chars: int = 2_000_000  # text characters in one request (all messages, tools)
    max_choices: int = 4  # the most chat choices (`n`) one request may ask for; more gets 400
    # /v1/responses kept in memory for previous_response_id (when the policy's retention is on)
    responses_max_kept: int = 1000  # conversations; the oldest go first
    responses_max_bytes: int = 64 * 1024 * 1024  # their JSON, all together
    head_timeout_s: float = 10.0  # the whole request head must arrive within this
    body_timeout_s: float = 30.0  # the whole request body must arrive within this
    # a chat body larger than this is parsed and checked in a child process, and a request
    # with more text than the policy's `offload_chars` is classified in one: work that holds
    # the GIL for long stretches never runs on the event loop (gateway/core/offload.py)
    offload_body_bytes: int = 1024 * 1024
    offload_workers: int = 2  # child processes, started with the gateway
    offload_timeout_s: float = 10.0  # the longest wait for a body's parse; then 503
    auth_failures_per_minute: int = 30  # per client address; then 429 with Retry-After
    # while the key database cannot be read, a key read within this many seconds still holds
    key_stale_s: float = 300.0
    metrics_key: str | None = None  # bearer for /metrics when keys are required
    # admin browser sessions (/admin/login): lifetime from sign-in, and how many one key may
    # hold at once (a new sign-in past that ends the key's oldest)
    session_ttl_s: float = 8 * 3600.0
    sessions_per_key: int = 20
    # rate limits (the policy's rate_limits:) while the shared Redis cannot be reached:
    # "local" counts in each replica alone, every limit times rate_limit_local_share;
    # "closed" refuses with 503 until Redis answers again
    rate_limit_fallback: str = "local"
    rate_limit_local_share: float = 1.0
    rate_limit_redis_timeout_s: float = 0.25  # one Redis call; slower counts as down
    rate_limit_retry_s: float = 1.0  # after a failure, Redis is tried again this much later
    # budget alerts (50/80/100 %) as a signed webhook: where to, the HMAC secret, how often
    # budgets are checked, and the deliveries' attempts, first backoff (doubling) and timeout
    budget_alert_url: str | None = None
    budget_alert_secret: str | None = None
    budget_alert_check_s: float = 5.0
    budget_alert_attempts: int = 8
    budget_alert_backoff_s: float = 2.0
    budget_alert_timeout_s: float = 5.0
    # OIDC sign-in to the admin console (authorization code + PKCE); off while no issuer is set.
    # The client secret is never a setting: oidc_client_secret_env names the variable holding it
    oidc_issuer: str | None = None  # https://... (http only on a loopback host)
    oidc_client_id: str | None = None
    oidc_client_secret_env: str = "GECIT_OIDC_CLIENT_SECRET"  # unset variable: a public client
    oidc_redirect_url: str | None = None  # https://<gateway>/admin/oidc/callback
    oidc_scopes: str = "openid email profile"
    # who gets which scope: a user whose `oidc_admin_claim` is (or lists) `oidc_admin_value`
    # is an admin; else the value of `oidc_tenant_claim` names their tenant; else refused
    oidc_admin_claim: str = "groups"
    oidc_admin_value: str | None = None  # None: nobody is an admin through OIDC
    oidc_tenant_claim: str | None = None  # None: no tenant user signs in through OIDC
    oidc_timeout_s: float = 5.0  # one call to the issuer (discovery, JWKS, token)
    oidc_max_response_bytes: int = 256 * 1024  # a larger answer from the issuer is refused
    oidc_cache_ttl_s: float = 3600.0  # discovery document and JWKS kept this long
    oidc_jwks_refresh_s: float = 30.0  # an unknown key id fetches the JWKS at most this often
    oidc_login_ttl_s: float = 600.0  # a started sign-in must come back within this
    oidc_clock_skew_s: float = 60.0  # exp/iat of an ID token may be off by this much
    oidc_pending_max: int = 10_000  # most sign-ins in progress at once; more gets 503

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ) if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get("GECIT_" + f.name.upper())
            if raw is None:
                continue
            values[f.name] = _coerce(f.name, raw)
        s = cls(**values)
        clean = {k: v for k, v in overrides.items() if v is not None}
        s = replace(s, **clean) if clean else s
        if s.require_keys is False and s.host not in LOOPBACK:
            # keyless mode is for one machine: anyone who can reach the address could call
            raise ValueError(
                f"GECIT_REQUIRE_KEYS=false is only allowed on a loopback address "
                f"(127.0.0.1, localhost, ::1), not {s.host}"
            )
        _check_rate_fallback(s)
        _check_budget_alerts(s)
        _check_oidc(s)
        for name in sorted(_POSITIVE):
            if getattr(s, name) <= 0:
                raise ValueError(
                    f"GECIT_{name.upper()} must be greater than 0, got {getattr(s, name)}"
                )
        return s

    @property
    def oidc_on(self) -> bool:
        return bool(self.oidc_issuer)

    @property
    def keys_required(self) -> bool:
        if self.require_keys is not None:
            return self.require_keys
        return self.host not in LOOPBACK


_BOOLS = {"require_keys", "local_engine"}
_INTS = {
    "port",
    "local_ctx",
    "policy_max_bytes",
    "policy_max_depth",
    "policy_max_nodes",
    "report_max_days",
    "max_body_bytes",
    "max_header_bytes",
    "max_headers",
    "max_messages",
    "max_content_parts",
    "max_request_chars",
    "max_choices",
    "responses_max_kept",
    "responses_max_bytes",
    "auth_failures_per_minute",
    "sessions_per_key",
    "offload_body_bytes",
    "offload_workers",
    "budget_alert_attempts",
    "oidc_max_response_bytes",
    "oidc_pending_max",
}
# limits and timeouts must be positive: 0 would refuse every request or close every connection
_POSITIVE = (_INTS - {"port"}) | {
    "session_ttl_s",
    "drain_seconds",
    "local_restart_max_s",
    "head_timeout_s",
    "body_timeout_s",
    "rate_limit_local_share",
    "rate_limit_redis_timeout_s",
    "rate_limit_retry_s",
    "offload_timeout_s",
    "budget_alert_backoff_s",
    "budget_alert_timeout_s",
    "oidc_timeout_s",
    "oidc_cache_ttl_s",
    "oidc_jwks_refresh_s",
    "oidc_login_ttl_s",
}
# the background cadences may be 0 (that loop off)
_FLOATS = {
    "session_ttl_s",
    "key_stale_s",
    "drain_seconds",
    "local_restart_max_s",
    "head_timeout_s",
    "body_timeout_s",
    "offload_timeout_s",
    "probe_interval_s",
    "policy_watch_s",
    "policy_sync_s",
    "budget_sweep_s",
    "budget_hold_stale_s",
    "rate_limit_local_share",
    "rate_limit_redis_timeout_s",
    "rate_limit_retry_s",
    "budget_alert_check_s",
    "budget_alert_backoff_s",
    "budget_alert_timeout_s",
    "oidc_timeout_s",
    "oidc_cache_ttl_s",
    "oidc_jwks_refresh_s",
    "oidc_login_ttl_s",
    "oidc_clock_skew_s",
}


def _check_budget_alerts(s: Settings) -> None:
    """An alert webhook is signed, always: a URL without a secret is refused at start-up."""
    if s.budget_alert_url is None:
        return
    if not s.budget_alert_url.startswith(("http://", "https://")):
        raise ValueError("GECIT_BUDGET_ALERT_URL must be an http:// or https:// URL")
    if not s.budget_alert_secret or len(s.budget_alert_secret) < 16:
        raise ValueError(
            "GECIT_BUDGET_ALERT_SECRET (at least 16 characters) must be set with "
            "GECIT_BUDGET_ALERT_URL: alerts are always signed"
        )


def _check_rate_fallback(s: Settings) -> None:
    if s.rate_limit_fallback not in ("local", "closed"):
        raise ValueError(
            f"GECIT_RATE_LIMIT_FALLBACK must be local or closed, got {s.rate_limit_fallback!r}"
        )
    if s.rate_limit_local_share > 1:
        raise ValueError(
            f"GECIT_RATE_LIMIT_LOCAL_SHARE must be at most 1, got {s.rate_limit_local_share}"
        )


def secure_url(url: str) -> bool:
    """https, or plain http to a loopback host (a test issuer on this machine)."""
    parts = urlsplit(url)
    if not parts.hostname or parts.username or parts.password or parts.fragment:
        return False
    if parts.scheme == "https":
        return True
    return parts.scheme == "http" and parts.hostname in LOOPBACK


def _check_oidc(s: Settings) -> None:
    if not s.oidc_on:
        return
    assert s.oidc_issuer is not None
    if not secure_url(s.oidc_issuer) or urlsplit(s.oidc_issuer).query:
        raise ValueError("GECIT_OIDC_ISSUER must be an https:// URL (http only on loopback)")
    if not s.oidc_client_id:
        raise ValueError("GECIT_OIDC_CLIENT_ID is required when GECIT_OIDC_ISSUER is set")
    if not s.oidc_redirect_url or not secure_url(s.oidc_redirect_url):
        raise ValueError(
            "GECIT_OIDC_REDIRECT_URL must be this gateway's https://.../admin/oidc/callback "
            "(http only on loopback)"
        )
    if "openid" not in s.oidc_scopes.split():
        raise ValueError("GECIT_OIDC_SCOPES must include openid")
    if s.oidc_admin_value is None and s.oidc_tenant_claim is None:
        raise ValueError(
            "OIDC maps nobody to a scope: set GECIT_OIDC_ADMIN_VALUE or GECIT_OIDC_TENANT_CLAIM"
        )


def _coerce(name: str, raw: str) -> Any:
    if name in _BOOLS:
        low = raw.strip().lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"GECIT_{name.upper()} must be true or false, got {raw!r}")
    if name in _INTS:
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"GECIT_{name.upper()} must be an integer, got {raw!r}") from None
    if name in _FLOATS:
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"GECIT_{name.upper()} must be a number, got {raw!r}") from None
    return raw
