"""Classify boto3/botocore failures into `FailureKind`s at the adapter boundary.

Messages name the backend and the AWS error code only: never the AWS message text (it can echo
parts of the request), never the raw body.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from botocore import exceptions as bexc
from botocore.eventstream import ParserError as EventStreamParserError
from urllib3.exceptions import ProtocolError

from gateway.core.errors import FailureKind, ProviderError

# error codes compared lower-case: HTTP errors say "ThrottlingException", stream exception
# frames say "throttlingException"
_BY_CODE: Mapping[str, FailureKind] = {
    "throttlingexception": FailureKind.RATE_LIMIT,
    "servicequotaexceededexception": FailureKind.RATE_LIMIT,
    "toomanyrequestsexception": FailureKind.RATE_LIMIT,
    "internalserverexception": FailureKind.TRANSIENT,
    "internalfailure": FailureKind.TRANSIENT,
    "serviceunavailableexception": FailureKind.TRANSIENT,
    "serviceunavailable": FailureKind.TRANSIENT,
    "modelnotreadyexception": FailureKind.TRANSIENT,
    "validationexception": FailureKind.CALLER,
    "serializationexception": FailureKind.CALLER,
    "accessdeniedexception": FailureKind.CREDENTIAL,
    "unrecognizedclientexception": FailureKind.CREDENTIAL,
    "expiredtokenexception": FailureKind.CREDENTIAL,
    "invalidsignatureexception": FailureKind.CREDENTIAL,
    "incompletesignature": FailureKind.CREDENTIAL,
    "missingauthenticationtokenexception": FailureKind.CREDENTIAL,
    "modeltimeoutexception": FailureKind.TIMEOUT,
    "resourcenotfoundexception": FailureKind.PROVIDER,
    "modelerrorexception": FailureKind.PROVIDER,
    "modelstreamerrorexception": FailureKind.PROVIDER,
}
_CONTEXT_MARKERS = (
    "too long",
    "input is too long",
    "context",
    "too many input tokens",
    "too many tokens",
)
_SAFE_CODE = re.compile(r"[^A-Za-z0-9_.]")


def _kind_for_status(status: int | None) -> FailureKind:
    if status == 429:
        return FailureKind.RATE_LIMIT
    if status in (401, 403):
        return FailureKind.CREDENTIAL
    if status in (400, 413, 422):
        return FailureKind.CALLER
    if status in (408, 504):
        return FailureKind.TIMEOUT
    if status is not None and status >= 500:
        return FailureKind.TRANSIENT
    return FailureKind.PROVIDER


def parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


def classify_client_error(name: str, exc: bexc.ClientError) -> ProviderError:
    response: Mapping[str, Any] = exc.response or {}
    error = response.get("Error") or {}
    meta = response.get("ResponseMetadata") or {}
    code = str(error.get("Code") or "")
    status = meta.get("HTTPStatusCode")
    status = status if isinstance(status, int) and status >= 400 else None
    headers = {str(k).lower(): str(v) for k, v in (meta.get("HTTPHeaders") or {}).items()}
    kind = _BY_CODE.get(code.lower()) or _kind_for_status(status)
    safe = _SAFE_CODE.sub("", code)[:64] or (str(status) if status else "unknown error")
    if kind == FailureKind.CALLER:
        text = str(error.get("Message") or "").lower()
        if any(marker in text for marker in _CONTEXT_MARKERS):
            return ProviderError(
                FailureKind.CONTEXT_LENGTH,
                f"the request is too long for backend '{name}' ({safe})",
                status=status,
                backend=name,
            )
    messages = {
        FailureKind.RATE_LIMIT: f"backend '{name}' is throttling ({safe})",
        FailureKind.CREDENTIAL: f"backend '{name}' refused the gateway's AWS credentials ({safe})",
        FailureKind.CALLER: f"backend '{name}' rejected the request as invalid ({safe})",
        FailureKind.TIMEOUT: f"backend '{name}' timed out ({safe})",
        FailureKind.TRANSIENT: f"backend '{name}' failed ({safe})",
    }
    retry_after = parse_retry_after(headers.get("retry-after"))
    return ProviderError(
        kind,
        messages.get(kind, f"backend '{name}' answered an error ({safe})"),
        status=status,
        backend=name,
        retry_after=retry_after if kind == FailureKind.RATE_LIMIT else None,
    )


def classify_exception(name: str, exc: BaseException) -> ProviderError:
    """Any exception out of a boto3 call -> a classified ProviderError."""
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, bexc.ClientError):
        return classify_client_error(name, exc)
    if isinstance(exc, (bexc.ReadTimeoutError, bexc.ConnectTimeoutError, TimeoutError)):
        return ProviderError(FailureKind.TIMEOUT, f"backend '{name}' timed out", backend=name)
    if isinstance(exc, bexc.EndpointConnectionError):
        return ProviderError(
            FailureKind.UNREACHABLE, f"backend '{name}' is unreachable", backend=name
        )
    if isinstance(
        exc, (bexc.ConnectionError, bexc.HTTPClientError, ConnectionError, ProtocolError)
    ):
        return ProviderError(
            FailureKind.TRANSIENT, f"connection to backend '{name}' failed", backend=name
        )
    if isinstance(
        exc, (bexc.NoCredentialsError, bexc.PartialCredentialsError, bexc.CredentialRetrievalError)
    ):
        return ProviderError(
            FailureKind.CREDENTIAL, f"no usable AWS credentials for backend '{name}'", backend=name
        )
    if isinstance(exc, bexc.ParamValidationError):
        return ProviderError(
            FailureKind.CALLER,
            f"the request could not be expressed for backend '{name}'",
            backend=name,
        )
    if isinstance(exc, EventStreamParserError):
        return ProviderError(
            FailureKind.PROVIDER, f"backend '{name}' sent a broken stream frame", backend=name
        )
    return ProviderError(
        FailureKind.PROVIDER, f"backend '{name}' gave an unreadable answer", backend=name
    )


def interrupted(name: str, exc: BaseException) -> ProviderError:
    """A failure after the first chunk went out: the stream is cut, whatever the cause."""
    cause = classify_exception(name, exc)
    return ProviderError(
        FailureKind.INTERRUPTED,
        f"stream from backend '{name}' was cut ({cause.kind.value})",
        status=cause.status,
        backend=name,
    )
