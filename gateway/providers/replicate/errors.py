"""Classify Replicate failures into `FailureKind`s at the boundary (never raw bodies).

HTTP errors are classified in an httpx response hook (status, Retry-After and body at hand);
the `replicate` client would otherwise turn them into a `ReplicateError` without headers.
Failed predictions and SSE `error` events are model failures, classified by `model_failure`.
The shared HTTP rules live in `gateway.providers.http_errors`; Replicate's own are its wording,
predictions and `ReplicateError`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from replicate.exceptions import ReplicateError

from gateway.core.errors import FailureKind, ProviderError
from gateway.providers import http_errors

__all__ = ["classify_exception", "classify_status", "model_failure", "response_hook"]

_CONTEXT_MARKERS = (
    "context length",
    "context window",
    "maximum context",
    "too many tokens",
    "prompt length",
    "max_position_embeddings",
)


def classify_status(
    name: str, status: int, body: str, retry_after: float | None = None
) -> ProviderError:
    """One rule for every Replicate HTTP failure. `body` is only inspected, never echoed."""
    if status == 404:
        return ProviderError(
            FailureKind.PROVIDER,
            f"backend '{name}': the configured model or version was not found (404)",
            status=status,
            backend=name,
        )
    return http_errors.classify_status(
        name,
        status,
        body,
        _CONTEXT_MARKERS,
        retry_after=retry_after,
        credential="API token",
        invalid="input",
    )


def model_failure(name: str, status: str, error: str | None) -> ProviderError:
    """A prediction that ended `failed`/`canceled`, or an SSE `error` event."""
    if status == "canceled":
        return ProviderError(
            FailureKind.PROVIDER, f"backend '{name}': the prediction was canceled", backend=name
        )
    if error and http_errors.mentions(error, _CONTEXT_MARKERS):
        return ProviderError(
            FailureKind.CONTEXT_LENGTH,
            f"the request is too long for backend '{name}'",
            backend=name,
        )
    return ProviderError(FailureKind.TRANSIENT, f"backend '{name}': the model failed", backend=name)


def response_hook(name: str) -> Callable[[httpx.Response], Awaitable[None]]:
    """An httpx response hook raising the classified error for any HTTP failure."""
    return http_errors.response_hook(name, classify_status)


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    known = http_errors.classify_transport(name, exc)
    if known is not None:
        return known
    if isinstance(exc, ReplicateError) and exc.status:
        return classify_status(name, exc.status, f"{exc.title or ''} {exc.detail or ''}")
    return http_errors.unreadable(name)
