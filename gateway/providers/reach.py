"""A reachability probe for endpoints that have no free call to make: a TCP connection."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit


async def tcp_reachable(url: str, timeout: float = 1.0) -> bool:
    """Whether a TCP connection to `url`'s host and port opens within `timeout` seconds."""
    parts = urlsplit(url)
    if not parts.hostname:
        return False
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        async with asyncio.timeout(timeout):
            _, writer = await asyncio.open_connection(parts.hostname, port)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True
