"""AWS Bedrock through boto3 `bedrock-runtime` Converse / ConverseStream (and InvokeModel for
Titan embeddings). boto3 is blocking: every call runs on this provider's own thread pool, and a
stream is read in a pool thread and handed to the event loop through a queue."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar
from urllib.parse import urlsplit

import orjson
from botocore.config import Config

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult
from gateway.providers.base import CallOptions, Capabilities, require_capabilities
from gateway.providers.bedrock.bridge import iterate_in_thread
from gateway.providers.bedrock.errors import classify_exception, interrupted
from gateway.providers.bedrock.events import StreamMapper
from gateway.providers.bedrock.mapping import parse_converse, to_converse

# builds a `bedrock-runtime` client for a botocore Config (region, endpoint and credentials are
# the factory's business: the standard AWS chain in production, static keys in tests)
ClientFactory = Callable[[Config], Any]
R = TypeVar("R")
DEFAULT_CAPABILITIES = Capabilities(streaming=True, tools=True, json_mode=False, stream_usage=True)


def client_config(options: CallOptions, max_connections: int) -> Config:
    """botocore retries off (retry and fallback are the dispatcher's), timeouts from options."""
    return Config(
        connect_timeout=options.connect_timeout,
        read_timeout=options.first_byte_timeout,
        retries={"total_max_attempts": 1, "mode": "standard"},
        max_pool_connections=max_connections,
    )


class BedrockProvider:
    def __init__(
        self,
        name: str,
        model: str,
        *,
        client_factory: ClientFactory,
        capabilities: Capabilities | None = None,
        default_options: CallOptions | None = None,
        executor: Executor | None = None,
        max_concurrency: int = 64,
    ) -> None:
        self.name = name
        self.model = model
        self.capabilities = capabilities or DEFAULT_CAPABILITIES
        self._factory = client_factory
        self._max_connections = max_concurrency
        self._clients: dict[tuple[float, float], Any] = {}
        self._lock = threading.Lock()
        self._own_executor = executor is None
        self._executor = executor or ThreadPoolExecutor(
            max_concurrency, thread_name_prefix=f"bedrock-{name}"
        )
        self._default_options = default_options or CallOptions()
        self._client_for(self._default_options)

    # ---- clients -------------------------------------------------------------------------
    def _client_for(self, options: CallOptions) -> Any:
        """One client per distinct (connect, read) timeout pair, created once and cached.
        Called from pool threads (boto3 client creation is not cheap and not loop work)."""
        key = (options.connect_timeout, options.first_byte_timeout)
        with self._lock:
            client = self._clients.get(key)
            if client is None:
                client = self._factory(client_config(options, self._max_connections))
                self._clients[key] = client
            return client

    async def _run(self, func: Callable[[], R], options: CallOptions) -> R:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(options.total_timeout):
                return await loop.run_in_executor(self._executor, func)
        except Exception as exc:
            raise classify_exception(self.name, exc) from None

    # ---- chat ----------------------------------------------------------------------------
    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        require_capabilities(self, request)
        kwargs = to_converse(request, self.model)

        def call() -> Any:
            return self._client_for(options).converse(**kwargs)

        data = await self._run(call, options)
        try:
            return parse_converse(data, self.model)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ProviderError(
                FailureKind.PROVIDER,
                f"backend '{self.name}' gave an unreadable answer",
                backend=self.name,
            ) from None

    async def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        require_capabilities(self, request)
        kwargs = to_converse(request, self.model)

        def open_stream() -> Iterable[dict[str, Any]]:
            events: Iterable[dict[str, Any]] = self._client_for(options).converse_stream(**kwargs)[
                "stream"
            ]
            return events

        # botocore's read timeout fires first; this bound only catches a wedged pool thread
        wait = options.connect_timeout + options.first_byte_timeout + 1.0
        mapper = StreamMapper()
        started = False
        try:
            # aclosing: leaving early closes the reader now, not when the GC gets to it
            async with contextlib.aclosing(
                iterate_in_thread(open_stream, self._executor, wait)
            ) as events:
                async for event in events:
                    chunk = mapper.feed(event)
                    if chunk is not None:
                        started = True
                        yield chunk
        except Exception as exc:
            if started:
                raise interrupted(self.name, exc) from None
            if isinstance(exc, (KeyError, TypeError, ValueError)):
                raise ProviderError(
                    FailureKind.PROVIDER,
                    f"backend '{self.name}' sent a malformed stream event",
                    backend=self.name,
                ) from None
            raise classify_exception(self.name, exc) from None
        if not mapper.stopped:
            kind = FailureKind.INTERRUPTED if started else FailureKind.PROVIDER
            raise ProviderError(
                kind, f"stream from backend '{self.name}' ended early", backend=self.name
            )

    # ---- embeddings (Titan text embeddings through InvokeModel) --------------------------
    async def embed(self, inputs: list[str], options: CallOptions) -> tuple[list[list[float]], int]:
        """One vector per input (Titan embeds one text per call) and the total input tokens."""
        if not inputs:
            return [], 0
        results = await asyncio.gather(*(self._embed_one(text, options) for text in inputs))
        return [vector for vector, _ in results], sum(tokens for _, tokens in results)

    async def _embed_one(self, text: str, options: CallOptions) -> tuple[list[float], int]:
        body = orjson.dumps({"inputText": text})

        def call() -> bytes:
            resp = self._client_for(options).invoke_model(
                modelId=self.model,
                body=body,
                contentType="application/json",
                accept="application/json",
            )
            raw: bytes = resp["body"].read()
            return raw

        raw = await self._run(call, options)
        try:
            data = orjson.loads(raw)
            vector = [float(x) for x in data["embedding"]]
            return vector, int(data.get("inputTextTokenCount") or 0)
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            raise ProviderError(
                FailureKind.PROVIDER,
                f"backend '{self.name}' gave an unreadable embedding",
                backend=self.name,
            ) from None

    # ---- lifecycle -----------------------------------------------------------------------
    async def check(self) -> bool:
        """TCP reachability of the runtime endpoint (Bedrock Runtime has no free probe call)."""

        def probe() -> bool:
            url = urlsplit(str(self._client_for(self._default_options).meta.endpoint_url))
            port = url.port or (443 if url.scheme == "https" else 80)
            try:
                with socket.create_connection((url.hostname or "", port), timeout=1.0):
                    return True
            except OSError:
                return False

        try:
            return await self._run(probe, CallOptions(total_timeout=2.0))
        except ProviderError:
            return False

    async def aclose(self) -> None:
        with self._lock:
            clients = list(self._clients.values())
            self._clients.clear()
        for client in clients:
            client.close()
        if self._own_executor:
            # threads still blocked on a socket end at their read timeout; don't wait for them
            self._executor.shutdown(wait=False, cancel_futures=True)
