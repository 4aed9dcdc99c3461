"""Shared emulator machinery: modes, the request log, the control routes, a threaded server."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

# vendor failure shapes: "error_frame" an in-band error after `cut_after` chunks (Vertex's
# `{"error": ...}` frame, Replicate's `error` + `done {"reason": "error"}`); "canceled" a
# Replicate prediction canceled after `cut_after` chunks; "blocked" a Vertex safety block
# (HTTP 200, `promptFeedback.blockReason`, no candidates); "unfinished" an OpenAI-style
# stream that ends with `[DONE]` but no finish reason (an interrupted llama.cpp)
ModeKind = Literal[
    "ok",
    "status",
    "throttle",
    "hang",
    "cut",
    "malformed",
    "error_frame",
    "canceled",
    "blocked",
    "unfinished",
]

DEFAULT_REPLY = "Merhaba! Size nasıl yardımcı olabilirim? Bu yanıt emülatörden geliyor."


@dataclass
class Mode:
    kind: ModeKind = "ok"
    status: int = 500  # for kind == "status"
    retry_after: float | None = 1.0  # for kind == "throttle"
    hang_s: float = 30.0  # for kind == "hang"
    cut_after: int = 2  # chunks sent before a "cut"
    reply: str = DEFAULT_REPLY
    delay_s: float = 0.0  # before the first byte, in "ok"
    inter_chunk_s: float = 0.0
    times: int | None = None  # apply this mode to the next N requests, then back to "ok"
    # answer with the last user message's text instead of `reply`, streamed in pieces of
    # `echo_piece` characters (small, so placeholders like [TCKN_1] split across chunks)
    echo: bool = False
    echo_piece: int = 3
    stop_reason: str | None = None  # Bedrock: answer with this stopReason instead of end_turn


@dataclass
class Logged:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return orjson.loads(self.body) if self.body else None

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["body"] = self.body.decode("utf-8", "replace")
        return d


@dataclass
class EmulatorState:
    mode: Mode = field(default_factory=Mode)
    requests: list[Logged] = field(default_factory=list)
    served_prompt_tokens: int = 0
    served_completion_tokens: int = 0

    def current_mode(self) -> Mode:
        """The mode for this request (counting down `times`)."""
        m = self.mode
        if m.times is not None:
            if m.times <= 0:
                self.mode = Mode(reply=m.reply, echo=m.echo, echo_piece=m.echo_piece)
                return self.mode
            m.times -= 1
        return m

    def reset(self) -> None:
        self.mode = Mode()
        self.requests.clear()
        self.served_prompt_tokens = 0
        self.served_completion_tokens = 0


async def log_request(state: EmulatorState, request: Request) -> Logged:
    body = await request.body()
    entry = Logged(
        request.method,
        request.url.path,
        request.url.query,
        {k.lower(): v for k, v in request.headers.items()},
        body,
    )
    if not request.url.path.startswith("/_emulator"):
        state.requests.append(entry)
    return entry


FailureCheck = Callable[["Mode"], Awaitable[Response | None]]


async def admit(
    state: EmulatorState, request: Request, failure: FailureCheck, bad_json: Callable[[], Response]
) -> tuple[Mode, Any] | Response:
    """Log the request and take its mode; the mode's failure or the vendor's bad-JSON answer
    when there is one, else the mode and the parsed body."""
    entry = await log_request(state, request)
    mode = state.current_mode()
    failed = await failure(mode)
    if failed is not None:
        return failed
    try:
        return mode, entry.json()
    except orjson.JSONDecodeError:
        return bad_json()


def words(text: str) -> list[str]:
    """Split a reply into stream pieces (each word keeps its following space)."""
    parts = text.split(" ")
    return [p + (" " if i < len(parts) - 1 else "") for i, p in enumerate(parts)]


def pieces_of(text: str, size: int) -> list[str]:
    """Split a text into pieces of `size` characters (the echo mode's stream pieces)."""
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the last user message of an OpenAI-style body (parts joined)."""
    for m in reversed(body.get("messages") or []):
        if m.get("role") != "user":
            continue
        c = m.get("content")
        if isinstance(c, str):
            return c
        if isinstance(c, list):
            return "".join(p.get("text") or "" for p in c if isinstance(p, dict))
    return ""


def count_tokens(text: str) -> int:
    return len(text.split())


def control_routes(state: EmulatorState) -> list[Route]:
    async def set_mode(request: Request) -> Response:
        data = orjson.loads(await request.body() or b"{}")
        state.mode = Mode(**data)
        return Response(b"{}", media_type="application/json")

    async def get_requests(_request: Request) -> Response:
        body = {
            "requests": [r.as_dict() for r in state.requests],
            "served_prompt_tokens": state.served_prompt_tokens,
            "served_completion_tokens": state.served_completion_tokens,
        }
        return Response(orjson.dumps(body), media_type="application/json")

    async def reset(_request: Request) -> Response:
        state.reset()
        return Response(b"{}", media_type="application/json")

    return [
        Route("/_emulator/mode", set_mode, methods=["POST"]),
        Route("/_emulator/requests", get_requests, methods=["GET"]),
        Route("/_emulator/reset", reset, methods=["POST"]),
    ]


def _openai_status(status: int) -> Response:
    return Response(
        orjson.dumps({"error": {"message": "emulated failure"}}),
        status_code=status,
        media_type="application/json",
    )


def _openai_throttle(mode: Mode, headers: dict[str, str]) -> Response:
    return Response(
        orjson.dumps({"error": {"message": "emulated throttling"}}),
        status_code=429,
        media_type="application/json",
        headers=headers,
    )


StatusError = Callable[[int], Response]
ThrottleError = Callable[["Mode", dict[str, str]], Response]


async def apply_failure_mode(
    mode: Mode,
    status_error: StatusError = _openai_status,
    throttle_error: ThrottleError = _openai_throttle,
) -> Response | None:
    """For non-ok modes that fail before any byte of the answer: the failure response, shaped
    by the vendor's `status_error` / `throttle_error` (a `retry-after` header is prepared for
    the throttle); `hang` and `delay_s` wait here. None when the answer may go ahead."""
    if mode.kind == "status":
        return status_error(mode.status)
    if mode.kind == "throttle":
        headers = {"retry-after": str(mode.retry_after)} if mode.retry_after is not None else {}
        return throttle_error(mode, headers)
    if mode.kind == "hang":
        await asyncio.sleep(mode.hang_s)
    if mode.delay_s:
        await asyncio.sleep(mode.delay_s)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EmulatorServer:
    """Runs an emulator app with uvicorn in a background thread (tests, `gateway emulate`)."""

    def __init__(
        self, app_factory: Callable[[EmulatorState], Starlette], port: int | None = None
    ) -> None:
        self.state = EmulatorState()
        self.app = app_factory(self.state)
        self.port = port or free_port()
        self._server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                access_log=False,
                lifespan="off",
                timeout_graceful_shutdown=1,
            )
        )
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> EmulatorServer:
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("emulator did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> EmulatorServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
