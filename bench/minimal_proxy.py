"""The floor of Geçit's architecture, for the benchmark's comparison row: a minimal Python
reverse proxy with the same parts (uvicorn + uvloop + httptools with Geçit's write-combining
protocol, a raw ASGI app, Geçit's own pooled HTTP/1.1 client) and none of the features (no
key check, classification, policy, ledger, metrics). What Geçit costs above this row is what
its features cost.

    python bench/minimal_proxy.py --port 9201 --upstream http://127.0.0.1:9101
"""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn

from gateway.httpserver import CombiningHttpToolsProtocol
from gateway.providers.http1 import Http1Pool

Scope = dict[str, Any]


def build_app(upstream: str) -> Any:
    base = upstream.rstrip("/")
    pools: dict[str, Http1Pool] = {}

    async def app(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    pools["up"] = Http1Pool(
                        base + "/v1/chat/completions", {"content-type": "application/json"}
                    )
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await pools["up"].aclose()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["path"] == "/health":
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [(b"content-length", b"2")],
                }
            )
            await send({"type": "http.response.body", "body": b"ok"})
            return
        parts = []
        while True:
            message = await receive()
            parts.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(parts)
        if b'"stream":true' in body:
            stream = await pools["up"].stream("POST", scope["path"], body, first_byte_timeout=30)
            await send(
                {
                    "type": "http.response.start",
                    "status": stream.status,
                    "headers": [(b"content-type", b"text/event-stream")],
                }
            )
            async for piece in stream.chunks():
                await send({"type": "http.response.body", "body": piece, "more_body": True})
            await stream.aclose()
            await send({"type": "http.response.body", "body": b""})
            return
        resp = await pools["up"].request("POST", scope["path"], body, first_byte_timeout=30)
        await send(
            {
                "type": "http.response.start",
                "status": resp.status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(resp.content)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": resp.content})

    return app


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--upstream", required=True)
    a = ap.parse_args()
    uvicorn.run(
        build_app(a.upstream),
        host="127.0.0.1",
        port=a.port,
        loop="uvloop",
        http=CombiningHttpToolsProtocol,
        ws="none",
        access_log=False,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
