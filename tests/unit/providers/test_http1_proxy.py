"""The lean HTTP/1.1 pool takes the proxy route httpx takes: plain-HTTP forwarding with
absolute-form targets for an http origin, a CONNECT tunnel for an https origin, NO_PROXY
bypassing it; chat and embeddings of one backend go the same way. The proxy is a real (small)
asyncio proxy on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import ipaddress
import ssl
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from httpx import _utils as httpx_utils  # the reference: httpx's own reading

from gateway.core.types import ChatRequest
from gateway.emulators.base import EmulatorServer
from gateway.emulators.openai import build_app
from gateway.providers.base import CallOptions
from gateway.providers.http1 import Http1Pool
from gateway.providers.openai_compat import OpenAICompatProvider
from gateway.providers.proxy_env import proxy_for

FAST = CallOptions(connect_timeout=2.0, first_byte_timeout=5.0, total_timeout=10.0)
PROXY_VARS = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
)


class Proxy:
    """A minimal forward proxy: CONNECT tunnels, and absolute-form requests relayed to the
    origin they name. `seen` holds the first request line of every client connection."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self._server: asyncio.Server | None = None

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            writer.close()
            return
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        self.seen.append(line)
        method, target, _version = line.split(" ")
        if method == "CONNECT":
            host, port = target.rsplit(":", 1)
            up_reader, up_writer = await asyncio.open_connection(host, int(port))
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            origin = httpx.URL(target)
            up_reader, up_writer = await asyncio.open_connection(origin.host, origin.port)
            up_writer.write(head)  # origin servers accept absolute-form targets
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()


async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    try:
        while data := await src.read(65536):
            dst.write(data)
            await dst.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        with contextlib.suppress(Exception):
            dst.close()


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer(build_app) as srv:
        yield srv


@pytest.fixture
async def proxy(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Proxy, str]]:
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
    p = Proxy()
    url = await p.start()
    yield p, url
    await p.aclose()


def chat(stream: bool = False) -> ChatRequest:
    return ChatRequest.model_validate(
        {"model": "m", "stream": stream, "messages": [{"role": "user", "content": "merhaba dünya"}]}
    )


async def test_chat_and_embeddings_go_through_http_proxy(
    proxy: tuple[Proxy, str], server: EmulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    p, url = proxy
    monkeypatch.setenv("HTTP_PROXY", url)
    provider = OpenAICompatProvider("oc", server.url + "/v1", "emulated-model")
    try:
        result = await provider.complete(chat(), FAST)
        assert result.text
        chunks = [c async for c in provider.stream(chat(stream=True), FAST)]
        assert "".join(c.text or "" for c in chunks) == result.text
        vectors, _tokens = await provider.embed(["bir"], FAST)
        assert len(vectors) == 1
    finally:
        await provider.aclose()
    chat_line = f"POST {server.url}/v1/chat/completions HTTP/1.1"
    assert chat_line in p.seen  # the lean pool forwarded with an absolute-form target
    assert f"POST {server.url}/v1/embeddings HTTP/1.1" in p.seen  # httpx: the same route


async def test_no_proxy_bypasses_the_proxy(
    proxy: tuple[Proxy, str], server: EmulatorServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    p, url = proxy
    monkeypatch.setenv("HTTP_PROXY", url)
    monkeypatch.setenv("NO_PROXY", "example.org,127.0.0.1")
    provider = OpenAICompatProvider("oc", server.url + "/v1", "emulated-model")
    try:
        assert (await provider.complete(chat(), FAST)).text
        assert len((await provider.embed(["bir"], FAST))[0]) == 1
    finally:
        await provider.aclose()
    assert p.seen == []


def _certificate(tmp: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


async def test_https_origin_is_reached_through_a_connect_tunnel(
    proxy: tuple[Proxy, str], tmp_path: Path
) -> None:
    p, url = proxy
    cert, key = _certificate(tmp_path)
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)
    requests: list[bytes] = []

    async def origin(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                requests.append(head + await reader.readexactly(length))
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        writer.close()

    tls_server = await asyncio.start_server(origin, "127.0.0.1", 0, ssl=server_ctx)
    port = tls_server.sockets[0].getsockname()[1]
    client_ctx = ssl.create_default_context(cafile=str(cert))
    pool = Http1Pool(
        f"https://127.0.0.1:{port}/v1/chat/completions",
        ssl_context=client_ctx,
        env={"HTTPS_PROXY": url},
    )
    try:
        for _ in range(2):  # the second request reuses the tunnel
            resp = await pool.request(
                "POST", "/v1/chat/completions", b"{}", connect_timeout=2, first_byte_timeout=5
            )
            assert (resp.status, resp.content) == (200, b"ok")
    finally:
        await pool.aclose()
        tls_server.close()
    assert p.seen == [f"CONNECT 127.0.0.1:{port} HTTP/1.1"]
    # inside the tunnel the origin gets an origin-form target, as without a proxy
    assert all(r.startswith(b"POST /v1/chat/completions HTTP/1.1\r\n") for r in requests)
    assert len(requests) == 2


async def test_https_origin_through_an_https_proxy(tmp_path: Path) -> None:
    """TLS to the proxy, CONNECT, then TLS with the origin inside that TLS stream."""
    cert, key = _certificate(tmp_path)
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)

    async def origin(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            await reader.readuntil(b"\r\n\r\n")
            await reader.readexactly(2)
            writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
            await writer.drain()
        writer.close()

    p = Proxy()
    tls_origin = await asyncio.start_server(origin, "127.0.0.1", 0, ssl=server_ctx)
    tls_proxy = await asyncio.start_server(p._handle, "127.0.0.1", 0, ssl=server_ctx)
    port = tls_origin.sockets[0].getsockname()[1]
    proxy_url = f"https://127.0.0.1:{tls_proxy.sockets[0].getsockname()[1]}"
    pool = Http1Pool(
        f"https://127.0.0.1:{port}/v1/chat/completions",
        ssl_context=ssl.create_default_context(cafile=str(cert)),
        env={"HTTPS_PROXY": proxy_url},
    )
    try:
        resp = await pool.request(
            "POST", "/v1/chat/completions", b"{}", connect_timeout=2, first_byte_timeout=5
        )
        assert (resp.status, resp.content) == (200, b"ok")
    finally:
        await pool.aclose()
        tls_origin.close()
        tls_proxy.close()
    assert p.seen == [f"CONNECT 127.0.0.1:{port} HTTP/1.1"]


async def test_a_refused_tunnel_is_a_proxy_error(tmp_path: Path) -> None:
    async def refuse(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    refuser = await asyncio.start_server(refuse, "127.0.0.1", 0)
    proxy_url = f"http://127.0.0.1:{refuser.sockets[0].getsockname()[1]}"
    pool = Http1Pool("https://127.0.0.1:9/v1/chat/completions", env={"HTTPS_PROXY": proxy_url})
    try:
        with pytest.raises(httpx.ProxyError):
            await pool.request("POST", "/v1/chat/completions", b"{}", connect_timeout=2)
    finally:
        await pool.aclose()
        refuser.close()


CASES = [
    ({}, "https://api.example.com/v1", None),
    ({"HTTPS_PROXY": "proxy:3128"}, "https://api.example.com/v1", "http://proxy:3128"),
    ({"HTTPS_PROXY": "http://p:1"}, "http://api.example.com/v1", None),
    ({"HTTP_PROXY": "http://p:1"}, "http://api.example.com/v1", "http://p:1"),
    ({"ALL_PROXY": "http://p:1"}, "https://api.example.com/v1", "http://p:1"),
    ({"ALL_PROXY": "http://a:1", "HTTPS_PROXY": "http://s:1"}, "https://x.io", "http://s:1"),
    ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "example.com"}, "https://api.example.com", None),
    ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "example.com"}, "https://example.com", None),
    (
        {"HTTPS_PROXY": "http://p:1", "NO_PROXY": "example.com"},
        "https://wwwexample.com",
        "http://p:1",
    ),
    (
        {"HTTPS_PROXY": "http://p:1", "NO_PROXY": ".example.com"},
        "https://example.com",
        "http://p:1",
    ),
    ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "*"}, "https://example.com", None),
    ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "10.0.0.5, localhost"}, "https://10.0.0.5", None),
    ({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "localhost"}, "https://localhost:8000", None),
    (
        {"HTTPS_PROXY": "http://upper:1", "https_proxy": "http://lower:1"},
        "https://x.io",
        "http://lower:1",
    ),
    ({"HTTPS_PROXY": "http://p:1", "https_proxy": ""}, "https://x.io", None),
    ({"HTTP_PROXY": "http://p:1", "REQUEST_METHOD": "GET"}, "http://x.io", None),
]


@pytest.mark.parametrize(("env", "url", "expected"), CASES)
def test_the_environment_is_read_as_httpx_reads_it(
    env: dict[str, str], url: str, expected: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    got = proxy_for(url, env)
    assert (None if got is None else str(got).rstrip("/")) == expected
    # and httpx itself, given the same process environment, picks the same proxy
    for name in [*PROXY_VARS, "REQUEST_METHOD"]:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    mounts = httpx_utils.get_environment_proxies()
    patterns = sorted(
        ((httpx_utils.URLPattern(k), v) for k, v in mounts.items()),
        key=lambda item: item[0].priority,
    )
    chosen = next((v for pattern, v in patterns if pattern.matches(httpx.URL(url))), None)
    assert (None if chosen is None else chosen.rstrip("/")) == expected
