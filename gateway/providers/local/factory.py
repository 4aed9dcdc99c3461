"""The `local` backend: an OpenAI-style client pointed at the supervised llama.cpp server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gateway.policy.schema import LocalBackend
from gateway.providers.base import Capabilities
from gateway.providers.openai_compat.adapter import OpenAICompatProvider
from gateway.providers.openai_compat.factory import capabilities_from
from gateway.providers.registry import BackendDisabled, BuildContext


class LocalProvider(OpenAICompatProvider):
    """The bundled engine's client; reachable only while the supervisor says the engine is up
    (its `/v1/models` answers between crashes of an engine that cannot compute)."""

    def __init__(
        self,
        name: str,
        base_url: str,
        model: str,
        health: Callable[[], str | None] | None,
        **kw: Any,
    ) -> None:
        super().__init__(name, base_url, model, **kw)
        self._health = health

    async def check(self) -> bool:
        if self._health is not None and self._health() is not None:
            return False
        return await super().check()


def build(name: str, spec: LocalBackend, ctx: BuildContext) -> OpenAICompatProvider:
    if not ctx.local_base_url:
        raise BackendDisabled(
            "the bundled local engine is not running "
            "(install the 'local' extra, or it was turned off)"
        )
    default = Capabilities(tools=False, json_mode=False, stream_usage=False, context_length=2048)
    return LocalProvider(
        name,
        ctx.local_base_url,
        spec.model,
        ctx.local_health,
        transport=ctx.transport,
        capabilities=capabilities_from(spec, default),
    )
