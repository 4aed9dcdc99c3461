"""Classify OpenAI-style HTTP failures into `FailureKind`s (no raw bodies in messages)."""

from __future__ import annotations

import httpx

from gateway.core.errors import FailureKind, ProviderError

_CONTEXT_MARKERS = (b"context_length", b"context length", b"maximum context", b"too many tokens",
                    b"exceed_context", b"n_ctx")


def classify_status(name: str, status: int, body: bytes, headers: httpx.Headers) -> ProviderError:
    if status == 429:
        return ProviderError(
            FailureKind.RATE_LIMIT, f"backend '{name}' is throttling (429)", status=status,
            retry_after=parse_retry_after(headers.get("retry-after")), backend=name,
        )
    if status in (401, 403):
        return ProviderError(
            FailureKind.CREDENTIAL, f"backend '{name}' refused the gateway's credentials",
            status=status, backend=name,
        )
    if status in (400, 413, 422):
        low = body[:4096].lower()
        if any(m in low for m in _CONTEXT_MARKERS):
            return ProviderError(
                FailureKind.CONTEXT_LENGTH, f"the request is too long for backend '{name}'",
                status=status, backend=name,
            )
        return ProviderError(
            FailureKind.CALLER, f"backend '{name}' rejected the request as invalid ({status})",
            status=status, backend=name,
        )
    if status == 404:
        return ProviderError(
            FailureKind.PROVIDER, f"backend '{name}' does not serve the configured model (404)",
            status=status, backend=name,
        )
    if status == 408 or status == 504:
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out ({status})",
                             status=status, backend=name)
    if status >= 500:
        return ProviderError(FailureKind.TRANSIENT, f"backend '{name}' failed ({status})",
                             status=status, backend=name)
    return ProviderError(FailureKind.PROVIDER, f"backend '{name}' answered {status}",
                         status=status, backend=name)


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, httpx.TimeoutException):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out", backend=name)
    if isinstance(exc, httpx.ConnectError):
        return ProviderError(FailureKind.UNREACHABLE, f"backend '{name}' is unreachable",
                             backend=name)
    if isinstance(exc, httpx.TransportError):
        return ProviderError(FailureKind.TRANSIENT,
                             f"connection to backend '{name}' failed", backend=name)
    return ProviderError(FailureKind.PROVIDER,
                         f"backend '{name}' gave an unreadable answer", backend=name)


def parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None
