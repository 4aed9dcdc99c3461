"""Build a LiteLLMProvider from a `litellm` backend spec; litellm is imported here, lazily."""

from __future__ import annotations

from gateway.policy.schema import LiteLLMBackend
from gateway.providers.base import Capabilities
from gateway.providers.litellm.adapter import DEFAULT_CAPABILITIES, LiteLLMProvider
from gateway.providers.registry import BackendDisabled, BuildContext


def build(name: str, spec: LiteLLMBackend, ctx: BuildContext) -> LiteLLMProvider:
    api_key = None
    if spec.api_key_env:
        api_key = ctx.env.get(spec.api_key_env)
        if not api_key:
            raise BackendDisabled(f"credential env var {spec.api_key_env} is not set")
    caps = spec.capabilities
    capabilities = (
        DEFAULT_CAPABILITIES
        if caps is None
        else Capabilities(
            streaming=caps.streaming,
            tools=caps.tools,
            json_mode=caps.json_mode,
            context_length=caps.context_length,
        )
    )
    try:
        return LiteLLMProvider(
            name,
            spec.model,
            api_base=spec.api_base,
            api_key=api_key,
            params=spec.params,
            capabilities=capabilities,
        )
    except ImportError:
        raise BackendDisabled("litellm is not installed (pip install 'gecit[litellm]')") from None
