"""Build a BedrockProvider from a `bedrock` backend spec, with credentials from the standard AWS
chain (environment, shared profile / SSO, container or instance role)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ProfileNotFound

from gateway.providers.base import CallOptions, Capabilities
from gateway.providers.bedrock.adapter import DEFAULT_CAPABILITIES, BedrockProvider, ClientFactory
from gateway.providers.registry import BackendDisabled, BuildContext

NO_CREDENTIALS = ("no AWS credentials found (environment, shared profile/SSO, container or "
                  "instance role)")


def make_session(spec: Any, env: Mapping[str, str]) -> boto3.Session:
    """Static keys given in the build environment win; otherwise boto3's own chain."""
    key, secret = env.get("AWS_ACCESS_KEY_ID"), env.get("AWS_SECRET_ACCESS_KEY")
    if key and secret and not spec.profile:
        return boto3.Session(aws_access_key_id=key, aws_secret_access_key=secret,
                             aws_session_token=env.get("AWS_SESSION_TOKEN"),
                             region_name=spec.region)
    return boto3.Session(profile_name=spec.profile, region_name=spec.region)


def session_client_factory(session: boto3.Session, region: str,
                           endpoint_url: str | None) -> ClientFactory:
    def make(config: Config) -> Any:
        return session.client("bedrock-runtime", region_name=region, endpoint_url=endpoint_url,
                              config=config)

    return make


def capabilities_for(spec: Any) -> Capabilities:
    embeddings = "embed" in spec.model
    caps = getattr(spec, "capabilities", None)
    if caps is None:
        return Capabilities(streaming=not embeddings, tools=not embeddings, json_mode=False,
                            embeddings=embeddings)
    # Converse has no JSON mode, whatever the policy says
    return Capabilities(streaming=caps.streaming, tools=caps.tools, json_mode=False,
                        embeddings=embeddings, stream_usage=DEFAULT_CAPABILITIES.stream_usage,
                        context_length=caps.context_length)


def options_for(spec: Any) -> CallOptions:
    t = spec.timeouts
    return CallOptions(connect_timeout=t.connect_s, first_byte_timeout=t.first_token_s,
                       total_timeout=t.total_s)


def build(name: str, spec: Any, ctx: BuildContext) -> BedrockProvider:
    try:
        session = make_session(spec, ctx.env)
        credentials = session.get_credentials()
    except ProfileNotFound:
        raise BackendDisabled(f"AWS profile '{spec.profile}' is not configured") from None
    except BotoCoreError as exc:
        raise BackendDisabled(f"AWS credentials could not be loaded ({type(exc).__name__})"
                              ) from None
    if credentials is None:
        raise BackendDisabled(NO_CREDENTIALS)
    return BedrockProvider(
        name, spec.model,
        client_factory=session_client_factory(session, spec.region, spec.endpoint_url),
        capabilities=capabilities_for(spec), default_options=options_for(spec),
    )
