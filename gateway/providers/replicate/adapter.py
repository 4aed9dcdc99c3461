"""Replicate predictions through the `replicate` client: `Prefer: wait` + polling for whole
answers, the prediction's SSE stream for streamed ones, exact token counts from `metrics`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import orjson
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
            base_url=base_url or DEFAULT_BASE_URL,
            transport=transport,
            timeout=2.0,
            headers={"authorization": f"Bearer {api_token}"},
        )

    # ---- calls ---------------------------------------------------------------------------
    async def _create(self, request: ChatRequest, *, stream: bool, wait: int | None) -> Prediction:
        params: dict[str, Any] = {"input": to_input(request, self._limit_key)}
        if stream:
            params["stream"] = True
        if wait:
            params["wait"] = wait
        if self._ref.version:
            return await self._client.predictions.async_create(version=self._ref.version, **params)
        return await self._client.models.predictions.async_create(
            model=(self._ref.owner, self._ref.name), **params
        )

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
        return ChatResult(
            text=text,
            finish_reason=finish_of(usage, request),
            usage=usage,
            model=prediction.model or self.model,
        )

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        require_capabilities(self, request)
        wait = max(1, min(60, int(options.total_timeout)))
        try:
            async with asyncio.timeout(options.total_timeout):
                prediction = await self._until_done(
                    await self._create(request, stream=False, wait=wait)
                )
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
            yield ChatChunk(
                text=result.text or "", finish_reason=result.finish_reason, usage=result.usage
            )
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

    async def _next_output(
        self, events: AsyncIterator[Any], limit: float, started: bool
    ) -> str | None:
        """The next `output` event's text, or None at a `done` that ends a prediction which did
        not fail: `done {"reason": "canceled" | "error"}` is the model's failure."""
        try:
            async with asyncio.timeout(limit):
                async for event in events:
                    kind = event.event.value
                    if kind == "output":
                        return str(event.data)
                    if kind == "done":
                        reason = done_reason(event.data)
                        if reason in ("canceled", "error"):
                            raise model_failure(
                                self.name, "canceled" if reason == "canceled" else "failed", None
                            )
                        return None
            raise ProviderError(
                FailureKind.PROVIDER,
                f"stream from backend '{self.name}' ended early",
                backend=self.name,
            )
        except ProviderError as exc:
            err = exc
        except RuntimeError as exc:  # the client raises the SSE `error` event this way
            err = model_failure(self.name, "failed", str(exc))
        except Exception as exc:
            err = classify_exception(self.name, exc)
        raise self._after(err, started) from None

    def _after(self, err: ProviderError, started: bool) -> ProviderError:
        """A failure as it stands before the first chunk; once one is out, the stream is cut."""
        if not started:
            return err
        return ProviderError(
            FailureKind.INTERRUPTED,
            f"stream from backend '{self.name}' was cut ({err.kind.value})",
            backend=self.name,
        )

    async def _final_chunk(
        self, prediction: Prediction, request: ChatRequest, text: str
    ) -> ChatChunk:
        """Usage from the finished prediction's metrics; estimated if they are unavailable. A
        prediction that ended failed or canceled is the model's failure, never a success."""
        try:
            async with asyncio.timeout(5.0):
                done = await self._client.predictions.async_get(prediction.id)
        except Exception:  # usage then falls back to an estimate; the answer itself is whole
            done = None
        if done is not None and done.status in ("failed", "canceled"):
            raise self._after(model_failure(self.name, done.status, done.error), bool(text))
        metrics = done.metrics if done is not None else None
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


def done_reason(data: str) -> str | None:
    """The `reason` of a `done` event (`{}` when the prediction succeeded)."""
    try:
        payload = orjson.loads(data or "{}")
    except orjson.JSONDecodeError:
        return None
    reason = payload.get("reason") if isinstance(payload, dict) else None
    return reason if isinstance(reason, str) and reason else None
