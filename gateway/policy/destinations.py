"""Where a policy may send requests, and which secrets it may attach to them.

A policy is a document an admin (or anyone holding an admin key) can replace at run time, and
the gateway then calls the hosts it names with the credentials it names, including from
unauthenticated health probes. So the document is checked like untrusted input:

- Credential variables. A backend names the environment variable that holds its key; the
  gateway's own settings (GECIT_ADMIN_KEY, GECIT_DATABASE_URL, ...) live in the same
  environment. A name is accepted only when it carries the configured credential prefix
  (default `GECIT_CRED_`) or is one of the vendors' standard names below; any other
  `GECIT_*` name is refused whatever the prefix is, so no setting can become a bearer token.
- Destinations. Link-local and cloud-metadata addresses (169.254.0.0/16, fe80::/10,
  fd00:ec2::254, metadata.google.internal, ...) are refused for every backend: they hand out
  the machine's own cloud credentials. Only http and https URLs are accepted.
- The `on_prem` zone. The data boundary trusts it (special-category data goes there), so a
  cloud vendor's kind (bedrock, vertex, replicate, litellm with a hosted provider) or a
  public host cannot be declared `on_prem` unless the backend sets `private_endpoint: true`
  (a private link or a self-hosted deployment the admin vouches for).

Pure functions: no DNS lookups (a hostname is judged by its form).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

from gateway.policy.schema import (
    BackendSpec,
    BedrockBackend,
    LiteLLMBackend,
    OllamaBackend,
    OpenAICompatBackend,
    Policy,
    ReplicateBackend,
    VertexBackend,
)

PathT = tuple[str | int, ...]
Issue = tuple[PathT, str]

DEFAULT_CREDENTIAL_PREFIX = "GECIT_CRED_"
# The names vendors' own SDKs and docs use; accepted without the prefix.
STANDARD_CREDENTIAL_NAMES = frozenset(
    {
        "OPENAI_API_KEY",
        "AZURE_API_KEY",
        "AZURE_OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "REPLICATE_API_TOKEN",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "GEMINI_API_KEY",
        "MISTRAL_API_KEY",
        "GROQ_API_KEY",
        "COHERE_API_KEY",
        "TOGETHERAI_API_KEY",
        "DEEPSEEK_API_KEY",
        "FIREWORKS_AI_API_KEY",
        "HUGGINGFACE_API_KEY",
        "HF_TOKEN",
        "OPENROUTER_API_KEY",
        "PERPLEXITYAI_API_KEY",
        "XAI_API_KEY",
        "VLLM_API_KEY",
    }
)
_OWN_SETTINGS_PREFIX = "GECIT_"
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]{0,127}")

_METADATA_HOSTS = frozenset(
    {
        "metadata.google.internal",
        "metadata.goog",
        "metadata",
        "instance-data",
        "instance-data.ec2.internal",
    }
)
_METADATA_IPS = frozenset(
    {ipaddress.ip_address("fd00:ec2::254"), ipaddress.ip_address("100.100.100.200")}
)  # AWS v6, Alibaba
_PRIVATE_SUFFIXES = (
    ".localhost",
    ".local",
    ".internal",
    ".lan",
    ".home.arpa",
    ".svc",
    ".cluster.local",
    ".intranet",
    ".corp",
)
_CLOUD_KINDS = ("bedrock", "vertex", "replicate")
# litellm providers that run on the caller's own machine when no api_base is given
_LITELLM_LOCAL = ("ollama/", "ollama_chat/", "llamafile/", "lm_studio/")


def credential_name_problem(name: str, prefix: str) -> str | None:
    """Why `name` may not name a backend credential (None when it may)."""
    if not _ENV_NAME.fullmatch(name):
        return "not an environment variable name (A-Z, 0-9, _)"
    if name in STANDARD_CREDENTIAL_NAMES:
        return None
    own = name.startswith(_OWN_SETTINGS_PREFIX) and not name.startswith(DEFAULT_CREDENTIAL_PREFIX)
    if own or not prefix or not name.startswith(prefix) or name == prefix:
        return (
            f"credential variables must start with '{prefix}' or be a vendor's standard "
            f"name (e.g. OPENAI_API_KEY); '{name}' is refused"
        )
    return None


def destination_issues(policy: Policy, credential_prefix: str) -> list[Issue]:
    out: list[Issue] = []
    for name, spec in policy.backends.items():
        base: PathT = ("backends", name)
        for key, var in _credentials(spec):
            why = credential_name_problem(var, credential_prefix)
            if why is not None:
                out.append(((*base, key), why))
        kinds: list[str] = []
        for where, url in _urls(spec):
            kind, why = classify_url(url)
            if why is not None:
                out.append(((*base, *where), why))
            kinds.append(kind)
        out.extend(_zone_issues(base, spec, kinds))
    return out


def classify_url(url: str) -> tuple[str, str | None]:
    """('private' | 'public' | 'refused', reason when refused)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return "refused", "not a valid URL"
    if parts.scheme not in ("http", "https"):
        return "refused", "only http and https URLs are allowed"
    if not host:
        return "refused", "the URL names no host"
    return classify_host(host)


def classify_host(host: str) -> tuple[str, str | None]:
    h = host.lower().rstrip(".")
    ip = _as_ip(h)
    if ip is not None:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if ip.is_link_local or ip in _METADATA_IPS:
            return "refused", f"{host} is a link-local / cloud metadata address"
        if ip.is_unspecified or ip.is_multicast:
            return "refused", f"{host} is not a host address"
        return ("private" if ip.is_private or ip.is_loopback else "public"), None
    if h in _METADATA_HOSTS:
        return "refused", f"{host} is a cloud metadata host"
    if h == "localhost" or "." not in h or h.endswith(_PRIVATE_SUFFIXES):
        return "private", None
    return "public", None


def _as_ip(h: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(h)
    except ValueError:
        pass
    if re.fullmatch(r"[0-9a-fx.]+", h) and not re.fullmatch(r"[a-f.]+", h):
        try:  # 2852039166, 0xa9fea9fe, 169.254.43518: forms the resolver also accepts
            return ipaddress.IPv4Address(socket.inet_aton(h))
        except OSError:
            return None
    return None


def _credentials(spec: BackendSpec) -> Iterator[tuple[str, str]]:
    if isinstance(spec, OpenAICompatBackend | LiteLLMBackend) and spec.api_key_env:
        yield "api_key_env", spec.api_key_env
    elif isinstance(spec, ReplicateBackend):
        yield "api_token_env", spec.api_token_env
    elif isinstance(spec, VertexBackend):
        yield "credentials_env", spec.credentials_env


def _urls(spec: BackendSpec) -> Iterator[tuple[PathT, str]]:
    if isinstance(spec, OpenAICompatBackend | VertexBackend | ReplicateBackend) and spec.base_url:
        yield ("base_url",), spec.base_url
    elif isinstance(spec, OllamaBackend):
        yield ("host",), spec.host
    elif isinstance(spec, BedrockBackend) and spec.endpoint_url:
        yield ("endpoint_url",), spec.endpoint_url
    elif isinstance(spec, LiteLLMBackend):
        if spec.api_base:
            yield ("api_base",), spec.api_base
        for key in ("api_base", "base_url"):
            value = spec.params.get(key)
            if value is not None:
                yield ("params", key), str(value)


def _zone_issues(base: PathT, spec: BackendSpec, kinds: list[str]) -> Iterator[Issue]:
    if spec.zone != "on_prem" or spec.private_endpoint:
        return
    hint = "; set private_endpoint: true only if it is reached over a private link"
    if spec.kind in _CLOUD_KINDS:
        yield (*base, "zone"), f"a {spec.kind} backend is a cloud service, not on_prem{hint}"
    elif (
        isinstance(spec, LiteLLMBackend)
        and not spec.api_base
        and "api_base" not in spec.params
        and "base_url" not in spec.params
        and not spec.model.startswith(_LITELLM_LOCAL)
    ):
        yield (
            (*base, "zone"),
            f"litellm model '{spec.model}' without api_base is a hosted provider, "
            f"not on_prem{hint}",
        )
    elif "public" in kinds:
        yield (*base, "zone"), f"an on_prem backend must be on a private host{hint}"
