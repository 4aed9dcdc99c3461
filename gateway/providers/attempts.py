"""What a failed call to one upstream (a backend, or one node of a pool) becomes: a
`ProviderError` whichever way it failed, and a stream closed without hiding that failure."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk

log = logging.getLogger("gateway.providers")


def as_provider_error(what: str, name: str, raw: BaseException) -> ProviderError:
    """`raw` as a ProviderError: an empty stream is the provider's fault, anything else that
    is not already a ProviderError (a cancelled wait) a missed deadline. `what` names the
    upstream in the message: "backend" or "node"."""
    if isinstance(raw, ProviderError):
        return raw
    if isinstance(raw, StopAsyncIteration):
        return ProviderError(
            FailureKind.PROVIDER, f"{what} '{name}' sent an empty stream", backend=name
        )
    return ProviderError(FailureKind.TIMEOUT, f"{what} '{name}' missed its deadline", backend=name)


async def close_quietly(it: AsyncIterator[ChatChunk]) -> None:
    """Close a stream that failed; closing must not mask the original failure."""
    aclose = getattr(it, "aclose", None)
    if aclose is not None:
        try:
            await aclose()
        except Exception:
            log.debug("closing a failed stream failed", exc_info=True)
