"""The HTTP failure rules every HTTP-speaking adapter shares (no raw bodies in messages).

429 -> RATE_LIMIT (with Retry-After), 401/403 -> CREDENTIAL, 400/413/422 -> CONTEXT_LENGTH when
the body says the input is too long else CALLER, 408/504 -> TIMEOUT, other 5xx -> TRANSIENT,
anything else -> PROVIDER; httpx timeouts -> TIMEOUT, connect failures -> UNREACHABLE, other
transport failures -> TRANSIENT. A vendor module keeps only what is its own: the wording that
marks a too-long input, its 404 message, exceptions of its SDK. Bodies are only inspected.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

import httpx

from gateway.core.errors import FailureKind, ProviderError

INVALID_STATUSES = (400, 413, 422)
_INSPECTED = 4096  # how much of a body is searched for context-length wording


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a `Retry-After` header (delta-seconds form); None if absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        return None


def mentions(body: str | bytes, markers: Iterable[str]) -> bool:
    """Whether the start of `body` (case-insensitive) contains any of `markers` (ASCII)."""
    if isinstance(body, bytes):
        raw = body[:_INSPECTED].lower()
        return any(m.encode() in raw for m in markers)
    low = body[:_INSPECTED].lower()
    return any(m in low for m in markers)


def kind_for_status(status: int, too_long: bool = False) -> FailureKind:
    """The failure kind of an HTTP error status; `too_long` says the body reported a
    context-length overflow (only looked at for 400/413/422)."""
    if status == 429:
        return FailureKind.RATE_LIMIT
    if status in (401, 403):
        return FailureKind.CREDENTIAL
    if status in INVALID_STATUSES:
        return FailureKind.CONTEXT_LENGTH if too_long else FailureKind.CALLER
    if status in (408, 504):
        return FailureKind.TIMEOUT
    if status >= 500:
        return FailureKind.TRANSIENT
    return FailureKind.PROVIDER


def classify_status(
    name: str,
    status: int,
    body: str | bytes,
    context_markers: Iterable[str],
    *,
    retry_after: float | None = None,
    credential: str = "credentials",
    invalid: str = "request",
) -> ProviderError:
    """The classified error for an HTTP failure of backend `name`. `credential` and `invalid`
    name what the backend refused / rejected, in the message."""
    too_long = status in INVALID_STATUSES and mentions(body, context_markers)
    kind = kind_for_status(status, too_long)
    if kind == FailureKind.RATE_LIMIT:
        message = f"backend '{name}' is throttling (429)"
    elif kind == FailureKind.CREDENTIAL:
        message = f"backend '{name}' refused the gateway's {credential}"
    elif kind == FailureKind.CONTEXT_LENGTH:
        message = f"the request is too long for backend '{name}'"
    elif kind == FailureKind.CALLER:
        message = f"backend '{name}' rejected the {invalid} as invalid ({status})"
    elif kind == FailureKind.TIMEOUT:
        message = f"backend '{name}' timed out ({status})"
    elif kind == FailureKind.TRANSIENT:
        message = f"backend '{name}' failed ({status})"
    else:
        message = f"backend '{name}' answered {status}"
    return ProviderError(
        kind,
        message,
        status=status,
        backend=name,
        retry_after=retry_after if kind == FailureKind.RATE_LIMIT else None,
    )


def classify_transport(
    name: str, exc: BaseException, *, stdlib: bool = True
) -> ProviderError | None:
    """The classified error for a timeout or connection failure (an already classified
    `ProviderError` as it is), or None when `exc` is neither. With `stdlib`, the builtin
    `TimeoutError` and `ConnectionError` count too (SDKs that unwrap httpx raise those)."""
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, httpx.TimeoutException) or (stdlib and isinstance(exc, TimeoutError)):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out", backend=name)
    if isinstance(exc, httpx.ConnectError):
        return ProviderError(
            FailureKind.UNREACHABLE, f"backend '{name}' is unreachable", backend=name
        )
    if isinstance(exc, httpx.TransportError) or (stdlib and isinstance(exc, ConnectionError)):
        return ProviderError(
            FailureKind.TRANSIENT, f"connection to backend '{name}' failed", backend=name
        )
    return None


def unreadable(name: str) -> ProviderError:
    return ProviderError(
        FailureKind.PROVIDER, f"backend '{name}' gave an unreadable answer", backend=name
    )


StatusRule = Callable[[str, int, str, float | None], ProviderError]


def response_hook(name: str, classify: StatusRule) -> Callable[[httpx.Response], Awaitable[None]]:
    """An httpx response hook raising `classify(name, status, body, retry_after)` for any HTTP
    failure: for SDKs built on httpx that would otherwise drop the status, headers or body."""

    async def hook(response: httpx.Response) -> None:
        if response.status_code < 400:
            return
        body = await response.aread()
        raise classify(
            name,
            response.status_code,
            body.decode("utf-8", "replace"),
            parse_retry_after(response.headers.get("retry-after")),
        )

    return hook
