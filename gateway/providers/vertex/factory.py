"""Build a VertexProvider from a `vertex` backend spec, resolving Google credentials.

Order: credentials injected by the composition root (`ctx.google_credentials`, used by
tests and offline runs against the emulator); else an access token named by the spec
(`access_token_env` or `access_token_file`); else the service-account (or other credential)
file named by `spec.credentials_env` in `ctx.env`; else Application Default Credentials. When
none can be found the backend is disabled with the reason, and `gateway serve` lists it.

google-auth (with requests and its crypto) costs about a third of a second of CPU to import, and
ADC may wait seconds on the GCE metadata server. So when a cheap look shows ADC cannot find
anything (no GOOGLE_APPLICATION_CREDENTIALS, no gcloud ADC file, not App Engine, metadata check
off with NO_GCE_CHECK=true) the backend is disabled without importing google-auth; otherwise,
when the caller allows it (`ctx.defer_blocking`), ADC runs in a worker thread and the backend is
enabled once it has credentials.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from gateway.policy.schema import VertexBackend
from gateway.providers.base import Capabilities
from gateway.providers.registry import BackendDisabled, BackendPending, BuildContext

if TYPE_CHECKING:  # the adapter imports google-genai (seconds, tens of MiB): only when built
    from google.auth.credentials import Credentials

    from gateway.providers.vertex.adapter import VertexProvider

SCOPES = ("https://www.googleapis.com/auth/cloud-platform",)

AdcLoader = Callable[[], "Credentials"]
FileLoader = Callable[[str], "Credentials"]
PENDING = "resolving Application Default Credentials in the background"


def _adc() -> Credentials:
    import google.auth

    credentials, _project = google.auth.default(scopes=list(SCOPES))
    return credentials


def _from_file(path: str) -> Credentials:
    """A service-account (or gcloud authorized-user) file, loaded with the type-specific
    loader: a generic loader would also accept external-account configs that run commands or
    fetch URLs named in the file."""
    from google.oauth2 import credentials as user_credentials
    from google.oauth2 import service_account

    with open(path, encoding="utf-8") as fh:
        info = json.load(fh)
    kind = info.get("type") if isinstance(info, dict) else None
    if kind == "service_account":
        return service_account.Credentials.from_service_account_info(  # type: ignore[no-any-return,no-untyped-call]
            info, scopes=list(SCOPES)
        )
    if kind == "authorized_user":
        return user_credentials.Credentials.from_authorized_user_info(  # type: ignore[no-any-return,no-untyped-call]
            info, scopes=list(SCOPES)
        )
    raise ValueError("unsupported credentials file type")


def resolve_credentials(
    credentials_env: str,
    env: Mapping[str, str],
    *,
    adc: AdcLoader = _adc,
    from_file: FileLoader = _from_file,
) -> Credentials:
    """Credentials for Vertex, or BackendDisabled saying what is missing (never a secret)."""
    from google.auth import exceptions as auth_exceptions

    path = env.get(credentials_env)
    if path:
        if not os.path.isfile(path):
            raise BackendDisabled(f"{credentials_env} names a credentials file that does not exist")
        try:
            return from_file(path)
        except (auth_exceptions.GoogleAuthError, ValueError, OSError):
            raise BackendDisabled(
                f"the credentials file named by {credentials_env} could not "
                "be loaded (expected a service-account or authorized-user "
                "JSON file)"
            ) from None
    try:
        return adc()
    except auth_exceptions.GoogleAuthError:
        raise BackendDisabled(_no_credentials(credentials_env)) from None


def _no_credentials(credentials_env: str) -> str:
    return (
        f"no Google credentials: set {credentials_env} to a service-account file or "
        "configure Application Default Credentials"
    )


def adc_is_absent(environ: Mapping[str, str] | None = None) -> bool:
    """True only when google.auth.default() certainly finds nothing, decided without importing
    google-auth (it reads the process environment, as google-auth does)."""
    environ = os.environ if environ is None else environ
    if environ.get("GOOGLE_APPLICATION_CREDENTIALS"):
        return False
    config = environ.get("CLOUDSDK_CONFIG") or os.path.join(
        os.path.expanduser("~"), ".config", "gcloud"
    )
    if os.path.exists(os.path.join(config, "application_default_credentials.json")):
        return False
    if environ.get("APPENGINE_RUNTIME") == "python27":
        return False
    return environ.get("NO_GCE_CHECK") == "true"  # else only the metadata server can tell


def access_token_credentials(spec: VertexBackend, env: Mapping[str, str]) -> Credentials | None:
    """Credentials from `access_token_env` / `access_token_file`, None when neither is set;
    BackendDisabled (never the token) when the one named holds none. google-auth is imported
    only when one is set (a third of a second of CPU)."""
    if not (spec.access_token_env or spec.access_token_file):
        return None
    from google.auth import exceptions as auth_exceptions

    from gateway.providers.vertex import token

    try:
        if spec.access_token_env:
            if not env.get(spec.access_token_env, "").strip():
                raise BackendDisabled(f"{spec.access_token_env} (access_token_env) is not set")
            return token.from_env(spec.access_token_env, dict(env))
        if spec.access_token_file:
            return token.from_file(spec.access_token_file)
    except (OSError, auth_exceptions.RefreshError):
        raise BackendDisabled(
            f"no access token could be read from {spec.access_token_file} (access_token_file)"
        ) from None
    return None


def build(name: str, spec: VertexBackend, ctx: BuildContext) -> VertexProvider:
    injected = ctx.google_credentials
    if injected is not None:
        from google.auth.credentials import Credentials

        if isinstance(injected, Credentials):
            return _build(name, spec, ctx, injected)
    static = access_token_credentials(spec, ctx.env)
    if static is not None:
        return _build(name, spec, ctx, static)
    if not ctx.env.get(spec.credentials_env):  # no file named: ADC
        if adc_is_absent():
            raise BackendDisabled(_no_credentials(spec.credentials_env))
        if ctx.defer_blocking:
            env = dict(ctx.env)
            raise BackendPending(
                PENDING,
                lambda: _build(name, spec, ctx, resolve_credentials(spec.credentials_env, env)),
            )
    return _build(name, spec, ctx, resolve_credentials(spec.credentials_env, ctx.env))


def _build(
    name: str, spec: VertexBackend, ctx: BuildContext, credentials: Credentials
) -> VertexProvider:
    from gateway.providers.vertex.adapter import VertexProvider

    return VertexProvider(
        name,
        project=spec.project,
        location=spec.location,
        model=spec.model,
        credentials=credentials,
        base_url=spec.base_url,
        transport=ctx.transport,
        capabilities=_capabilities(spec),
    )


def _capabilities(spec: VertexBackend) -> Capabilities:
    from gateway.providers.vertex.adapter import is_embedding_model

    embeddings = is_embedding_model(spec.model)
    caps = getattr(spec, "capabilities", None)
    if caps is None:
        return Capabilities(tools=True, json_mode=True, embeddings=embeddings)
    return Capabilities(
        streaming=caps.streaming,
        tools=caps.tools,
        json_mode=caps.json_mode,
        embeddings=embeddings,
        context_length=caps.context_length,
    )
