"""Classify Ollama failures into `FailureKind`s at the boundary (never raw bodies in messages).

HTTP errors are classified in an httpx response hook, where the status, headers (Retry-After)
and body are all at hand; the `ollama` client would otherwise flatten them into a
`ResponseError` carrying only the raw text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import httpx
from ollama import ResponseError
from pydantic import ValidationError

from gateway.core.errors import FailureKind, ProviderError

_CONTEXT_MARKERS = ("context length", "context window", "context_length", "prompt too long",
                    "exceeds the context", "n_ctx")
_NOT_FOUND_MARKERS = ("not found", "try pulling")


def parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def classify_status(name: str, status: int, body: str,
                    retry_after: float | None = None) -> ProviderError:
    """One rule for every Ollama HTTP failure. `body` is only inspected, never echoed."""
    low = body[:4096].lower()
    if status == 429:
        return ProviderError(FailureKind.RATE_LIMIT, f"backend '{name}' is throttling (429)",
                             status=status, retry_after=retry_after, backend=name)
    if status in (401, 403):
        return ProviderError(FailureKind.CREDENTIAL,
                             f"backend '{name}' refused the gateway's credentials",
                             status=status, backend=name)
    if status in (400, 413, 422):
        if any(m in low for m in _CONTEXT_MARKERS):
            return ProviderError(FailureKind.CONTEXT_LENGTH,
                                 f"the request is too long for backend '{name}'",
                                 status=status, backend=name)
        return ProviderError(FailureKind.CALLER,
                             f"backend '{name}' rejected the request as invalid ({status})",
                             status=status, backend=name)
    if status == 404:
        what = ("the configured model is not pulled"
                if any(m in low for m in _NOT_FOUND_MARKERS) else "not found")
        return ProviderError(FailureKind.PROVIDER, f"backend '{name}': {what} (404)",
                             status=status, backend=name)
    if status in (408, 504):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out ({status})",
                             status=status, backend=name)
    if status >= 500:
        return ProviderError(FailureKind.TRANSIENT, f"backend '{name}' failed ({status})",
                             status=status, backend=name)
    return ProviderError(FailureKind.PROVIDER, f"backend '{name}' answered {status}",
                         status=status, backend=name)


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
    # the ollama client turns httpx.ConnectError into a bare ConnectionError
    if isinstance(exc, httpx.ConnectError) or type(exc) is ConnectionError:
        return ProviderError(FailureKind.UNREACHABLE, f"backend '{name}' is unreachable",
                             backend=name)
    if isinstance(exc, httpx.TransportError | ConnectionError):
        return ProviderError(FailureKind.TRANSIENT, f"connection to backend '{name}' failed",
                             backend=name)
    if isinstance(exc, ResponseError):
        # an error the server reported inside an otherwise healthy stream
        if exc.status_code and exc.status_code > 0:
            return classify_status(name, exc.status_code, str(exc.error))
        return ProviderError(FailureKind.TRANSIENT,
                             f"backend '{name}' reported an error in the stream", backend=name)
    if isinstance(exc, ValueError | ValidationError | KeyError | TypeError):
        return ProviderError(FailureKind.PROVIDER,
                             f"backend '{name}' gave an unreadable answer", backend=name)
    return ProviderError(FailureKind.PROVIDER, f"backend '{name}' failed unexpectedly",
                         backend=name)
