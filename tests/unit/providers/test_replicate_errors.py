"""One classification rule for Replicate failures; messages never echo bodies or errors."""

from __future__ import annotations

import httpx
import pytest
from replicate.exceptions import ReplicateError

from gateway.core.errors import FailureKind
from gateway.providers.replicate.errors import classify_exception, classify_status, model_failure

SECRET = "hasta Ayşe Yılmaz TCKN 10000000146"


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (429, "Request was throttled", FailureKind.RATE_LIMIT),
        (401, "Unauthenticated", FailureKind.CREDENTIAL),
        (403, "Forbidden", FailureKind.CREDENTIAL),
        (422, "Input validation failed", FailureKind.CALLER),
        (422, "prompt length exceeds the maximum context length", FailureKind.CONTEXT_LENGTH),
        (404, "Not found", FailureKind.PROVIDER),
        (500, "Internal Server Error", FailureKind.TRANSIENT),
        (502, "Bad gateway", FailureKind.TRANSIENT),
        (504, "Gateway timeout", FailureKind.TIMEOUT),
    ],
)
def test_status_rules(status: int, body: str, kind: FailureKind) -> None:
    err = classify_status("r", status, f"{body} {SECRET}", retry_after=2.5)
    assert err.kind == kind and err.status == status
    assert SECRET not in err.message and body not in err.message
    assert err.retry_after == (2.5 if status == 429 else None)


@pytest.mark.parametrize(
    ("status", "error", "kind"),
    [
        ("failed", f"CUDA out of memory {SECRET}", FailureKind.TRANSIENT),
        ("failed", "too many tokens in the prompt", FailureKind.CONTEXT_LENGTH),
        ("failed", None, FailureKind.TRANSIENT),
        ("canceled", None, FailureKind.PROVIDER),
    ],
)
def test_model_failures(status: str, error: str | None, kind: FailureKind) -> None:
    err = model_failure("r", status, error)
    assert err.kind == kind and SECRET not in err.message


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (TimeoutError(), FailureKind.TIMEOUT),
        (httpx.ConnectTimeout("t"), FailureKind.TIMEOUT),
        (httpx.ConnectError("refused"), FailureKind.UNREACHABLE),
        (httpx.RemoteProtocolError("peer closed"), FailureKind.TRANSIENT),
        (ConnectionResetError(), FailureKind.TRANSIENT),
        (ReplicateError(status=429, detail=SECRET), FailureKind.RATE_LIMIT),
        (ReplicateError(detail="Model does not support streaming"), FailureKind.PROVIDER),
        (ValueError(SECRET), FailureKind.PROVIDER),
    ],
)
def test_exception_rules(exc: BaseException, kind: FailureKind) -> None:
    err = classify_exception("r", exc)
    assert err.kind == kind and SECRET not in err.message
