"""Classify Ollama failures into `FailureKind`s at the boundary (never raw bodies in messages).

HTTP errors are classified in an httpx response hook, where the status, headers (Retry-After)
and body are all at hand; the `ollama` client would otherwise flatten them into a
`ResponseError` carrying only the raw text. The shared HTTP rules live in
`gateway.providers.http_errors`; Ollama's own are its wording and its client's exceptions.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from ollama import ResponseError
from pydantic import ValidationError

from gateway.core.errors import FailureKind, ProviderError
from gateway.providers import http_errors

__all__ = ["classify_exception", "classify_status", "response_hook"]

_CONTEXT_MARKERS = (
    "context length",
    "context window",
    "context_length",
    "prompt too long",
    "exceeds the context",
    "n_ctx",
)
_NOT_FOUND_MARKERS = ("not found", "try pulling")


def classify_status(
    name: str, status: int, body: str, retry_after: float | None = None
) -> ProviderError:
    """One rule for every Ollama HTTP failure. `body` is only inspected, never echoed."""
    if status == 404:
        what = (
            "the configured model is not pulled"
            if http_errors.mentions(body, _NOT_FOUND_MARKERS)
            else "not found"
        )
        return ProviderError(
            FailureKind.PROVIDER, f"backend '{name}': {what} (404)", status=status, backend=name
        )
    return http_errors.classify_status(
        name, status, body, _CONTEXT_MARKERS, retry_after=retry_after
    )


def response_hook(name: str) -> Callable[[httpx.Response], Awaitable[None]]:
    """An httpx response hook raising the classified error for any HTTP failure."""
    return http_errors.response_hook(name, classify_status)


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    # the ollama client turns httpx.ConnectError into a bare ConnectionError
    if type(exc) is ConnectionError:
        return ProviderError(
            FailureKind.UNREACHABLE, f"backend '{name}' is unreachable", backend=name
        )
    known = http_errors.classify_transport(name, exc)
    if known is not None:
        return known
    if isinstance(exc, ResponseError):
        # an error the server reported inside an otherwise healthy stream
        if exc.status_code and exc.status_code > 0:
            return classify_status(name, exc.status_code, str(exc.error))
        return ProviderError(
            FailureKind.TRANSIENT, f"backend '{name}' reported an error in the stream", backend=name
        )
    if isinstance(exc, ValueError | ValidationError | KeyError | TypeError):
        return http_errors.unreadable(name)
    return ProviderError(
        FailureKind.PROVIDER, f"backend '{name}' failed unexpectedly", backend=name
    )
