"""Build a BedrockProvider from a `bedrock` backend spec, with credentials from the standard AWS
chain (environment, shared profile / SSO, container or instance role).

boto3 costs about a quarter second of CPU and ~25 MiB to import, and walking the chain may wait
on the instance metadata service. So:

- when a cheap look at the environment and the usual files shows the chain cannot find anything
  (no credential variables, no shared config/credential files, instance metadata switched off
  with AWS_EC2_METADATA_DISABLED=true), the backend is disabled without importing boto3;
- keys in the build environment are used at once (no I/O);
- anything else walks boto3's own chain; when the caller allows it (`ctx.defer_blocking`, the
  provider pool on a running loop) that walk runs in a worker thread and the backend is enabled
  when it finds credentials, so start-up is not held up by metadata or SSO round trips.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gateway.policy.schema import BedrockBackend
from gateway.providers.base import CallOptions, Capabilities
from gateway.providers.registry import BackendDisabled, BackendPending, BuildContext

if TYPE_CHECKING:
    import boto3
    from botocore.config import Config

    from gateway.providers.bedrock.adapter import BedrockProvider, ClientFactory

NO_CREDENTIALS = (
    "no AWS credentials found (environment, shared profile/SSO, container or instance role)"
)
PENDING = "resolving AWS credentials (standard chain) in the background"

# AWS_* variables that name no credential source; any other AWS_* variable that is set (keys,
# profile, role, web identity, container credentials, SSO, ...) means boto3 must look.
_NOT_CREDENTIALS = frozenset(
    {
        "AWS_EC2_METADATA_DISABLED",
        "AWS_CA_BUNDLE",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
        "AWS_RETRY_MODE",
        "AWS_MAX_ATTEMPTS",
        "AWS_DEFAULTS_MODE",
        "AWS_USE_FIPS_ENDPOINT",
        "AWS_USE_DUALSTACK_ENDPOINT",
        "AWS_SDK_UA_APP_ID",
        "AWS_STS_REGIONAL_ENDPOINTS",
        "AWS_METADATA_SERVICE_TIMEOUT",
        "AWS_METADATA_SERVICE_NUM_ATTEMPTS",
        "AWS_EC2_METADATA_SERVICE_ENDPOINT",
        "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE",
        "AWS_EC2_METADATA_V1_DISABLED",
        "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
        "AWS_REQUEST_CHECKSUM_CALCULATION",
        "AWS_RESPONSE_CHECKSUM_VALIDATION",
    }
)
# variables naming files the chain reads (with their defaults): only a file that exists counts
_FILE_VARS = {
    "AWS_SHARED_CREDENTIALS_FILE": "~/.aws/credentials",
    "AWS_CONFIG_FILE": "~/.aws/config",
    "BOTO_CONFIG": "~/.boto",  # legacy boto2 config, read by the chain's boto-config provider
}
_LEGACY_FILES = ("/etc/boto.cfg",)


def chain_is_empty(spec: BedrockBackend, env: Mapping[str, str]) -> bool:
    """True only when boto3's credential chain certainly finds nothing: decided without
    importing boto3. Looks at the build env and the process env (boto3 reads the latter)."""
    if getattr(spec, "profile", None):
        return False  # a named profile gets boto3's own answer (and its precise error)
    merged = {**os.environ, **env}
    if merged.get("AWS_EC2_METADATA_DISABLED", "").strip().lower() != "true":
        return False  # an instance role may exist; only the metadata service can tell
    for name, value in merged.items():
        if (
            name.startswith("AWS_")
            and value
            and name not in _NOT_CREDENTIALS
            and name not in _FILE_VARS
        ):
            return False
    paths = [merged.get(var) or default for var, default in _FILE_VARS.items()]
    return not any(os.path.exists(os.path.expanduser(p)) for p in [*paths, *_LEGACY_FILES])


def _static_keys(spec: BedrockBackend, env: Mapping[str, str]) -> bool:
    return bool(
        env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY") and not spec.profile
    )


def make_session(spec: BedrockBackend, env: Mapping[str, str]) -> boto3.Session:
    """Static keys given in the build environment win; otherwise boto3's own chain."""
    import boto3

    if _static_keys(spec, env):
        return boto3.Session(
            aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
            aws_session_token=env.get("AWS_SESSION_TOKEN"),
            region_name=spec.region,
        )
    return boto3.Session(profile_name=spec.profile, region_name=spec.region)


def session_client_factory(
    session: boto3.Session, region: str, endpoint_url: str | None
) -> ClientFactory:
    def make(config: Config) -> Any:
        return session.client(
            "bedrock-runtime", region_name=region, endpoint_url=endpoint_url, config=config
        )

    return make


def capabilities_for(spec: BedrockBackend) -> Capabilities:
    embeddings = "embed" in spec.model
    caps = getattr(spec, "capabilities", None)
    if caps is None:
        return Capabilities(
            streaming=not embeddings, tools=not embeddings, json_mode=False, embeddings=embeddings
        )
    from gateway.providers.bedrock.adapter import DEFAULT_CAPABILITIES

    # Converse has no JSON mode, whatever the policy says
    return Capabilities(
        streaming=caps.streaming,
        tools=caps.tools,
        json_mode=False,
        embeddings=embeddings,
        stream_usage=DEFAULT_CAPABILITIES.stream_usage,
        context_length=caps.context_length,
    )


def options_for(spec: BedrockBackend) -> CallOptions:
    t = spec.timeouts
    return CallOptions(
        connect_timeout=t.connect_s, first_byte_timeout=t.first_token_s, total_timeout=t.total_s
    )


def _build_with_chain(name: str, spec: BedrockBackend, env: Mapping[str, str]) -> BedrockProvider:
    from botocore.exceptions import BotoCoreError, ProfileNotFound

    from gateway.providers.bedrock.adapter import BedrockProvider

    try:
        session = make_session(spec, env)
        credentials = session.get_credentials()
    except ProfileNotFound:
        raise BackendDisabled(f"AWS profile '{spec.profile}' is not configured") from None
    except BotoCoreError as exc:
        raise BackendDisabled(
            f"AWS credentials could not be loaded ({type(exc).__name__})"
        ) from None
    if credentials is None:
        raise BackendDisabled(NO_CREDENTIALS)
    return BedrockProvider(
        name,
        spec.model,
        client_factory=session_client_factory(session, spec.region, spec.endpoint_url),
        capabilities=capabilities_for(spec),
        default_options=options_for(spec),
    )


def build(name: str, spec: BedrockBackend, ctx: BuildContext) -> BedrockProvider:
    if chain_is_empty(spec, ctx.env):
        raise BackendDisabled(NO_CREDENTIALS)
    if ctx.defer_blocking and not _static_keys(spec, ctx.env):
        env = dict(ctx.env)
        raise BackendPending(PENDING, lambda: _build_with_chain(name, spec, env))
    return _build_with_chain(name, spec, ctx.env)
