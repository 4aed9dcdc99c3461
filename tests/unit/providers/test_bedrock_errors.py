"""Classification of boto3/botocore failures at the Bedrock boundary."""

from __future__ import annotations

import pytest
from botocore import exceptions as bexc
from botocore.eventstream import ChecksumMismatch
from urllib3.exceptions import ProtocolError

from gateway.core.errors import FailureKind
from gateway.providers.bedrock.errors import classify_exception, interrupted

SECRET_TEXT = "hasta Ayşe Yılmaz 10000000146"  # AWS messages may echo the prompt


def client_error(
    code: str, status: int, message: str = SECRET_TEXT, headers: dict[str, str] | None = None
) -> bexc.ClientError:
    return bexc.ClientError(
        {
            "Error": {"Code": code, "Message": message},
            "ResponseMetadata": {"HTTPStatusCode": status, "HTTPHeaders": headers or {}},
        },
        "Converse",
    )


@pytest.mark.parametrize(
    ("code", "status", "kind"),
    [
        ("ThrottlingException", 429, FailureKind.RATE_LIMIT),
        ("ServiceQuotaExceededException", 400, FailureKind.RATE_LIMIT),
        ("", 429, FailureKind.RATE_LIMIT),
        ("InternalServerException", 500, FailureKind.TRANSIENT),
        ("ServiceUnavailableException", 503, FailureKind.TRANSIENT),
        ("ModelNotReadyException", 429, FailureKind.TRANSIENT),
        ("", 502, FailureKind.TRANSIENT),
        ("ValidationException", 400, FailureKind.CALLER),
        ("AccessDeniedException", 403, FailureKind.CREDENTIAL),
        ("UnrecognizedClientException", 403, FailureKind.CREDENTIAL),
        ("ExpiredTokenException", 403, FailureKind.CREDENTIAL),
        ("ModelTimeoutException", 408, FailureKind.TIMEOUT),
        ("ResourceNotFoundException", 404, FailureKind.PROVIDER),
        ("throttlingException", 200, FailureKind.RATE_LIMIT),  # stream exception frame spelling
        ("internalServerException", 200, FailureKind.TRANSIENT),
    ],
)
def test_client_errors_by_code_and_status(code: str, status: int, kind: FailureKind) -> None:
    err = classify_exception("bed", client_error(code, status))
    assert err.kind == kind
    assert err.backend == "bed"
    assert SECRET_TEXT not in err.message and "Ayşe" not in str(err)


@pytest.mark.parametrize(
    "message",
    [
        "Input is too long for requested model.",
        "The prompt is too long",
        "prompt exceeds the model's context window",
    ],
)
def test_validation_about_length_is_context_length(message: str) -> None:
    err = classify_exception("bed", client_error("ValidationException", 400, message))
    assert err.kind == FailureKind.CONTEXT_LENGTH
    assert message not in err.message


def test_retry_after_only_for_rate_limits() -> None:
    throttled = classify_exception(
        "bed", client_error("ThrottlingException", 429, headers={"Retry-After": "4"})
    )
    assert throttled.retry_after == 4.0
    assert throttled.status == 429
    failed = classify_exception(
        "bed", client_error("InternalServerException", 500, headers={"retry-after": "4"})
    )
    assert failed.retry_after is None
    garbage = classify_exception(
        "bed", client_error("ThrottlingException", 429, headers={"retry-after": "soon"})
    )
    assert garbage.retry_after is None


def test_error_codes_are_sanitised_in_messages() -> None:
    err = classify_exception("bed", client_error("Weird<script>Code", 418))
    assert "<" not in err.message and "WeirdscriptCode" in err.message
    assert err.kind == FailureKind.PROVIDER


@pytest.mark.parametrize(
    ("exc", "kind"),
    [
        (bexc.ReadTimeoutError(endpoint_url="http://x"), FailureKind.TIMEOUT),
        (bexc.ConnectTimeoutError(endpoint_url="http://x"), FailureKind.TIMEOUT),
        (TimeoutError(), FailureKind.TIMEOUT),
        (bexc.EndpointConnectionError(endpoint_url="http://x"), FailureKind.UNREACHABLE),
        (bexc.ConnectionClosedError(endpoint_url="http://x"), FailureKind.TRANSIENT),
        (ConnectionResetError(), FailureKind.TRANSIENT),
        (ProtocolError("Connection broken"), FailureKind.TRANSIENT),
        (bexc.NoCredentialsError(), FailureKind.CREDENTIAL),
        (bexc.ParamValidationError(report="bad"), FailureKind.CALLER),
        (ChecksumMismatch(1, 2), FailureKind.PROVIDER),
        (ValueError("what"), FailureKind.PROVIDER),
    ],
)
def test_transport_and_sdk_exceptions(exc: BaseException, kind: FailureKind) -> None:
    assert classify_exception("bed", exc).kind == kind


def test_anything_after_the_first_chunk_is_interrupted() -> None:
    err = interrupted("bed", client_error("modelStreamErrorException", 200))
    assert err.kind == FailureKind.INTERRUPTED
    assert SECRET_TEXT not in err.message
