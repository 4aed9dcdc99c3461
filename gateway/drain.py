"""Graceful drain on SIGTERM (rolling deploys, scale-in, serverless instance stop).

On the first SIGTERM the replica starts draining: /readyz answers 503 at once (a load balancer
stops sending), the listener stays open and keeps serving whatever still arrives, and in-flight
requests (streams included) run to their end. When nothing is in flight, or the grace period
(`drain_seconds`) is spent, uvicorn's own shutdown closes the listener and gives what is left
the remaining time (at least a second); then the lifespan unwinds, which flushes the ledger
recorder and its journal. A clean drain exits 0. A second SIGTERM (or SIGINT) skips the wait.
"""

from __future__ import annotations

import logging
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from gateway import heap

log = logging.getLogger("gateway")

_DRAINING_BODY = b'{"status":"draining"}'


@dataclass
class DrainState:
    grace_s: float = 30.0
    draining: bool = False
    deadline: float = 0.0  # monotonic
    announced: bool = False

    def begin(self, now: float) -> None:
        if not self.draining:
            self.draining, self.deadline = True, now + self.grace_s


class DrainMiddleware:
    """Answers /readyz with 503 while the replica drains; everything else passes through."""

    def __init__(self, app: ASGIApp, state: DrainState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.state.draining and scope["type"] == "http" and scope["path"] == "/readyz":
            await send(
                {
                    "type": "http.response.start",
                    "status": 503,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(_DRAINING_BODY)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": _DRAINING_BODY})
            return
        await self.app(scope, receive, send)


class DrainingServer(uvicorn.Server):
    def __init__(
        self,
        config: uvicorn.Config,
        state: DrainState,
        on_started: Callable[[], None] | None = None,
    ) -> None:
        """`on_started`: run once the application has started and the server listens."""
        super().__init__(config)
        self.drain = state
        self._on_started = on_started

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:  # started: start-up objects are now settled for good
            log.debug("heap settled: %d start-up objects frozen", heap.settle())
            if self._on_started is not None:
                self._on_started()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # runs in a signal handler: set flags only (no logging, no tasks)
        if sig == signal.SIGTERM and not self.drain.draining:
            self.drain.begin(time.monotonic())  # not re-raised after shutdown: exit 0
            return
        super().handle_exit(sig, frame)

    async def on_tick(self, counter: int) -> bool:
        if self.drain.draining and not self.should_exit:
            now = time.monotonic()
            in_flight = len(self.server_state.tasks)
            if not self.drain.announced:
                self.drain.announced = True
                log.info(
                    "SIGTERM: draining (/readyz 503), %d request(s) in flight, grace %.0f s",
                    in_flight,
                    self.drain.grace_s,
                )
            if in_flight == 0 or now >= self.drain.deadline:
                self.config.timeout_graceful_shutdown = max(1, round(self.drain.deadline - now))
                if in_flight:
                    log.warning("drain grace spent with %d request(s) in flight", in_flight)
                self.should_exit = True
        return await super().on_tick(counter)
