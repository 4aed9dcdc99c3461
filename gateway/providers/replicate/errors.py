"""Classify Replicate failures into `FailureKind`s at the boundary (never raw bodies).

HTTP errors are classified in an httpx response hook (status, Retry-After and body at hand);
the `replicate` client would otherwise turn them into a `ReplicateError` without headers.
Failed predictions and SSE `error` events are model failures, classified by `model_failure`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from replicate.exceptions import ReplicateError

from gateway.core.errors import FailureKind, ProviderError

_CONTEXT_MARKERS = ("context length", "context window", "maximum context", "too many tokens",
                    "prompt length", "max_position_embeddings")


def parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _too_long(text: str) -> bool:
    low = text[:4096].lower()
    return any(m in low for m in _CONTEXT_MARKERS)


def classify_status(name: str, status: int, body: str,
                    retry_after: float | None = None) -> ProviderError:
    """One rule for every Replicate HTTP failure. `body` is only inspected, never echoed."""
    if status == 429:
        return ProviderError(FailureKind.RATE_LIMIT, f"backend '{name}' is throttling (429)",
                             status=status, retry_after=retry_after, backend=name)
    if status in (401, 403):
        return ProviderError(FailureKind.CREDENTIAL,
                             f"backend '{name}' refused the gateway's API token",
                             status=status, backend=name)
    if status in (400, 413, 422):
        if _too_long(body):
            return ProviderError(FailureKind.CONTEXT_LENGTH,
                                 f"the request is too long for backend '{name}'",
                                 status=status, backend=name)
        return ProviderError(FailureKind.CALLER,
                             f"backend '{name}' rejected the input as invalid ({status})",
                             status=status, backend=name)
    if status == 404:
        return ProviderError(FailureKind.PROVIDER,
                             f"backend '{name}': the configured model or version was not "
                             "found (404)", status=status, backend=name)
    if status in (408, 504):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out ({status})",
                             status=status, backend=name)
    if status >= 500:
        return ProviderError(FailureKind.TRANSIENT, f"backend '{name}' failed ({status})",
                             status=status, backend=name)
    return ProviderError(FailureKind.PROVIDER, f"backend '{name}' answered {status}",
                         status=status, backend=name)


def model_failure(name: str, status: str, error: str | None) -> ProviderError:
    """A prediction that ended `failed`/`canceled`, or an SSE `error` event."""
    if status == "canceled":
        return ProviderError(FailureKind.PROVIDER, f"backend '{name}': the prediction was "
                             "canceled", backend=name)
    if error and _too_long(error):
        return ProviderError(FailureKind.CONTEXT_LENGTH,
                             f"the request is too long for backend '{name}'", backend=name)
    return ProviderError(FailureKind.TRANSIENT, f"backend '{name}': the model failed",
                         backend=name)


def response_hook(name: str) -> Callable[[httpx.Response], Awaitable[None]]:
    """An httpx response hook raising the classified error for any HTTP failure."""

    async def hook(response: httpx.Response) -> None:
        if response.status_code < 400:
            return
        body = await response.aread()
        raise classify_status(name, response.status_code, body.decode("utf-8", "replace"),
                              parse_retry_after(response.headers.get("retry-after")))

    return hook


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, TimeoutError | httpx.TimeoutException):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out", backend=name)
    if isinstance(exc, httpx.ConnectError):
        return ProviderError(FailureKind.UNREACHABLE, f"backend '{name}' is unreachable",
                             backend=name)
    if isinstance(exc, httpx.TransportError | ConnectionError):
        return ProviderError(FailureKind.TRANSIENT, f"connection to backend '{name}' failed",
                             backend=name)
    if isinstance(exc, ReplicateError) and exc.status:
        return classify_status(name, exc.status, f"{exc.title or ''} {exc.detail or ''}")
    return ProviderError(FailureKind.PROVIDER, f"backend '{name}' gave an unreadable answer",
                         backend=name)
