"""Google Vertex AI through google-genai (`vertexai=True`, the SDK's async client).

The SDK's own retries are off (one attempt): retry and fallback belong to the dispatcher.
Per call, the SDK's HTTP timeout is the first-byte limit (httpx applies it to connect and to
every read, so it also bounds stalls between stream chunks) and `asyncio` enforces the total
deadline; Google is told the total through `X-Server-Timeout`. The SDK is pinned to our own
pooled `httpx.AsyncClient`, so its transport (and therefore its errors) never change with
what else happens to be installed.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator

import httpx
from google import genai
from google.auth.credentials import Credentials
from google.genai import errors as genai_errors
from google.genai import types

from gateway.core.clock import IdGenerator, RandomIds
from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.providers.base import CallOptions, Capabilities, require_capabilities
from gateway.providers.vertex.embeddings import embed_batches
from gateway.providers.vertex.errors import classify_exception
from gateway.providers.vertex.mapping import to_vertex
from gateway.providers.vertex.results import ChunkMapper, to_result


def is_embedding_model(model: str) -> bool:
    return "embedding" in model.rsplit("/", 1)[-1]


class VertexProvider:
    def __init__(
        self,
        name: str,
        *,
        project: str,
        location: str,
        model: str,
        credentials: Credentials | None = None,
        base_url: str | None = None,
        capabilities: Capabilities | None = None,
        ids: IdGenerator | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        max_connections: int = 200,
    ) -> None:
        """`credentials=None` lets the SDK load Application Default Credentials itself."""
        self.name = name
        self.model = model
        self.capabilities = capabilities or Capabilities(
            tools=True, json_mode=True, embeddings=is_embedding_model(model)
        )
        self._ids = ids or RandomIds()
        self._http = httpx.AsyncClient(
            transport=transport,
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
        )
        self._client = genai.Client(
            vertexai=True,
            project=project,
            location=location,
            credentials=credentials,
            http_options=types.HttpOptions(
                base_url=base_url,
                httpx_async_client=self._http,
                retry_options=types.HttpRetryOptions(attempts=1),
            ),
        )

    # ---- seams -----------------------------------------------------------------------------
    def _new_id(self) -> str:
        return self._ids.new_id("call_")

    @staticmethod
    def http_options(options: CallOptions) -> types.HttpOptions:
        """Per-call SDK options: one attempt, first-byte timeout (ms), total as server hint."""
        first = max(options.connect_timeout, options.first_byte_timeout)
        return types.HttpOptions(
            timeout=max(1, int(first * 1000)),
            headers={"X-Server-Timeout": str(max(1, math.ceil(options.total_timeout)))},
            retry_options=types.HttpRetryOptions(attempts=1),
        )

    def _timed_out(self) -> ProviderError:
        return ProviderError(
            FailureKind.TIMEOUT, f"backend '{self.name}' timed out", backend=self.name
        )

    # ---- calls -----------------------------------------------------------------------------
    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        require_capabilities(self, request)
        call = to_vertex(request, self.http_options(options), model=self.model)
        try:
            async with asyncio.timeout(options.total_timeout):
                response = await self._client.aio.models.generate_content(
                    model=self.model, contents=call.contents, config=call.config
                )
        except TimeoutError:
            raise self._timed_out() from None
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        try:
            return to_result(response, self.model, self._new_id)
        except Exception:
            raise ProviderError(
                FailureKind.PROVIDER,
                f"backend '{self.name}' gave an unreadable answer",
                backend=self.name,
            ) from None

    async def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        require_capabilities(self, request)
        call = to_vertex(request, self.http_options(options), model=self.model)
        deadline = asyncio.get_running_loop().time() + options.total_timeout
        try:
            async with asyncio.timeout_at(deadline):
                responses = await self._client.aio.models.generate_content_stream(
                    model=self.model, contents=call.contents, config=call.config
                )
        except TimeoutError:
            raise self._timed_out() from None
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        mapper = ChunkMapper(self._new_id)
        started = False
        try:
            while True:
                response = await self._next(responses, deadline, started)
                if response is None:
                    break
                chunk = mapper.map(response)
                if chunk is not None:
                    started = True
                    yield chunk
        finally:
            aclose = getattr(responses, "aclose", None)
            if aclose is not None:
                await aclose()
        if not mapper.finished:
            kind = FailureKind.INTERRUPTED if started else FailureKind.PROVIDER
            raise ProviderError(
                kind, f"stream from backend '{self.name}' ended early", backend=self.name
            )

    async def _next(
        self,
        responses: AsyncIterator[types.GenerateContentResponse],
        deadline: float,
        started: bool,
    ) -> types.GenerateContentResponse | None:
        """The next streamed response (None at the end), failures classified; once a chunk has
        been delivered every failure is INTERRUPTED (no fallback after the first chunk)."""
        try:
            async with asyncio.timeout_at(deadline):
                return await anext(responses)
        except StopAsyncIteration:
            return None
        except Exception as exc:
            err = (
                self._timed_out()
                if isinstance(exc, TimeoutError)
                else classify_exception(self.name, exc)
            )
            if started:
                raise ProviderError(
                    FailureKind.INTERRUPTED,
                    f"stream from backend '{self.name}' was cut ({err.kind.value})",
                    backend=self.name,
                ) from None
            raise err from None

    async def embed(self, inputs: list[str], options: CallOptions) -> tuple[list[list[float]], int]:
        """Vectors for `inputs` (same order) and the prompt tokens Vertex counted."""
        if not inputs:
            return [], 0
        config = types.EmbedContentConfig(http_options=self.http_options(options))
        try:
            async with asyncio.timeout(options.total_timeout):
                return await embed_batches(self._client, self.model, inputs, config)
        except TimeoutError:
            raise self._timed_out() from None
        except Exception as exc:
            raise classify_exception(self.name, exc) from None

    async def check(self) -> bool:
        """Reachability and credentials: fetch the publisher model's metadata."""
        try:
            async with asyncio.timeout(3.0):
                await self._client.aio.models.get(
                    model=self.model,
                    config=types.GetModelConfig(
                        http_options=types.HttpOptions(
                            timeout=2000, retry_options=types.HttpRetryOptions(attempts=1)
                        )
                    ),
                )
        except genai_errors.APIError as exc:
            return exc.code == 429  # throttled, but reachable with working credentials
        except Exception:
            return False
        return True

    async def aclose(self) -> None:
        await self._client.aio.aclose()
        self._client.close()  # the SDK's idle sync client (no I/O beyond closing sockets)
        await self._http.aclose()
