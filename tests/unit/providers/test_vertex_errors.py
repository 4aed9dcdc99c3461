"""Classification of google-genai / transport failures, from real SDK error objects."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from google.auth import exceptions as auth_exceptions
from google.genai import errors as genai_errors

from gateway.core.errors import FailureKind
from gateway.providers.vertex.errors import classify_exception

SECRET_PROMPT = "Hastanın TCKN'si 10000000146, tanısı diyabet"


def api_error(
    code: int,
    status: str,
    message: str = "x",
    headers: dict[str, str] | None = None,
    details: list[dict[str, Any]] | None = None,
) -> genai_errors.APIError:
    """The error exactly as the SDK raises it for an HTTP answer in Google's error shape."""
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details:
        error["details"] = details
    response = httpx.Response(code, json={"error": error}, headers=headers)
    try:
        genai_errors.APIError.raise_for_response(response)
    except genai_errors.APIError as exc:
        return exc
    raise AssertionError("the SDK did not raise")


@pytest.mark.parametrize(
    ("code", "status", "kind"),
    [
        (429, "RESOURCE_EXHAUSTED", FailureKind.RATE_LIMIT),
        (500, "INTERNAL", FailureKind.TRANSIENT),
        (503, "UNAVAILABLE", FailureKind.TRANSIENT),
        (400, "INVALID_ARGUMENT", FailureKind.CALLER),
        (401, "UNAUTHENTICATED", FailureKind.CREDENTIAL),
        (403, "PERMISSION_DENIED", FailureKind.CREDENTIAL),
        (504, "DEADLINE_EXCEEDED", FailureKind.TIMEOUT),
        (404, "NOT_FOUND", FailureKind.PROVIDER),
    ],
)
def test_http_errors(code: int, status: str, kind: FailureKind) -> None:
    err = classify_exception("vx", api_error(code, status))
    assert err.kind == kind
    assert err.status == code
    assert err.backend == "vx"


def test_token_limit_wording_is_context_length() -> None:
    exc = api_error(
        400,
        "INVALID_ARGUMENT",
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    )
    assert classify_exception("vx", exc).kind == FailureKind.CONTEXT_LENGTH


def test_retry_after_header_wins_then_retry_info_delay() -> None:
    with_header = api_error(429, "RESOURCE_EXHAUSTED", headers={"retry-after": "7"})
    assert classify_exception("vx", with_header).retry_after == 7
    with_info = api_error(
        429,
        "RESOURCE_EXHAUSTED",
        details=[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2.5s"}],
    )
    assert classify_exception("vx", with_info).retry_after == 2.5
    assert classify_exception("vx", api_error(429, "RESOURCE_EXHAUSTED")).retry_after is None


def test_messages_never_carry_the_provider_body() -> None:
    exc = api_error(400, "INVALID_ARGUMENT", f"Bad request near: {SECRET_PROMPT}")
    assert SECRET_PROMPT in str(exc)  # the SDK's own message does carry it...
    err = classify_exception("vx", exc)
    assert "10000000146" not in err.message and "diyabet" not in err.message  # ...ours never
    assert "10000000146" not in repr(err)


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (httpx.ReadTimeout("slow"), FailureKind.TIMEOUT),
        (httpx.ConnectTimeout("slow"), FailureKind.TIMEOUT),
        (TimeoutError(), FailureKind.TIMEOUT),
        (httpx.ConnectError("refused"), FailureKind.UNREACHABLE),
        (httpx.RemoteProtocolError("peer closed"), FailureKind.TRANSIENT),
        (auth_exceptions.TransportError("dns"), FailureKind.TRANSIENT),
        (auth_exceptions.RefreshError("invalid_grant"), FailureKind.CREDENTIAL),
        (
            ValueError(f"Failed to parse response as JSON. Raw response: {SECRET_PROMPT}"),
            FailureKind.PROVIDER,
        ),
    ],
)
def test_transport_and_parse_failures(exc: BaseException, kind: FailureKind) -> None:
    err = classify_exception("vx", exc)
    assert err.kind == kind
    assert "diyabet" not in err.message
