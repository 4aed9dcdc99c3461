"""One classification rule for Ollama failures; messages never echo the body."""

from __future__ import annotations

import httpx
import pytest
from ollama import ResponseError

from gateway.core.errors import FailureKind
from gateway.providers.ollama.errors import classify_exception, classify_status

SECRET = "hasta Ayşe Yılmaz TCKN 10000000146"


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (429, "busy", FailureKind.RATE_LIMIT),
        (401, "unauthorized", FailureKind.CREDENTIAL),
        (403, "forbidden", FailureKind.CREDENTIAL),
        (400, "invalid options", FailureKind.CALLER),
        (400, "the input length exceeds the context length", FailureKind.CONTEXT_LENGTH),
        (422, "prompt too long", FailureKind.CONTEXT_LENGTH),
        (404, 'model "x" not found, try pulling it first', FailureKind.PROVIDER),
        (500, "llama runner process has terminated", FailureKind.TRANSIENT),
        (503, "server busy", FailureKind.TRANSIENT),
        (504, "gateway timeout", FailureKind.TIMEOUT),
        (418, "teapot", FailureKind.PROVIDER),
    ],
)
def test_status_rules(status: int, body: str, kind: FailureKind) -> None:
    err = classify_status("b", status, f"{body} {SECRET}", retry_after=3.0)
    assert err.kind == kind and err.status == status
    assert SECRET not in err.message and body not in err.message
    assert err.retry_after == (3.0 if status == 429 else None)


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (TimeoutError(), FailureKind.TIMEOUT),
        (httpx.ReadTimeout("t"), FailureKind.TIMEOUT),
        (ConnectionError("Failed to connect to Ollama"), FailureKind.UNREACHABLE),
        (httpx.ConnectError("refused"), FailureKind.UNREACHABLE),
        (ConnectionResetError("reset"), FailureKind.TRANSIENT),
        (httpx.RemoteProtocolError("peer closed"), FailureKind.TRANSIENT),
        (ResponseError(f"stream error {SECRET}"), FailureKind.TRANSIENT),
        (ResponseError("context length exceeded", 400), FailureKind.CONTEXT_LENGTH),
        (ValueError("Expecting value"), FailureKind.PROVIDER),
        (RuntimeError(SECRET), FailureKind.PROVIDER),
    ],
)
def test_exception_rules(exc: BaseException, kind: FailureKind) -> None:
    err = classify_exception("b", exc)
    assert err.kind == kind
    assert SECRET not in err.message
