"""Build an OpenAICompatProvider from an `openai_compat` backend spec."""

from __future__ import annotations

from gateway.policy.schema import BackendBase, OpenAICompatBackend
from gateway.providers.base import Capabilities, Provider
from gateway.providers.openai_compat.adapter import OpenAICompatProvider
from gateway.providers.registry import BackendDisabled, BuildContext


def capabilities_from(spec: BackendBase, default: Capabilities) -> Capabilities:
    caps = getattr(spec, "capabilities", None)
    if caps is None:
        return default
    return Capabilities(
        streaming=caps.streaming,
        tools=caps.tools,
        json_mode=caps.json_mode,
        context_length=caps.context_length,
    )


def build(name: str, spec: OpenAICompatBackend, ctx: BuildContext) -> Provider:
    api_key = None
    if spec.api_key_env:
        api_key = ctx.env.get(spec.api_key_env)
        if not api_key:
            raise BackendDisabled(f"credential env var {spec.api_key_env} is not set")
    capabilities = capabilities_from(spec, Capabilities(tools=True, json_mode=True))
    if getattr(spec, "endpoints", None):
        from gateway.fleet.factory import build_pool  # only for policies with node pools

        return build_pool(name, spec, ctx, api_key, capabilities)
    return OpenAICompatProvider(
        name,
        spec.base_url,
        spec.model,
        api_key=api_key,
        transport=ctx.transport,
        capabilities=capabilities,
    )
