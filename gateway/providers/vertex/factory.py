"""Build a VertexProvider from a `vertex` backend spec, resolving Google credentials.

Order: credentials injected by the composition root (`ctx.extra["vertex_credentials"]`, used by
tests and offline runs against the emulator); else the service-account (or other credential)
file named by `spec.credentials_env` in `ctx.env`; else Application Default Credentials. When
none can be found the backend is disabled with the reason, and `gateway serve` lists it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from google.auth import exceptions as auth_exceptions
from google.auth.credentials import Credentials

from gateway.providers.base import Capabilities
from gateway.providers.registry import BackendDisabled, BuildContext

if TYPE_CHECKING:  # the adapter imports google-genai (seconds, tens of MiB): only when built
    from gateway.providers.vertex.adapter import VertexProvider

SCOPES = ("https://www.googleapis.com/auth/cloud-platform",)

AdcLoader = Callable[[], Credentials]
FileLoader = Callable[[str], Credentials]


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
            info, scopes=list(SCOPES))
    if kind == "authorized_user":
        return user_credentials.Credentials.from_authorized_user_info(  # type: ignore[no-any-return,no-untyped-call]
            info, scopes=list(SCOPES))
    raise ValueError("unsupported credentials file type")


def resolve_credentials(credentials_env: str, env: Mapping[str, str], *,
                        adc: AdcLoader = _adc, from_file: FileLoader = _from_file) -> Credentials:
    """Credentials for Vertex, or BackendDisabled saying what is missing (never a secret)."""
    path = env.get(credentials_env)
    if path:
        if not os.path.isfile(path):
            raise BackendDisabled(f"{credentials_env} names a credentials file that does not "
                                  "exist")
        try:
            return from_file(path)
        except (auth_exceptions.GoogleAuthError, ValueError, OSError):
            raise BackendDisabled(f"the credentials file named by {credentials_env} could not "
                                  "be loaded (expected a service-account or authorized-user "
                                  "JSON file)") from None
    try:
        return adc()
    except auth_exceptions.GoogleAuthError:
        raise BackendDisabled(f"no Google credentials: set {credentials_env} to a "
                              "service-account file or configure Application Default "
                              "Credentials") from None


def build(name: str, spec: Any, ctx: BuildContext) -> VertexProvider:
    injected = ctx.extra.get("vertex_credentials")
    credentials = injected if isinstance(injected, Credentials) else resolve_credentials(
        spec.credentials_env, ctx.env)
    from gateway.providers.vertex.adapter import VertexProvider

    return VertexProvider(
        name, project=spec.project, location=spec.location, model=spec.model,
        credentials=credentials, base_url=spec.base_url, transport=ctx.transport,
        capabilities=_capabilities(spec))


def _capabilities(spec: Any) -> Capabilities:
    from gateway.providers.vertex.adapter import is_embedding_model

    embeddings = is_embedding_model(spec.model)
    caps = getattr(spec, "capabilities", None)
    if caps is None:
        return Capabilities(tools=True, json_mode=True, embeddings=embeddings)
    return Capabilities(streaming=caps.streaming, tools=caps.tools, json_mode=caps.json_mode,
                        embeddings=embeddings, context_length=caps.context_length)
