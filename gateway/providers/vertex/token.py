"""Vertex credentials from an OAuth2 access token handed over as is: an environment variable,
or a file that something else (a sidecar, a cron job, `gcloud auth print-access-token`) keeps
fresh. For private endpoints and test setups that have a token but no service-account file."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from google.auth import credentials, exceptions


class AccessTokenCredentials(credentials.Credentials):
    """A bearer token from `read()`; with `reread_s`, read again once that long has passed
    (google-auth calls `refresh` when the token is about to expire)."""

    def __init__(self, read: Callable[[], str], reread_s: float | None = None) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self._read = read
        self._reread_s = reread_s
        self.refresh(None)

    def refresh(self, request: Any) -> None:
        token = self._read().strip()
        if not token:
            raise exceptions.RefreshError(  # type: ignore[no-untyped-call]
                "the access token is empty"
            )
        self.token = token
        if self._reread_s is not None:
            # google-auth compares expiry with a naive UTC clock
            now = datetime.now(UTC).replace(tzinfo=None)
            self.expiry = now + timedelta(seconds=self._reread_s)


def from_env(name: str, env: dict[str, str]) -> AccessTokenCredentials:
    return AccessTokenCredentials(lambda: env.get(name, ""))


def from_file(path: str, reread_s: float = 600.0) -> AccessTokenCredentials:
    """Re-read every `reread_s` (google-auth refreshes a few minutes before expiry)."""
    return AccessTokenCredentials(lambda: Path(path).read_text(encoding="utf-8"), reread_s)
