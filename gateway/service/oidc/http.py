"""Calls to the OIDC issuer, each one bounded: a deadline for the whole exchange, at most
`max_bytes` of answer (read as it streams, so a huge or endless answer costs no more), JSON
objects only, and no redirects followed. What goes wrong is an `IssuerError` whose message
names the endpoint and the kind of failure, never the answer's body, a token or the secret."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson

from gateway.core.errors import GatewayError
from gateway.settings import secure_url


class IssuerError(GatewayError):
    """The identity provider could not be used (unreachable, refused, answered nonsense)."""

    status = 502
    type = "api_error"
    code = "oidc_issuer_error"


class IssuerHttp:
    def __init__(self, client: httpx.AsyncClient, *, timeout_s: float, max_bytes: int) -> None:
        self._client = client
        self._timeout = timeout_s
        self._max = max_bytes

    async def get_json(self, what: str, url: str) -> dict[str, Any]:
        return await self._call(what, "GET", url, None, None)

    async def post_form(
        self, what: str, url: str, form: dict[str, str], headers: dict[str, str]
    ) -> dict[str, Any]:
        return await self._call(what, "POST", url, form, headers)

    async def _call(
        self,
        what: str,
        method: str,
        url: str,
        form: dict[str, str] | None,
        headers: dict[str, str] | None,
    ) -> dict[str, Any]:
        if not secure_url(url):
            raise IssuerError(f"the issuer's {what} URL is not https")
        try:
            status, body = await asyncio.wait_for(
                self._fetch(what, method, url, form, headers), self._timeout
            )
        except TimeoutError:
            raise IssuerError(f"the issuer's {what} did not answer in time") from None
        except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError) as exc:
            raise IssuerError(
                f"the issuer's {what} could not be reached ({type(exc).__name__})"
            ) from None
        if status != 200:
            raise IssuerError(f"the issuer's {what} answered HTTP {status}")
        try:
            doc = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise IssuerError(f"the issuer's {what} answer is not JSON") from None
        if not isinstance(doc, dict):
            raise IssuerError(f"the issuer's {what} answer is not a JSON object")
        return doc

    async def _fetch(
        self,
        what: str,
        method: str,
        url: str,
        form: dict[str, str] | None,
        headers: dict[str, str] | None,
    ) -> tuple[int, bytes]:
        # identity only: the bound below counts the bytes that are kept, and a compressed
        # answer could expand far past it in one chunk
        sent = {"accept": "application/json", "accept-encoding": "identity", **(headers or {})}
        request = self._client.build_request(method, url, data=form, headers=sent)
        response = await self._client.send(request, stream=True, follow_redirects=False)
        too_large = IssuerError(f"the issuer's {what} answer is larger than allowed")
        try:
            if response.headers.get("content-encoding", "identity").lower() != "identity":
                raise IssuerError(f"the issuer's {what} answer is compressed")
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self._max:
                raise too_large
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_raw():
                size += len(chunk)
                if size > self._max:
                    raise too_large
                chunks.append(chunk)
            return response.status_code, b"".join(chunks)
        finally:
            await response.aclose()
