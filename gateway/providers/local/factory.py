"""The `local` backend: an OpenAI-style client pointed at the supervised llama.cpp server."""

from __future__ import annotations

from gateway.policy.schema import LocalBackend
from gateway.providers.base import Capabilities
from gateway.providers.openai_compat.adapter import OpenAICompatProvider
from gateway.providers.openai_compat.factory import capabilities_from
from gateway.providers.registry import BackendDisabled, BuildContext


def build(name: str, spec: LocalBackend, ctx: BuildContext) -> OpenAICompatProvider:
    if not ctx.local_base_url:
        raise BackendDisabled("the bundled local engine is not running "
                              "(install the 'local' extra, or it was turned off)")
    default = Capabilities(tools=False, json_mode=False, stream_usage=False, context_length=2048)
    return OpenAICompatProvider(name, ctx.local_base_url, spec.model, transport=ctx.transport,
                                capabilities=capabilities_from(spec, default))
