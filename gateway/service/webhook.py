"""Signed webhooks: an HMAC-SHA256 of `<timestamp>.<body>` under a shared secret.

Headers sent with the exact body bytes:
  x-gecit-timestamp: <unix seconds>
  x-gecit-signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>." + body)>
A receiver recomputes the HMAC over the timestamp header, a dot and the raw body, compares in
constant time, and refuses a timestamp older than a few minutes (a replayed delivery); the
body's `id` lets it drop a retry it already handled. The secret never leaves this module.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Final

import httpx

SIGNATURE: Final = "x-gecit-signature"
TIMESTAMP: Final = "x-gecit-timestamp"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def verify(
    secret: str, body: bytes, headers: dict[str, str], now: float, tolerance_s: float = 300
) -> bool:
    """What a receiver does (the tests' receiver uses it; docs/budgets.md spells it out)."""
    try:
        ts = int(headers.get(TIMESTAMP, ""))
    except ValueError:
        return False
    if abs(now - ts) > tolerance_s:
        return False
    return hmac.compare_digest(signature(secret, ts, body), headers.get(SIGNATURE, ""))


class WebhookError(Exception):
    """A delivery that did not reach a 2xx; the message is a short kind, never a body."""


class Webhook:
    def __init__(self, url: str, secret: str, timeout_s: float) -> None:
        self._url = url
        self._secret = secret
        self._timeout_s = timeout_s

    async def send(self, body: bytes, now: float) -> None:
        ts = int(now)
        headers = {
            "content-type": "application/json",
            "user-agent": "gecit-budget-alerts",
            TIMESTAMP: str(ts),
            SIGNATURE: signature(self._secret, ts, body),
        }
        try:
            # no proxies from the environment, no redirects; the answer's body is never read
            async with (
                httpx.AsyncClient(timeout=self._timeout_s, trust_env=False) as client,
                client.stream("POST", self._url, content=body, headers=headers) as r,
            ):
                status = r.status_code
        except Exception as exc:  # whatever failed, only its kind is kept (no URL, no body)
            raise WebhookError(type(exc).__name__) from None
        if not 200 <= status < 300:
            raise WebhookError(f"status {status}")
