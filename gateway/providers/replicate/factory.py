"""Build a ReplicateProvider from a `replicate` backend spec."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway.policy.schema import ReplicateBackend
from gateway.providers.base import Capabilities
from gateway.providers.registry import BackendDisabled, BuildContext

if TYPE_CHECKING:  # the adapter imports the replicate client: only once a token is there
    from gateway.providers.replicate.adapter import ReplicateProvider


def build(name: str, spec: ReplicateBackend, ctx: BuildContext) -> ReplicateProvider:
    token = ctx.env.get(spec.api_token_env)
    if not token:
        raise BackendDisabled(f"credential env var {spec.api_token_env} is not set")
    from gateway.providers.replicate.adapter import DEFAULT_CAPABILITIES, ReplicateProvider

    caps = spec.capabilities
    capabilities = (
        DEFAULT_CAPABILITIES
        if caps is None
        else Capabilities(
            streaming=caps.streaming,
            tools=False,
            json_mode=False,
            context_length=caps.context_length,
        )
    )
    try:
        return ReplicateProvider(
            name,
            spec.model,
            token,
            base_url=spec.base_url,
            capabilities=capabilities,
            transport=ctx.transport,
        )
    except ValueError:
        raise BackendDisabled(
            f"model '{spec.model}' is not owner/name or owner/name:version"
        ) from None
