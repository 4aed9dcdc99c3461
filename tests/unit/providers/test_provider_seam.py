"""The provider seam: the kinds come from the policy schema's union, each factory is typed by
its own spec model, and optional capabilities are declared (base.py) rather than probed."""

from __future__ import annotations

import asyncio
import importlib
import inspect
from collections.abc import AsyncIterator
from typing import get_args

import pytest

from gateway.core.clock import SystemClock
from gateway.core.errors import GatewayError, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.policy.decision import RouteDecision
from gateway.policy.schema import BACKEND_KINDS, BackendSpec
from gateway.providers.base import CallOptions, Capabilities, Embedder, StartupCheck
from gateway.providers.ollama.adapter import OllamaProvider
from gateway.providers.openai_compat.adapter import OpenAICompatProvider
from gateway.providers.registry import FACTORIES
from gateway.service.dispatcher import Outcome
from gateway.service.embed_dispatch import EmbedDispatcher


def test_every_kind_of_the_schema_union_has_a_factory_typed_by_its_spec_model() -> None:
    union = get_args(BackendSpec)
    assert BACKEND_KINDS == tuple(get_args(m.model_fields["kind"].annotation)[0] for m in union)
    assert set(FACTORIES) == set(BACKEND_KINDS)
    by_kind = {get_args(m.model_fields["kind"].annotation)[0]: m for m in union}
    for kind, target in FACTORIES.items():
        module_name, func = target.split(":")
        module = importlib.import_module(module_name)
        # annotations are strings (postponed); the name must resolve to the kind's own model
        annotation = inspect.signature(getattr(module, func)).parameters["spec"].annotation
        assert getattr(module, annotation) is by_kind[kind], kind


class Slow:
    """Answers after 0.2 s; `enforces` says whether it bounds the call itself."""

    def __init__(self, enforces: bool) -> None:
        self.name = "slow"
        self.capabilities = Capabilities(enforces_total_timeout=enforces)

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        await asyncio.sleep(0.2)
        return ChatResult(text="ok", finish_reason="stop", usage=None, model="m")

    async def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        yield ChatChunk(text="ok", finish_reason="stop")

    async def check(self) -> bool:
        return True

    async def aclose(self) -> None:
        return None


async def _complete(provider: Slow) -> ChatResult:
    disp = EmbedDispatcher(
        {"slow": provider}, SystemClock(), lambda _n: CallOptions(total_timeout=0.05)
    )
    request = ChatRequest.model_validate(
        {"model": "a", "messages": [{"role": "user", "content": "x"}]}
    )
    decision = RouteDecision(alias="a", candidates=("slow",))
    return await disp.complete(decision, lambda _n: request, Outcome())


def test_the_dispatcher_reads_the_declared_timeout_capability() -> None:
    # not declared (the default): the dispatcher's own timer cuts the slow call
    with pytest.raises((GatewayError, ProviderError)):
        asyncio.run(_complete(Slow(enforces=False)))
    # declared: the dispatcher leaves the bound to the provider and adds no timer of its own
    assert asyncio.run(_complete(Slow(enforces=True))).text == "ok"


def test_optional_capabilities_are_protocols_of_base() -> None:
    compat = OpenAICompatProvider("c", "http://127.0.0.1:9", "m")
    ollama = OllamaProvider("o", "http://127.0.0.1:9", "m")
    assert compat.capabilities.enforces_total_timeout
    assert compat.capabilities.enforces_first_chunk_timeout
    assert not ollama.capabilities.enforces_total_timeout
    assert isinstance(compat, Embedder) and isinstance(ollama, Embedder)
    assert isinstance(ollama, StartupCheck) and not isinstance(compat, StartupCheck)
    disp = EmbedDispatcher({"c": compat, "s": Slow(False)}, SystemClock())
    assert disp.can_embed("c") and not disp.can_embed("s") and not disp.can_embed("gone")
    asyncio.run(compat.aclose())
    asyncio.run(ollama.aclose())
