"""Build an OllamaProvider from an `ollama` backend spec."""

from __future__ import annotations

import httpx

from gateway.policy.schema import BackendBase, OllamaBackend
from gateway.providers.base import Capabilities
from gateway.providers.ollama.adapter import DEFAULT_CAPABILITIES, OllamaProvider
from gateway.providers.registry import BuildContext


def capabilities_from(spec: BackendBase, default: Capabilities) -> Capabilities:
    caps = getattr(spec, "capabilities", None)
    if caps is None:
        return default
    return Capabilities(
        streaming=caps.streaming,
        tools=caps.tools,
        json_mode=caps.json_mode,
        embeddings=default.embeddings,
        context_length=caps.context_length,
    )


def build(name: str, spec: OllamaBackend, ctx: BuildContext) -> OllamaProvider:
    t = spec.timeouts
    timeout = httpx.Timeout(
        connect=t.connect_s,
        read=max(t.first_token_s, t.total_s),
        write=t.connect_s,
        pool=t.connect_s,
    )
    return OllamaProvider(
        name,
        spec.host,
        spec.model,
        keep_alive=spec.keep_alive,
        capabilities=capabilities_from(spec, DEFAULT_CAPABILITIES),
        transport=ctx.transport,
        timeout=timeout,
    )
