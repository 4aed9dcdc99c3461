"""Classify litellm exceptions into `FailureKind`s without importing litellm: its exceptions
carry `status_code` (OpenAI-style) and the response headers; names settle the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from gateway.core.errors import FailureKind, ProviderError

_UNREADABLE = ("jsondecodeerror", "expecting value", "unterminated string", "invalid json",
               "validation error", "unexpected end")


def _retry_after(exc: BaseException) -> float | None:
    headers: Any = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    if not isinstance(headers, Mapping | httpx.Headers):
        return None
    value = headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value else None
    except (TypeError, ValueError):
        return None


def _kind_for_status(status: int, exc_name: str) -> FailureKind:
    if status == 429:
        return FailureKind.RATE_LIMIT
    if status in (401, 403):
        return FailureKind.CREDENTIAL
    if status in (400, 413, 422):
        return (FailureKind.CONTEXT_LENGTH if "ContextWindow" in exc_name
                else FailureKind.CALLER)
    if status in (408, 504):
        return FailureKind.TIMEOUT
    if status >= 500:
        return FailureKind.TRANSIENT
    return FailureKind.PROVIDER


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    """One rule for every litellm failure. The exception's text (which can echo the upstream
    body) is only inspected, never put in the message."""
    if isinstance(exc, ProviderError):
        return exc
    exc_name = type(exc).__name__
    if isinstance(exc, TimeoutError | httpx.TimeoutException) or exc_name in (
            "Timeout", "APITimeoutError"):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out", backend=name)
    text = str(exc)[:2000].lower()
    if any(m in text for m in _UNREADABLE):
        return ProviderError(FailureKind.PROVIDER,
                             f"backend '{name}' gave an unreadable answer", backend=name)
    status = getattr(exc, "status_code", None)
    if exc_name == "ContextWindowExceededError":
        status = status or 400
    if isinstance(status, int) and status >= 400:
        kind = _kind_for_status(status, exc_name)
        if exc_name == "APIConnectionError" and kind == FailureKind.TRANSIENT:
            kind = (FailureKind.UNREACHABLE if "connect" in text and "refused" in text
                    else FailureKind.TRANSIENT)
        return ProviderError(kind, f"backend '{name}' failed ({kind.value}, {status})",
                             status=status, backend=name,
                             retry_after=_retry_after(exc) if status == 429 else None)
    if isinstance(exc, httpx.ConnectError):
        return ProviderError(FailureKind.UNREACHABLE, f"backend '{name}' is unreachable",
                             backend=name)
    if isinstance(exc, httpx.TransportError | ConnectionError):
        return ProviderError(FailureKind.TRANSIENT, f"connection to backend '{name}' failed",
                             backend=name)
    return ProviderError(FailureKind.PROVIDER, f"backend '{name}' failed unexpectedly",
                         backend=name)
