"""Classify google-genai / transport failures into `FailureKind`s at the Vertex boundary.

Messages name the backend, the HTTP code and Google's status word, never the provider's body
(which may echo the prompt) or credentials.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from google.auth import exceptions as auth_exceptions
from google.genai import errors as genai_errors

from gateway.core.errors import FailureKind, ProviderError

_CONTEXT_MARKERS = (
    "token count",
    "input token",
    "tokens exceeds",
    "too many tokens",
    "exceeds the maximum number of tokens",
    "context window",
    "context length",
    "input is too long",
    "maximum number of tokens",
)
_RATE_STATUSES = frozenset({"RESOURCE_EXHAUSTED"})
_TRANSIENT_STATUSES = frozenset({"UNAVAILABLE", "INTERNAL", "ABORTED", "UNKNOWN"})
_TIMEOUT_STATUSES = frozenset({"DEADLINE_EXCEEDED"})
_CREDENTIAL_STATUSES = frozenset({"UNAUTHENTICATED", "PERMISSION_DENIED"})
_CALLER_STATUSES = frozenset({"INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE"})
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


def classify_api_error(name: str, exc: genai_errors.APIError) -> ProviderError:
    """Map an SDK `APIError` (HTTP code + google.rpc status) to a classified failure."""
    code = int(exc.code or 0)
    status = (exc.status or "").upper() if isinstance(exc.status, str) else ""
    label = f"{code} {status}".strip()
    if code == 429 or status in _RATE_STATUSES:
        return ProviderError(
            FailureKind.RATE_LIMIT,
            f"backend '{name}' is throttling ({label})",
            status=code or 429,
            retry_after=retry_after_of(exc),
            backend=name,
        )
    if code in (401, 403) or status in _CREDENTIAL_STATUSES:
        return ProviderError(
            FailureKind.CREDENTIAL,
            f"backend '{name}' refused the gateway's credentials ({label})",
            status=code,
            backend=name,
        )
    if code in (408, 504) or status in _TIMEOUT_STATUSES:
        return ProviderError(
            FailureKind.TIMEOUT, f"backend '{name}' timed out ({label})", status=code, backend=name
        )
    if code in (400, 413, 422) or status in _CALLER_STATUSES:
        message = (exc.message or "").lower() if isinstance(exc.message, str) else ""
        if any(m in message for m in _CONTEXT_MARKERS):
            return ProviderError(
                FailureKind.CONTEXT_LENGTH,
                f"the request is too long for backend '{name}' ({label})",
                status=code,
                backend=name,
            )
        return ProviderError(
            FailureKind.CALLER,
            f"backend '{name}' rejected the request as invalid ({label})",
            status=code,
            backend=name,
        )
    if code == 404 or status == "NOT_FOUND":
        return ProviderError(
            FailureKind.PROVIDER,
            f"backend '{name}' does not serve the configured model ({label})",
            status=code,
            backend=name,
        )
    if code >= 500 or status in _TRANSIENT_STATUSES:
        return ProviderError(
            FailureKind.TRANSIENT, f"backend '{name}' failed ({label})", status=code, backend=name
        )
    return ProviderError(
        FailureKind.PROVIDER,
        f"backend '{name}' answered {label or 'oddly'}",
        status=code or None,
        backend=name,
    )


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    """Any exception raised while calling the SDK, already or not yet classified."""
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, genai_errors.APIError):
        return classify_api_error(name, exc)
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out", backend=name)
    if isinstance(exc, httpx.ConnectError):
        return ProviderError(
            FailureKind.UNREACHABLE, f"backend '{name}' is unreachable", backend=name
        )
    if isinstance(exc, httpx.TransportError | ConnectionError | auth_exceptions.TransportError):
        return ProviderError(
            FailureKind.TRANSIENT, f"connection to backend '{name}' failed", backend=name
        )
    if isinstance(exc, auth_exceptions.GoogleAuthError):
        return ProviderError(
            FailureKind.CREDENTIAL,
            f"backend '{name}' could not obtain a Google access token",
            backend=name,
        )
    return ProviderError(
        FailureKind.PROVIDER, f"backend '{name}' gave an unreadable answer", backend=name
    )


def retry_after_of(exc: genai_errors.APIError) -> float | None:
    """The Retry-After header if Google sent one, else a google.rpc.RetryInfo `retryDelay`."""
    headers = getattr(exc.response, "headers", None)
    if headers is not None:
        value = parse_retry_after(headers.get("retry-after"))
        if value is not None:
            return value
    return _retry_info_delay(exc.details)


def parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def _retry_info_delay(details: Any) -> float | None:
    if isinstance(details, str):
        try:
            details = json.loads(details)
        except ValueError:
            return None
    if not isinstance(details, dict):
        return None
    error = details.get("error", details)
    items = error.get("details") if isinstance(error, dict) else None
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and str(item.get("@type", "")).endswith("RetryInfo"):
            match = _DURATION.match(str(item.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None
