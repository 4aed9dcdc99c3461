"""Classify OpenAI-style HTTP failures into `FailureKind`s (no raw bodies in messages).

The shared rules live in `gateway.providers.http_errors`; what is OpenAI-style here is the
context-length wording of vLLM / llama.cpp / OpenAI error bodies and the 404 message."""

from __future__ import annotations

import httpx

from gateway.core.errors import FailureKind, ProviderError
from gateway.providers import http_errors
from gateway.providers.http_errors import parse_retry_after

__all__ = ["classify_exception", "classify_status"]

_CONTEXT_MARKERS = (
    "context_length",
    "context length",
    "maximum context",
    "too many tokens",
    "exceed_context",
    "n_ctx",
)


def classify_status(name: str, status: int, body: bytes, headers: httpx.Headers) -> ProviderError:
    if status == 404:
        return ProviderError(
            FailureKind.PROVIDER,
            f"backend '{name}' does not serve the configured model (404)",
            status=status,
            backend=name,
        )
    return http_errors.classify_status(
        name,
        status,
        body,
        _CONTEXT_MARKERS,
        retry_after=parse_retry_after(headers.get("retry-after")) if status == 429 else None,
    )


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    # the adapters here see only httpx failures (the lean HTTP/1.1 pool raises httpx's too)
    return http_errors.classify_transport(name, exc, stdlib=False) or http_errors.unreadable(name)
