"""Replicate predictions through the `replicate` client: `Prefer: wait` + polling for whole
answers, the prediction's SSE stream for streamed ones, exact token counts from `metrics`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
from replicate.client import Client
from replicate.identifier import ModelVersionIdentifier
from replicate.prediction import Prediction

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.providers.base import CallOptions, Capabilities, require_capabilities
from gateway.providers.replicate.errors import classify_exception, model_failure, response_hook
from gateway.providers.replicate.mapping import finish_of, output_text, to_input, usage_of

# Replicate has no general tool calling and no JSON mode for chat models.
DEFAULT_CAPABILITIES = Capabilities(streaming=True, tools=False, json_mode=False)
TERMINAL = ("succeeded", "failed", "canceled")
DEFAULT_BASE_URL = "https://api.replicate.com"


class ReplicateProvider:
    def __init__(
        self,
        name: str,
        model: str,
        api_token: str,
        *,
        base_url: str | None = None,
        capabilities: Capabilities | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        limit_key: str = "max_tokens",
        poll_interval: float = 0.5,
    ) -> None:
        self.name = name
        self.model = model
        self.capabilities = capabilities or DEFAULT_CAPABILITIES
        self._ref = ModelVersionIdentifier.parse(model)
        self._limit_key = limit_key
        self._poll = poll_interval
        extra: dict[str, Any] = {"event_hooks": {"response": [response_hook(name)]}}
        if transport is not None:
            extra["transport"] = transport
        self._client = Client(api_token=api_token, base_url=base_url, **extra)
        # the health check's own client: the SDK's retries GETs on 429/5xx for up to minutes,
        # and a check must answer within seconds (a throttled account is still reachable)
        self._probe = httpx.AsyncClient(
            base_url=base_url or DEFAULT_BASE_URL, transport=transport, timeout=2.0,
            headers={"authorization": f"Bearer {api_token}"})

    # ---- calls ---------------------------------------------------------------------------
    async def _create(self, request: ChatRequest, *, stream: bool,
                      wait: int | None) -> Prediction:
        params: dict[str, Any] = {"input": to_input(request, self._limit_key)}
        if stream:
            params["stream"] = True
        if wait:
            params["wait"] = wait
        if self._ref.version:
            return await self._client.predictions.async_create(version=self._ref.version,
                                                               **params)
        return await self._client.models.predictions.async_create(
            model=(self._ref.owner, self._ref.name), **params)

    async def _until_done(self, prediction: Prediction) -> Prediction:
        while prediction.status not in TERMINAL:
            await asyncio.sleep(self._poll)
            prediction = await self._client.predictions.async_get(prediction.id)
        return prediction

    def _result(self, prediction: Prediction, request: ChatRequest) -> ChatResult:
        if prediction.status != "succeeded":
            raise model_failure(self.name, prediction.status, prediction.error)
        text = output_text(prediction.output)
        usage = usage_of(prediction.metrics, request, text)
        return ChatResult(text=text, finish_reason=finish_of(usage, request), usage=usage,
                          model=prediction.model or self.model)

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        require_capabilities(self, request)
        wait = max(1, min(60, int(options.total_timeout)))
        try:
            async with asyncio.timeout(options.total_timeout):
                prediction = await self._until_done(
                    await self._create(request, stream=False, wait=wait))
            return self._result(prediction, request)
        except Exception as exc:
            raise classify_exception(self.name, exc) from None

    async def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        require_capabilities(self, request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + options.total_timeout
        try:
            async with asyncio.timeout(min(options.first_byte_timeout, options.total_timeout)):
                prediction = await self._create(request, stream=True, wait=None)
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        if not (prediction.urls or {}).get("stream"):
            # this model cannot stream: poll, then hand the whole answer over as one chunk
            try:
                async with asyncio.timeout(max(deadline - loop.time(), 0.0)):
                    result = self._result(await self._until_done(prediction), request)
            except Exception as exc:
                raise classify_exception(self.name, exc) from None
            yield ChatChunk(text=result.text or "", finish_reason=result.finish_reason,
                            usage=result.usage)
            return
        events = prediction.async_stream()
        parts: list[str] = []
        try:
            while True:
                limit = deadline - loop.time()
                if not parts:
                    limit = min(limit, options.first_byte_timeout)
                text = await self._next_output(events, max(limit, 0.0), bool(parts))
                if text is None:
                    break
                parts.append(text)
                yield ChatChunk(text=text)
        finally:
            await events.aclose()  # type: ignore[attr-defined]
        yield await self._final_chunk(prediction, request, "".join(parts))

    async def _next_output(self, events: AsyncIterator[Any], limit: float,
                           started: bool) -> str | None:
        """The next `output` event's text, or None at `done`."""
        try:
            async with asyncio.timeout(limit):
                async for event in events:
                    kind = event.event.value
                    if kind == "output":
                        return str(event.data)
                    if kind == "done":
                        return None
            raise ProviderError(FailureKind.PROVIDER,
                                f"stream from backend '{self.name}' ended early",
                                backend=self.name)
        except RuntimeError as exc:  # the client raises the SSE `error` event this way
            err = (exc if isinstance(exc, ProviderError)
                   else model_failure(self.name, "failed", str(exc)))
        except Exception as exc:
            err = classify_exception(self.name, exc)
        if not started:
            raise err from None
        raise ProviderError(FailureKind.INTERRUPTED,
                            f"stream from backend '{self.name}' was cut ({err.kind.value})",
                            backend=self.name) from None

    async def _final_chunk(self, prediction: Prediction, request: ChatRequest,
                           text: str) -> ChatChunk:
        """Usage from the finished prediction's metrics; estimated if they are unavailable."""
        metrics = None
        try:
            async with asyncio.timeout(5.0):
                done = await self._client.predictions.async_get(prediction.id)
            metrics = done.metrics
        except Exception:  # usage then falls back to an estimate; the answer itself is whole
            metrics = None
        usage = usage_of(metrics, request, text)
        return ChatChunk(finish_reason=finish_of(usage, request), usage=usage)

    async def check(self) -> bool:
        """Reachable with working credentials: read the model's record
        (`GET /v1/models/{owner}/{name}`; no prediction, nothing charged). Throttled counts as
        reachable."""
        try:
            resp = await self._probe.get(f"/v1/models/{self._ref.owner}/{self._ref.name}")
        except httpx.HTTPError:
            return False
        return resp.status_code in (200, 429)

    async def aclose(self) -> None:
        await self._probe.aclose()
        await self._client._async_client.aclose()
