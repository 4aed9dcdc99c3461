"""Long-tail providers through `litellm.acompletion`. litellm is an optional extra: it is
imported only when this adapter is built (~3 s, ~200 MiB), never on the default path."""

from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import AsyncIterator, Mapping
from typing import Any

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.providers.base import CallOptions, Capabilities, require_capabilities
from gateway.providers.litellm.errors import classify_exception
from gateway.providers.litellm.mapping import parse_chunk, parse_result, to_kwargs
from gateway.providers.reach import tcp_reachable

DEFAULT_CAPABILITIES = Capabilities(streaming=True, tools=True, json_mode=True)


def import_litellm() -> Any:
    """Import litellm without it fetching its price table from the internet at import time
    (a gateway must not call out to third parties on its own)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    module: Any = importlib.import_module("litellm")
    module.telemetry = False
    return module


class LiteLLMProvider:
    def __init__(
        self,
        name: str,
        model: str,
        *,
        api_base: str | None = None,
        api_key: str | None = None,
        params: Mapping[str, Any] | None = None,
        capabilities: Capabilities | None = None,
        module: Any | None = None,
    ) -> None:
        self.name = name
        self.model = model
        self.capabilities = capabilities or DEFAULT_CAPABILITIES
        self._litellm = module if module is not None else import_litellm()
        # the dispatcher owns retries and fallback: litellm and the SDKs under it must not retry
        fixed: dict[str, Any] = {"num_retries": 0, "max_retries": 0}
        self._api_base = api_base or None
        if api_base:
            fixed["api_base"] = api_base
        if api_key:
            fixed["api_key"] = api_key
        self._fixed = {**dict(params or {}), **fixed}

    def call_kwargs(
        self, request: ChatRequest, stream: bool, options: CallOptions
    ) -> dict[str, Any]:
        return {
            **to_kwargs(request, self.model, stream),
            **self._fixed,
            "timeout": options.total_timeout,
        }

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        require_capabilities(self, request)
        try:
            async with asyncio.timeout(options.total_timeout):
                resp = await self._litellm.acompletion(**self.call_kwargs(request, False, options))
            return parse_result(resp.model_dump(), self.model)
        except Exception as exc:
            raise classify_exception(self.name, exc) from None

    async def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        require_capabilities(self, request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + options.total_timeout
        try:
            async with asyncio.timeout(min(options.first_byte_timeout, options.total_timeout)):
                it = aiter(
                    await self._litellm.acompletion(**self.call_kwargs(request, True, options))
                )
                first = await self._next(it)
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        if first is None:
            raise ProviderError(
                FailureKind.PROVIDER, f"backend '{self.name}' sent no answer", backend=self.name
            )
        yield first
        while True:
            try:
                async with asyncio.timeout(max(deadline - loop.time(), 0.0)):
                    chunk = await self._next(it)
            except Exception as exc:
                err = classify_exception(self.name, exc)
                raise ProviderError(
                    FailureKind.INTERRUPTED,
                    f"stream from backend '{self.name}' was cut ({err.kind.value})",
                    backend=self.name,
                ) from None
            if chunk is None:
                return
            yield chunk

    @staticmethod
    async def _next(it: AsyncIterator[Any]) -> ChatChunk | None:
        """The next non-empty chunk, or None at the end of the stream."""
        async for raw in it:
            chunk = parse_chunk(raw.model_dump())
            if chunk is not None:
                return chunk
        return None

    async def check(self) -> bool:
        """With an `api_base`: that endpoint accepts a TCP connection (litellm has no free call
        to make). Without one the backend is a vendor's public API, judged by its answers."""
        if self._api_base is None:
            return True
        return await tcp_reachable(self._api_base)

    async def aclose(self) -> None:
        return None
