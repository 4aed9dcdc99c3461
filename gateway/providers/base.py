"""The provider protocol every adapter implements, and the capabilities it declares."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk, ChatRequest, ChatResult


@dataclass(frozen=True, slots=True)
class Capabilities:
    streaming: bool = True
    tools: bool = False
    json_mode: bool = False
    embeddings: bool = False
    stream_usage: bool = True  # the upstream reports usage at the end of a stream
    context_length: int | None = None
    # the adapter bounds `complete` by options.total_timeout, and a stream's first chunk by
    # options.first_byte_timeout, itself: the dispatcher then adds no second timer around them
    enforces_total_timeout: bool = False
    enforces_first_chunk_timeout: bool = False


@dataclass(frozen=True, slots=True)
class CallOptions:
    """Per-call limits set by the dispatcher."""

    connect_timeout: float = 5.0
    first_byte_timeout: float = 60.0  # time to first token / first byte
    total_timeout: float = 300.0
    # once a stream has begun, the longest wait for its next piece; None: first_byte_timeout.
    # A rule's TTFT deadline narrows only the first byte: under a burst an engine's decode
    # steps share the GPU with other prompts' prefill, and a gap between tokens longer than
    # the first-token deadline is a busy node, not a dead one
    stall_timeout: float | None = None
    # an on-prem pool refuses (so the request can spill) when its predicted first token would
    # come later than this; None: the first-byte timeout is the only bound
    ttft_slo_s: float | None = None
    # set when nothing may follow this backend (no allowed backend after it): the request then
    # waits in the pool's queue for this data class, in this priority order, instead of being
    # refused at once
    queue_class: str | None = None
    queue_priority: tuple[int, int] = (0, 0)

    @property
    def between_chunks_timeout(self) -> float:
        return self.first_byte_timeout if self.stall_timeout is None else self.stall_timeout


@runtime_checkable
class Provider(Protocol):
    """One configured backend: a model at an endpoint, reached through its vendor protocol."""

    name: str
    capabilities: Capabilities

    async def complete(self, request: ChatRequest, options: CallOptions) -> ChatResult:
        """Return the whole answer, or raise a classified `ProviderError`."""
        ...

    def stream(self, request: ChatRequest, options: CallOptions) -> AsyncIterator[ChatChunk]:
        """Yield chunks. Must raise `ProviderError` BEFORE the first yield when the upstream
        fails to start (so the dispatcher can still fall back); a failure after that raises
        `ProviderError(FailureKind.INTERRUPTED)`."""
        ...

    async def check(self) -> bool:
        """Cheap reachability probe used by /readyz and health checks."""
        ...

    async def aclose(self) -> None: ...


@runtime_checkable
class Embedder(Protocol):
    """A provider that can also embed (openai_compat, ollama, bedrock, vertex)."""

    async def embed(self, inputs: list[str], options: CallOptions) -> tuple[list[list[float]], int]:
        """Return one vector per input and the input tokens counted, or raise `ProviderError`."""
        ...


@runtime_checkable
class StartupCheck(Protocol):
    """A provider that can say at start-up what is wrong with its backend (for example an
    Ollama model that is not pulled); it stays built and `check()` reports it down."""

    async def verify(self) -> str | None:
        """The problem in one line, or None when the backend looks usable."""
        ...


def require_capabilities(provider: Provider, request: ChatRequest) -> None:
    """Refuse clearly, rather than silently degrade, when the request needs what the backend
    does not offer."""
    caps = provider.capabilities
    if request.tools and not caps.tools:
        raise ProviderError(
            FailureKind.UNSUPPORTED, f"backend '{provider.name}' does not support tools"
        )
    if request.stream and not caps.streaming:
        raise ProviderError(
            FailureKind.UNSUPPORTED, f"backend '{provider.name}' does not support streaming"
        )
    rf = request.response_format
    if rf is not None and rf.type != "text" and not caps.json_mode:
        raise ProviderError(
            FailureKind.UNSUPPORTED, f"backend '{provider.name}' does not support JSON mode"
        )
