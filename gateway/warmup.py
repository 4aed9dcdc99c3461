"""One request served inside the process at start-up, before any client's, and the libraries
the first requests would otherwise finish loading in the middle of serving.

FastAPI builds each included router's route state (path regexes, dependency graphs, response
fields) lazily, the first time a request walks past it. The gateway's first request that is
not on the lean edge (an admin call, `/v1/responses`, `/metrics`, ...) would pay for every
router at once, in one event-loop turn during which no other connection moves (bench/loop_lag.py,
a policy PUT as the first such request: 7.8-9.4 ms of loop CPU in its longest turn, 3.7-4.4 ms
once warmed; the same turn ran to ~50 ms on a busy machine). A request to a path no route has
walks every router, so it leaves all of them built; it is answered 404 by the app's own error
handler and touches nothing else (no authentication, no ledger row).

anyio loads its asyncio backend (13 modules, ~20 ms of CPU) on its first use, which was httpx's
first request: the first health probe, some seconds after start, in whatever request's turn.
It is loaded here instead."""

from __future__ import annotations

import anyio.lowlevel
from starlette.types import ASGIApp, Message

WARM_PATH = "/.gecit-warm-up"  # a path no route has


async def warm_up(app: ASGIApp) -> int:
    """Load anyio's backend, then serve `GET WARM_PATH` through `app` (its middleware and
    every router); returns the status it answered (404)."""
    await anyio.lowlevel.checkpoint()
    return await warm_routes(app)


async def warm_routes(app: ASGIApp) -> int:
    """Serve `GET WARM_PATH` through `app`; returns the status it answered (404)."""
    status = 0

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])

    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": WARM_PATH,
        "raw_path": WARM_PATH.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 0),
        "state": {},
    }
    await app(scope, receive, send)
    return status
