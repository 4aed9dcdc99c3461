"""The error model.

`GatewayError` is what the edge turns into an OpenAI-shaped error body. `ProviderError` is what
an adapter raises at its boundary, already classified, so retry and fallback never need to look
at vendor details. Messages must never carry prompts, secrets or raw provider bodies.
"""

from __future__ import annotations

from enum import StrEnum


class FailureKind(StrEnum):
    RATE_LIMIT = "rate_limit"
    TRANSIENT = "transient"
    CALLER = "caller"
    CREDENTIAL = "credential"
    CONTEXT_LENGTH = "context_length"
    TIMEOUT = "timeout"
    PROVIDER = "provider"  # malformed answer or unexpected protocol
    UNREACHABLE = "unreachable"
    INTERRUPTED = "interrupted"  # stream cut after it started
    UNSUPPORTED = "unsupported"  # capability the backend lacks

    @property
    def may_fall_back(self) -> bool:
        """Whether another backend may be tried after this failure."""
        return self not in (FailureKind.CALLER, FailureKind.INTERRUPTED)


class ProviderError(Exception):
    """A classified failure of one backend call."""

    def __init__(
        self,
        kind: FailureKind,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        backend: str | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.backend = backend
        self.code = code  # a finer label than `kind` for the ledger (e.g. "incomplete")

    def __repr__(self) -> str:
        return f"ProviderError({self.kind.value}, {self.message!r}, status={self.status})"


class GatewayError(Exception):
    """An error answered to the client in the OpenAI error shape."""

    status: int = 500
    type: str = "api_error"
    code: str | None = None

    def __init__(
        self,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        status: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.headers = headers or {}

    def body(self) -> dict[str, dict[str, str | None]]:
        return {
            "error": {
                "message": self.message,
                "type": self.type,
                "param": self.param,
                "code": self.code,
            }
        }


class InvalidRequest(GatewayError):
    status = 400
    type = "invalid_request_error"
    code = "invalid_request"


class AuthenticationFailed(GatewayError):
    status = 401
    type = "authentication_error"
    code = "invalid_api_key"


class PermissionDenied(GatewayError):
    status = 403
    type = "permission_error"
    code = "forbidden"


class ModelNotFound(GatewayError):
    status = 404
    type = "invalid_request_error"
    code = "model_not_found"


class RateLimited(GatewayError):
    status = 429
    type = "rate_limit_error"
    code = "rate_limit_exceeded"


class Blocked(GatewayError):
    """The policy refuses the request (for example special-category data with no on-prem)."""

    status = 403
    type = "policy_error"
    code = "blocked_by_policy"


class ServiceUnavailable(GatewayError):
    status = 503
    type = "service_unavailable"
    code = "no_backend_available"


class UpstreamTimeout(GatewayError):
    status = 504
    type = "timeout_error"
    code = "upstream_timeout"
