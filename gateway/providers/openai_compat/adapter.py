"""OpenAI-style chat completions over a pooled `httpx.AsyncClient`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import replace
from typing import Any

import httpx
import orjson

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import (
    ChatChunk,
    ChatRequest,
    ChatResult,
    ToolCallDelta,
)
from gateway.providers.base import CallOptions, Capabilities, require_capabilities
from gateway.providers.http1 import Http1Pool, UnsupportedProxy
from gateway.providers.openai_compat.errors import classify_exception, classify_status
from gateway.providers.openai_shape import finish_of, parse_result, request_body, usage_of


class OpenAICompatProvider:
    def __init__(
        self,
        name: str,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        capabilities: Capabilities | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        max_connections: int = 200,
    ) -> None:
        self.name = name
        self.model = model
        # `complete` is bounded by options.total_timeout here, and a stream's first chunk by
        # options.first_byte_timeout: the dispatcher adds no second timeout around them
        self.capabilities = replace(
            capabilities or Capabilities(tools=True, json_mode=True),
            enforces_total_timeout=True,
            enforces_first_chunk_timeout=True,
        )
        base = base_url.rstrip("/")
        self._url = base + ("/chat/completions" if base.endswith("/v1") else "/v1/chat/completions")
        self._models_url = self._url.rsplit("/chat/completions", 1)[0] + "/models"
        self._embeddings_url = self._url.rsplit("/chat/completions", 1)[0] + "/embeddings"
        headers = {"content-type": "application/json"}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        self._client = httpx.AsyncClient(
            headers=headers,
            transport=transport,
            limits=httpx.Limits(
                max_connections=max_connections, max_keepalive_connections=max_connections
            ),
        )
        # chat calls (the hot path) go over the lean HTTP/1.1 pool: httpx costs ~3-5 ms CPU
        # per call on the CI machine (bench/). An injected transport (tests) keeps
        # everything on httpx.
        self._fast: Http1Pool | None = None
        self._path = httpx.URL(self._url).raw_path.decode("ascii")
        if transport is None:
            with contextlib.suppress(UnsupportedProxy):  # e.g. socks5: chat stays on httpx
                self._fast = Http1Pool(self._url, headers, max_connections=max_connections)

    # ---- mapping -------------------------------------------------------------------------
    def payload(self, request: ChatRequest, stream: bool) -> bytes:
        try:
            return orjson.dumps(request_body(request, self.model, stream))
        except orjson.JSONEncodeError:  # e.g. an integer past 64 bits: the caller's value
            raise ProviderError(
                FailureKind.CALLER,
                f"the request has a value that cannot be sent to backend '{self.name}'",
                backend=self.name,
            ) from None

    @staticmethod
    def _timeout(options: CallOptions, read: float | None = None) -> httpx.Timeout:
        return httpx.Timeout(
            connect=options.connect_timeout,
            read=options.first_byte_timeout if read is None else read,
            write=options.connect_timeout,
            pool=options.connect_timeout,
        )

    # ---- calls ---------------------------------------------------------------------------
    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        require_capabilities(self, request)
        body = self.payload(request, False)
        headers: Mapping[str, str]
        try:
            if self._fast is not None:
                # the pool bounds the whole exchange by total_timeout itself, with no timer
                # context of its own per call
                fast = await self._fast.request(
                    "POST",
                    self._path,
                    body,
                    connect_timeout=options.connect_timeout,
                    first_byte_timeout=options.first_byte_timeout,
                    total_timeout=options.total_timeout,
                )
                status, content = fast.status, fast.content
                headers = fast.headers
            else:
                async with asyncio.timeout(options.total_timeout):
                    resp = await self._client.post(
                        self._url, content=body, timeout=self._timeout(options)
                    )
                status, content, headers = resp.status_code, resp.content, resp.headers
        except TimeoutError:
            raise ProviderError(
                FailureKind.TIMEOUT, f"backend '{self.name}' timed out", backend=self.name
            ) from None
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        if status != 200:
            raise classify_status(self.name, status, content, httpx.Headers(headers))
        try:
            return parse_result(orjson.loads(content), self.model)
        except (orjson.JSONDecodeError, KeyError, IndexError, TypeError, ValueError):
            raise ProviderError(
                FailureKind.PROVIDER,
                f"backend '{self.name}' gave an unreadable answer",
                backend=self.name,
            ) from None

    def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        """The answer's chunks. A plain method returning the generator (no generator around
        a generator): every async-generator layer costs each chunk a step."""
        require_capabilities(self, request)
        if self._fast is not None:
            return self._stream_fast(request, options, self._fast)
        return self._stream_httpx(request, options)

    async def _stream_fast(
        self, request: ChatRequest, options: CallOptions, pool: Http1Pool
    ) -> AsyncIterator[ChatChunk]:
        """Over the lean pool, the SSE framing and parsing in this one generator, bytes all
        the way (what _sse_data_lines + _iter_sse do for the httpx path, with the same
        errors): a `data:` line is handed on as soon as its newline arrives."""
        name = self.name
        body = self.payload(request, True)  # a caller's bad value is not the backend's failure
        try:
            fast = await pool.stream(
                "POST",
                self._path,
                body,
                connect_timeout=options.connect_timeout,
                first_byte_timeout=options.first_byte_timeout,
                first_data_timeout=options.first_byte_timeout,
                read_timeout=options.between_chunks_timeout,
            )
        except Exception as exc:
            raise classify_exception(name, exc) from None
        try:
            if fast.status != 200:
                body = await fast.aread()
                raise classify_status(name, fast.status, body, httpx.Headers(fast.headers))
            started = done = finished = False
            rest = b""
            try:
                while not done:
                    piece = await fast.next_chunk()
                    if piece is None:  # the body ended: a last line without its newline
                        piece, rest, done = rest + b"\n", b"", True
                    elif rest:
                        piece = rest + piece
                    *lines, rest = piece.split(b"\n")
                    for line in lines:
                        if line[:5] != b"data:":
                            continue
                        data = line[5:].strip()
                        if data == b"[DONE]":
                            if finished:
                                return
                            raise _unfinished(name, started)
                        chunk = _parse_chunk(name, data)
                        if chunk is not None:
                            started = True
                            finished = finished or chunk.finish_reason is not None
                            fast.deadline = None  # the first chunk came in time
                            yield chunk
            except Exception as exc:
                raise _cut(name, exc, started) from None
            raise _ended_early(name, started)
        finally:
            await fast.aclose()

    async def _stream_httpx(
        self, request: ChatRequest, options: CallOptions
    ) -> AsyncIterator[ChatChunk]:
        """Each read waits at most the gap allowed between chunks; the first chunk, however
        many reads it takes, at most `first_byte_timeout` (no `yield` inside that timer: it
        would fire in the consumer's task)."""
        body = self.payload(request, True)
        timeout = self._timeout(options, read=options.between_chunks_timeout)
        req = self._client.build_request("POST", self._url, content=body, timeout=timeout)
        resp: httpx.Response | None = None
        chunks: AsyncGenerator[ChatChunk, None] | None = None
        try:
            try:
                async with asyncio.timeout(options.first_byte_timeout):
                    try:
                        resp = await self._client.send(req, stream=True)
                    except Exception as exc:
                        raise classify_exception(self.name, exc) from None
                    if resp.status_code != 200:
                        content = await resp.aread()
                        raise classify_status(self.name, resp.status_code, content, resp.headers)
                    chunks = _iter_sse(self.name, _sse_data_lines(resp.aiter_lines()))
                    first = await anext(chunks)
            except TimeoutError:
                raise ProviderError(
                    FailureKind.TIMEOUT, f"backend '{self.name}' timed out", backend=self.name
                ) from None
            yield first
            async for chunk in chunks:
                yield chunk
        finally:
            if chunks is not None:
                await chunks.aclose()
            if resp is not None:
                await resp.aclose()

    async def embed(self, inputs: list[str], options: CallOptions) -> tuple[list[list[float]], int]:
        """Vectors for `inputs` (`POST /v1/embeddings`, in input order) and the prompt tokens
        the server counted."""
        body = orjson.dumps({"model": self.model, "input": inputs})
        try:
            async with asyncio.timeout(options.total_timeout):
                resp = await self._client.post(
                    self._embeddings_url, content=body, timeout=self._timeout(options)
                )
        except TimeoutError:
            raise ProviderError(
                FailureKind.TIMEOUT, f"backend '{self.name}' timed out", backend=self.name
            ) from None
        except Exception as exc:
            raise classify_exception(self.name, exc) from None
        if resp.status_code != 200:
            raise classify_status(self.name, resp.status_code, resp.content, resp.headers)
        try:
            data = orjson.loads(resp.content)
            rows = sorted(data["data"], key=lambda r: int(r.get("index", 0)))
            vectors = [[float(x) for x in r["embedding"]] for r in rows]
            tokens = int((data.get("usage") or {}).get("prompt_tokens") or 0)
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            raise ProviderError(
                FailureKind.PROVIDER,
                f"backend '{self.name}' gave an unreadable answer",
                backend=self.name,
            ) from None
        if len(vectors) != len(inputs):
            raise ProviderError(
                FailureKind.PROVIDER,
                f"backend '{self.name}' returned {len(vectors)} vectors for {len(inputs)} inputs",
                backend=self.name,
            )
        return vectors, tokens

    async def check(self) -> bool:
        """The server answers `GET /models` and accepts our key: a refused key (401/403) is
        not reachable in any useful sense; a 404 (a server without that route) still is."""
        try:
            resp = await self._client.get(self._models_url, timeout=1.0)
        except httpx.HTTPError:
            return False
        return resp.status_code < 500 and resp.status_code not in (401, 403)

    async def aclose(self) -> None:
        await self._client.aclose()
        if self._fast is not None:
            await self._fast.aclose()


async def _sse_data_lines(lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """The payloads of the `data:` lines of a stream of text lines (stripped)."""
    async for line in lines:
        if line.startswith("data:"):
            yield line[5:].strip()


async def _iter_sse(
    name: str, datas: AsyncIterator[str] | AsyncIterator[bytes]
) -> AsyncGenerator[ChatChunk, None]:
    started = finished = False
    try:
        async for data in datas:
            if data == "[DONE]" or data == b"[DONE]":
                if finished:
                    return
                raise _unfinished(name, started)
            chunk = _parse_chunk(name, data)
            if chunk is not None:
                started = True
                finished = finished or chunk.finish_reason is not None
                yield chunk
    except Exception as exc:
        raise _cut(name, exc, started) from None
    raise _ended_early(name, started)


def _cut(name: str, exc: Exception, started: bool) -> ProviderError:
    """What a failure while reading a stream is: once a chunk went out, an interruption."""
    if isinstance(exc, ProviderError):
        if started:
            return ProviderError(FailureKind.INTERRUPTED, exc.message, backend=name, code=exc.code)
        return exc
    if started:
        return ProviderError(
            FailureKind.INTERRUPTED, f"stream from backend '{name}' was cut", backend=name
        )
    return classify_exception(name, exc)


def _unfinished(name: str, started: bool) -> ProviderError:
    """`data: [DONE]` with no finish reason before it: the answer was cut short upstream (a
    llama.cpp server with `--interrupt_requests` ends a stream so when another request comes
    in), not finished; passing it on as complete would record a truncated answer as a 200."""
    kind = FailureKind.INTERRUPTED if started else FailureKind.PROVIDER
    return ProviderError(
        kind,
        f"stream from backend '{name}' ended without a finish reason",
        backend=name,
        code="incomplete",
    )


def _ended_early(name: str, started: bool) -> ProviderError:
    """A stream whose body ended without `data: [DONE]`."""
    kind = FailureKind.INTERRUPTED if started else FailureKind.PROVIDER
    return ProviderError(kind, f"stream from backend '{name}' ended early", backend=name)


def _loads(data: str | bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        if isinstance(data, bytes):  # invalid UTF-8 reads as U+FFFD, as a decoded line would
            return orjson.loads(data.decode("utf-8", "replace"))
        raise


def _parse_chunk(name: str, data: str | bytes) -> ChatChunk | None:
    try:
        obj = _loads(data)
        if "error" in obj and not obj.get("choices"):
            raise ProviderError(
                FailureKind.TRANSIENT,
                f"backend '{name}' reported an error in the stream",
                backend=name,
            )
        usage = usage_of(obj.get("usage"))
        choices = obj.get("choices") or []
        if not choices:
            return ChatChunk(usage=usage) if usage else None
        ch = choices[0]
        delta = ch.get("delta") or {}
        raw_calls = delta.get("tool_calls")
        calls = (
            tuple(
                ToolCallDelta(
                    index=int(c.get("index", i)),
                    id=c.get("id"),
                    name=(c.get("function") or {}).get("name"),
                    arguments=(c.get("function") or {}).get("arguments"),
                )
                for i, c in enumerate(raw_calls)
            )
            if raw_calls
            else ()
        )
        fr = ch.get("finish_reason")
        return ChatChunk(
            text=delta.get("content") or "",
            finish_reason=finish_of(fr) if fr else None,
            usage=usage,
            tool_calls=calls,
        )
    except ProviderError:
        raise
    except Exception:
        raise ProviderError(
            FailureKind.PROVIDER, f"backend '{name}' sent a malformed stream frame", backend=name
        ) from None
