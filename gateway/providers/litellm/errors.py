"""Classify litellm exceptions into `FailureKind`s without importing litellm: its exceptions
carry `status_code` (OpenAI-style) and the response headers; names settle the rest."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from gateway.core.errors import FailureKind, ProviderError
from gateway.providers.http_errors import classify_transport, kind_for_status, parse_retry_after

_UNREADABLE = (
    "jsondecodeerror",
    "expecting value",
    "unterminated string",
    "invalid json",
    "validation error",
    "unexpected end",
)


def _retry_after(exc: BaseException) -> float | None:
    headers: Any = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
    if not isinstance(headers, Mapping | httpx.Headers):
        return None
    return parse_retry_after(headers.get("retry-after"))


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    """One rule for every litellm failure. The exception's text (which can echo the upstream
    body) is only inspected, never put in the message."""
    if isinstance(exc, ProviderError):
        return exc
    exc_name = type(exc).__name__
    if isinstance(exc, TimeoutError | httpx.TimeoutException) or exc_name in (
        "Timeout",
        "APITimeoutError",
    ):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out", backend=name)
    text = str(exc)[:2000].lower()
    if any(m in text for m in _UNREADABLE):
        return ProviderError(
            FailureKind.PROVIDER, f"backend '{name}' gave an unreadable answer", backend=name
        )
    status = getattr(exc, "status_code", None)
    if exc_name == "ContextWindowExceededError":
        status = status or 400
    if isinstance(status, int) and status >= 400:
        kind = kind_for_status(status, too_long="ContextWindow" in exc_name)
        if exc_name == "APIConnectionError" and kind == FailureKind.TRANSIENT:
            kind = (
                FailureKind.UNREACHABLE
                if "connect" in text and "refused" in text
                else FailureKind.TRANSIENT
            )
        return ProviderError(
            kind,
            f"backend '{name}' failed ({kind.value}, {status})",
            status=status,
            backend=name,
            retry_after=_retry_after(exc) if status == 429 else None,
        )
    known = classify_transport(name, exc)
    if known is not None:
        return known
    return ProviderError(
        FailureKind.PROVIDER, f"backend '{name}' failed unexpectedly", backend=name
    )
