"""Where the lean HTTP/1.1 pool's connections go: straight to the origin, or through the proxy
the environment names for it (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY, read as httpx
reads them). An http origin is forwarded with absolute-form request targets; an https origin
is reached through a CONNECT tunnel, with TLS to the origin inside it."""

from __future__ import annotations

import asyncio
import base64
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import SplitResult

import httpx

from gateway.providers.proxy_env import proxy_for

__all__ = ["Route", "UnsupportedProxy", "open_tunnel", "route_for"]

P = TypeVar("P", bound=asyncio.Protocol)


class UnsupportedProxy(ValueError):
    """The environment names a proxy this client does not speak (e.g. socks5): the caller
    keeps the request on httpx, which does."""


@dataclass(frozen=True, slots=True)
class Route:
    dial_host: str
    dial_port: int
    dial_ssl: ssl.SSLContext | None  # TLS to what is dialled: the origin, or an https proxy
    target_prefix: str = ""  # absolute-form request targets when forwarding
    tunnel: bytes | None = None  # the CONNECT request for an https origin
    proxy_authorization: str | None = None  # a header on every forwarded request


def route_for(
    base_url: str,
    origin: SplitResult,
    origin_ssl: ssl.SSLContext | None,
    ssl_context: ssl.SSLContext | None,
    env: Mapping[str, str],
) -> Route:
    """The route to `origin` (`base_url` split), whose TLS context is `origin_ssl`."""
    host = origin.hostname or ""
    port = origin.port or (443 if origin.scheme == "https" else 80)
    proxy = proxy_for(base_url, env)
    if proxy is None:
        return Route(host, port, origin_ssl)
    if proxy.scheme not in ("http", "https"):
        raise UnsupportedProxy(f"proxy scheme {proxy.scheme!r}")
    dial_port = proxy.port or (443 if proxy.scheme == "https" else 80)
    # as httpx: the proxy's certificate is checked with the same context as the origin's
    dial_ssl = (ssl_context or ssl.create_default_context()) if proxy.scheme == "https" else None
    auth = _proxy_authorization(proxy)
    host_header = origin.netloc.rsplit("@", 1)[-1]
    if origin.scheme == "https":
        authority = host_header if origin.port else f"{host_header}:{port}"
        tunnel = (
            f"CONNECT {authority} HTTP/1.1\r\nhost: {authority}\r\n"
            + (f"proxy-authorization: {auth}\r\n" if auth else "")
            + "\r\n"
        ).encode("latin-1")
        return Route(proxy.host, dial_port, dial_ssl, tunnel=tunnel)
    return Route(
        proxy.host,
        dial_port,
        dial_ssl,
        target_prefix=f"http://{host_header}",
        proxy_authorization=auth,
    )


def _proxy_authorization(proxy: httpx.URL) -> str | None:
    if not proxy.username and not proxy.password:
        return None
    token = base64.b64encode(f"{proxy.username}:{proxy.password}".encode()).decode("ascii")
    return f"Basic {token}"


class _Tunnel(asyncio.Protocol):
    """The proxy's answer to CONNECT: its status line, once the head is complete."""

    def __init__(self) -> None:
        self._buffer = b""
        self.status: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if b"\r\n\r\n" in self._buffer and not self.status.done():
            line = self._buffer.split(b"\r\n", 1)[0].split()
            self.status.set_result(int(line[1]) if len(line) > 1 and line[1].isdigit() else 0)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.status.done():
            self.status.set_exception(httpx.ProxyError("the proxy closed the tunnel"))


async def open_tunnel(
    loop: asyncio.AbstractEventLoop,
    route: Route,
    protocol: Callable[[], P],
    origin_ssl: ssl.SSLContext,
    host: str,
    port: int,
) -> P:
    """CONNECT through the proxy, then TLS with the origin (`host`:`port`) inside the tunnel,
    spoken by a new `protocol()`."""
    assert route.tunnel is not None
    transport, tunnel = await loop.create_connection(
        _Tunnel,
        route.dial_host,
        route.dial_port,
        ssl=route.dial_ssl,
        server_hostname=route.dial_host if route.dial_ssl else None,
    )
    try:
        transport.write(route.tunnel)
        status = await tunnel.status
        if not 200 <= status < 300:
            raise httpx.ProxyError(f"the proxy refused a tunnel to {host}:{port} ({status})")
        conn = protocol()
        tls = await loop.start_tls(transport, conn, origin_ssl, server_hostname=host)
    except BaseException:
        transport.close()
        raise
    if tls is None:  # pragma: no cover - only when the transport closed meanwhile
        raise httpx.ConnectError(f"the tunnel to {host}:{port} closed")
    conn.connection_made(tls)
    return conn
