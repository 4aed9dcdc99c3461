"""Ollama's native API through the `ollama` AsyncClient: exact token counts, server timings,
NDJSON streaming, model-presence check at start-up, embeddings."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx
from ollama import AsyncClient

from gateway.core.clock import IdGenerator, RandomIds
from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.providers.base import CallOptions, Capabilities, require_capabilities
from gateway.providers.ollama.errors import classify_exception, response_hook
from gateway.providers.ollama.mapping import (
    OllamaTimings,
    parse_chunk,
    parse_result,
    timings_of,
    to_format,
    to_messages,
    to_options,
    to_tools,
)

DEFAULT_CAPABILITIES = Capabilities(streaming=True, tools=True, json_mode=True, embeddings=True)


def model_present(model: str, served: set[str]) -> bool:
    """`llama3.2` is the same model as `llama3.2:latest`."""
    wanted = model if ":" in model else model + ":latest"
    return model in served or wanted in served


class OllamaProvider:
    def __init__(
        self,
        name: str,
        host: str,
        model: str,
        *,
        keep_alive: str | None = None,
        capabilities: Capabilities | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: httpx.Timeout | None = None,
        max_connections: int = 100,
        ids: IdGenerator | None = None,
        client_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.model = model
        self.host = host
        self.capabilities = capabilities or DEFAULT_CAPABILITIES
        self.last_timings: OllamaTimings | None = None
        self._keep_alive = keep_alive
        self._ids = ids or RandomIds()
        self._client = AsyncClient(
            host=host,
            transport=transport,
            timeout=timeout or httpx.Timeout(connect=5.0, read=300.0, write=5.0, pool=5.0),
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
            event_hooks={"response": [response_hook(name)]},
            **dict(client_options or {}),
        )

    # ---- mapping -------------------------------------------------------------------------
    def chat_kwargs(self, request: ChatRequest) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": to_messages(request)}
        tools = to_tools(request)
        if tools:
            kwargs["tools"] = tools
        options = to_options(request)
        if options:
            kwargs["options"] = options
        fmt = to_format(request)
        if fmt is not None:
            kwargs["format"] = fmt
        if self._keep_alive is not None:
            kwargs["keep_alive"] = self._keep_alive
        return kwargs

    def _record(self, part: Mapping[str, Any]) -> None:
        timings = timings_of(part)
        if timings is None:
            return
        self.last_timings = timings

    # ---- calls ---------------------------------------------------------------------------
    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        require_capabilities(self, request)
        try:
            async with asyncio.timeout(options.total_timeout):
                resp = await self._client.chat(stream=False, **self.chat_kwargs(request))
            part = resp.model_dump()
            result = parse_result(part, self.model, self._ids)
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        self._record(part)
        return result

    async def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        require_capabilities(self, request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + options.total_timeout
        parts: AsyncIterator[Any] | None = None
        try:
            async with asyncio.timeout(min(options.first_byte_timeout, options.total_timeout)):
                parts = await self._client.chat(stream=True, **self.chat_kwargs(request))
                part = (await anext(parts)).model_dump()
        except StopAsyncIteration:
            raise ProviderError(
                FailureKind.PROVIDER, f"backend '{self.name}' sent no answer", backend=self.name
            ) from None
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        started, calls = False, 0
        try:
            while True:
                chunk, calls = parse_chunk(part, self._ids, calls)
                if chunk.text or chunk.tool_calls or chunk.finish_reason or chunk.usage:
                    started = True
                    yield chunk
                if part.get("done"):
                    self._record(part)
                    return
                part = await self._next(parts, deadline - loop.time(), started)
        finally:
            await parts.aclose()  # type: ignore[attr-defined]

    async def _next(
        self, parts: AsyncIterator[Any], remaining: float, started: bool
    ) -> dict[str, Any]:
        try:
            async with asyncio.timeout(max(remaining, 0.0)):
                return dict((await anext(parts)).model_dump())
        except StopAsyncIteration:
            kind = FailureKind.INTERRUPTED if started else FailureKind.PROVIDER
            raise ProviderError(
                kind, f"stream from backend '{self.name}' ended early", backend=self.name
            ) from None
        except Exception as exc:
            err = classify_exception(self.name, exc)
            if not started:
                raise err from None
            raise ProviderError(
                FailureKind.INTERRUPTED,
                f"stream from backend '{self.name}' was cut ({err.kind.value})",
                backend=self.name,
            ) from None

    async def embed(self, inputs: list[str], options: CallOptions) -> tuple[list[list[float]], int]:
        """Vectors for `inputs` (`/api/embed`) and the prompt tokens Ollama counted."""
        try:
            async with asyncio.timeout(options.total_timeout):
                resp = await self._client.embed(
                    model=self.model, input=inputs, keep_alive=self._keep_alive
                )
            vectors = [[float(x) for x in v] for v in resp.embeddings]
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        if len(vectors) != len(inputs):
            raise ProviderError(
                FailureKind.PROVIDER,
                f"backend '{self.name}' returned {len(vectors)} vectors for {len(inputs)} inputs",
                backend=self.name,
            )
        return vectors, int(resp.prompt_eval_count or 0)

    async def served_models(self, timeout: float) -> set[str]:
        async with asyncio.timeout(timeout):
            listed = await self._client.list()
        return {m.model for m in listed.models if m.model}

    async def verify(self) -> str | None:
        """The start-up problem with this backend, or None when the model is ready."""
        try:
            served = await self.served_models(5.0)
        except Exception as exc:
            err = classify_exception(self.name, exc)
            return f"Ollama at {self.host} could not list its models: {err.message}"
        if model_present(self.model, served):
            return None
        return (
            f"model '{self.model}' is not pulled on the Ollama server at {self.host}; "
            f"run `ollama pull {self.model}` there"
        )

    async def check(self) -> bool:
        """Reachable AND the configured model is present."""
        try:
            return model_present(self.model, await self.served_models(1.0))
        except Exception:
            return False

    async def aclose(self) -> None:
        await self._client.close()  # type: ignore[no-untyped-call]
