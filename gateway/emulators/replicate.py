"""Replicate predictions API emulator: create (by model or version, `Prefer: wait`), get (poll),
and the SSE stream at `urls.stream` (`output` / `done` / `error` events with ids).

Language models answer with `output` as a list of tokens and report
`metrics.input_token_count` / `output_token_count` on the finished prediction. A prompt longer
than CONTEXT_WORDS fails the prediction the way a model does (status `failed` or an SSE `error`
event), which exercises the model-error path. Create bodies are validated against Replicate's
documented fields and the emulated model's input schema (`replicate_validation`).

Mode "canceled" ends a prediction as canceled (a stream: after `cut_after` outputs, with
`done {"reason": "canceled"}`), mode "error_frame" as failed (`error` then
`done {"reason": "error"}`): the two ways Replicate ends a stream that did not succeed.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from gateway.emulators.base import (
    EmulatorState,
    Mode,
    apply_failure_mode,
    control_routes,
    count_tokens,
    log_request,
    words,
)
from gateway.emulators.replicate_validation import create_findings, prefer_findings

VERSION = "5a6809ca6288247d06daf6365557e5e429063f32a21146b2a807c682652136b8"
CONTEXT_WORDS = 2000
TERMINAL = ("succeeded", "failed", "canceled")
MODEL_ERROR = "CUDA error: an illegal memory access was encountered"


def _problem(
    status: int, title: str, detail: str, headers: dict[str, str] | None = None
) -> Response:
    return Response(
        orjson.dumps({"title": title, "detail": detail, "status": status}),
        status_code=status,
        media_type="application/problem+json",
        headers=headers,
    )


async def _failure(mode: Mode) -> Response | None:
    return await apply_failure_mode(
        mode,
        lambda status: _problem(status, "Internal Server Error", "emulated failure"),
        lambda _m, headers: _problem(
            429, "Request was throttled", "Request was throttled.", headers
        ),
    )


def _authorized(request: Request) -> bool:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return scheme in ("Bearer", "Token") and bool(token.strip())


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


class Predictions:
    """The emulator's predictions, held per app (not per module)."""

    def __init__(self, state: EmulatorState) -> None:
        self.state = state
        self.items: dict[str, dict[str, Any]] = {}
        self.modes: dict[str, Mode] = {}
        self._ids = itertools.count(1)

    def create(
        self,
        request: Request,
        model: str,
        version: str,
        inp: dict[str, Any],
        stream: bool,
        mode: Mode,
    ) -> dict[str, Any]:
        pid = f"emu{next(self._ids):06d}"
        base = str(request.base_url).rstrip("/")
        urls = {
            "get": f"{base}/v1/predictions/{pid}",
            "cancel": f"{base}/v1/predictions/{pid}/cancel",
            "web": f"https://replicate.com/p/{pid}",
        }
        if stream:
            urls["stream"] = f"{base}/v1/streams/{pid}"
        item = {
            "id": pid,
            "model": model,
            "version": version,
            "input": inp,
            "logs": "",
            "output": None,
            "error": None,
            "status": "starting",
            "data_removed": False,
            "created_at": _now(),
            "started_at": None,
            "completed_at": None,
            "metrics": {},
            "urls": urls,
        }
        self.items[pid] = item
        self.modes[pid] = mode
        return item

    def plan(self, pid: str) -> tuple[list[str], int, str | None]:
        """The output tokens, the prompt token count, and a model error if the input fails."""
        item, mode = self.items[pid], self.modes[pid]
        inp = item["input"]
        pt = count_tokens(str(inp.get("prompt") or "")) + count_tokens(
            str(inp.get("system_prompt") or "")
        )
        if pt > CONTEXT_WORDS:
            return [], pt, "prompt length exceeds the maximum context length of the model"
        pieces = words(mode.reply)
        limit = inp.get("max_tokens") or inp.get("max_new_tokens")
        if isinstance(limit, int) and 0 < limit < len(pieces):
            pieces = pieces[:limit]
        return pieces, pt, None

    def finish(self, pid: str, output: list[str], pt: int, error: str | None) -> None:
        item = self.items[pid]
        item["started_at"] = item["started_at"] or _now()
        item["completed_at"] = _now()
        if error is not None:
            item.update(status="failed", error=error, output=None)
            return
        if self.modes[pid].kind == "canceled":
            item.update(status="canceled", output=output)
            return
        item.update(
            status="succeeded",
            output=output,
            metrics={
                "predict_time": 0.05,
                "input_token_count": pt,
                "output_token_count": len(output),
                "tokens_per_second": 200.0,
                "time_to_first_token": 0.01,
            },
        )
        self.state.served_prompt_tokens += pt
        self.state.served_completion_tokens += len(output)

    def run_now(self, pid: str) -> None:
        pieces, pt, error = self.plan(pid)
        if error is None and self.modes[pid].kind == "error_frame":
            error = MODEL_ERROR
        self.finish(pid, pieces, pt, error)


def build_app(state: EmulatorState) -> Starlette:
    preds = Predictions(state)

    async def create(request: Request) -> Response:
        entry = await log_request(state, request)
        if not _authorized(request):
            return _problem(401, "Unauthenticated", "You did not pass a valid authentication token")
        mode = state.current_mode()
        failure = await _failure(mode)
        if failure is not None:
            return failure
        if mode.kind == "malformed" and not _wants_stream(entry.body):
            return Response(
                b'{"id": "x", "status": ', status_code=201, media_type="application/json"
            )
        try:
            body = entry.json()
        except orjson.JSONDecodeError:
            return _problem(400, "Bad Request", "invalid JSON")
        params = request.path_params
        findings = (
            create_findings(body, by_version="owner" not in params)
            if isinstance(body, dict)
            else ["the body must be an object"]
        )
        findings += prefer_findings(request.headers.get("prefer", ""))
        if findings:
            return _problem(
                422, "Input validation failed", "\n".join(f"- {f}" for f in findings[:10])
            )
        if "owner" in params:
            model, version = f"{params['owner']}/{params['name']}", VERSION
        else:
            model, version = "emulated/model", str(body["version"])
        item = preds.create(request, model, version, body["input"], bool(body.get("stream")), mode)
        if request.headers.get("prefer", "").startswith("wait") and not body.get("stream"):
            preds.run_now(item["id"])
        return Response(orjson.dumps(item), status_code=201, media_type="application/json")

    async def get(request: Request) -> Response:
        await log_request(state, request)
        if not _authorized(request):
            return _problem(401, "Unauthenticated", "You did not pass a valid auth token")
        item = preds.items.get(request.path_params["pid"])
        if item is None:
            return _problem(404, "Not found", "The requested resource could not be found.")
        if item["status"] not in TERMINAL and "stream" not in item["urls"]:
            preds.run_now(item["id"])  # a polled prediction finishes between two polls
        return Response(orjson.dumps(item), media_type="application/json")

    async def stream(request: Request) -> Response:
        await log_request(state, request)
        pid = request.path_params["pid"]
        if pid not in preds.items:
            return _problem(404, "Not found", "The requested resource could not be found.")
        return StreamingResponse(_events(preds, pid), media_type="text/event-stream")

    async def model(request: Request) -> Response:
        """`GET /v1/models/{owner}/{name}`: the model's record (what a health check reads)."""
        await log_request(state, request)
        if not _authorized(request):
            return _problem(401, "Unauthenticated", "You did not pass a valid auth token")
        failure = await _failure(state.current_mode())
        if failure is not None:
            return failure
        owner, name = request.path_params["owner"], request.path_params["name"]
        return Response(orjson.dumps(_model_record(owner, name)), media_type="application/json")

    routes = [
        Route("/v1/models/{owner}/{name}", model, methods=["GET"]),
        Route("/v1/models/{owner}/{name}/predictions", create, methods=["POST"]),
        Route("/v1/predictions", create, methods=["POST"]),
        Route("/v1/predictions/{pid}", get, methods=["GET"]),
        Route("/v1/streams/{pid}", stream, methods=["GET"]),
        *control_routes(state),
    ]
    return Starlette(routes=routes)


def _model_record(owner: str, name: str) -> dict[str, Any]:
    return {
        "url": f"https://replicate.com/{owner}/{name}",
        "owner": owner,
        "name": name,
        "description": "emulated language model",
        "visibility": "public",
        "github_url": None,
        "paper_url": None,
        "license_url": None,
        "run_count": 0,
        "cover_image_url": None,
        "default_example": None,
        "latest_version": {
            "id": VERSION,
            "created_at": "2024-01-01T00:00:00Z",
            "cog_version": "0.9.0",
            "openapi_schema": {},
        },
    }


def _wants_stream(raw: bytes) -> bool:
    try:
        return bool(orjson.loads(raw).get("stream"))
    except (orjson.JSONDecodeError, AttributeError):
        return False


def _event(kind: str, eid: str, data: str) -> bytes:
    lines = "".join(f"data: {line}\n" for line in data.split("\n"))
    return f"event: {kind}\nid: {eid}\n{lines}\n".encode()


async def _events(preds: Predictions, pid: str) -> AsyncIterator[bytes]:
    mode = preds.modes[pid]
    pieces, pt, error = preds.plan(pid)
    preds.items[pid].update(status="processing", started_at=_now())
    if error is not None:
        preds.finish(pid, [], pt, error)
        yield _event("error", f"{pid}:0", orjson.dumps({"detail": error}).decode())
        return
    for i, piece in enumerate(pieces):
        if mode.kind == "cut" and i >= mode.cut_after:
            raise ConnectionResetError("emulated cut")  # uvicorn drops the connection
        if mode.kind == "canceled" and i >= mode.cut_after:
            preds.finish(pid, pieces[:i], pt, None)
            yield _event("done", f"{pid}:{i + 1}", '{"reason": "canceled"}')
            return
        if mode.kind == "error_frame" and i >= mode.cut_after:
            preds.finish(pid, [], pt, MODEL_ERROR)
            yield _event("error", f"{pid}:{i + 1}", orjson.dumps({"detail": MODEL_ERROR}).decode())
            yield _event("done", f"{pid}:{i + 2}", '{"reason": "error"}')
            return
        if mode.kind == "malformed" and i == 1:
            yield b"event: bogus\nid: x\ndata: {not json\n\n"
            return
        yield _event("output", f"{pid}:{i + 1}", piece)
        if mode.inter_chunk_s:
            await asyncio.sleep(mode.inter_chunk_s)
    preds.finish(pid, pieces, pt, None)
    yield _event("done", f"{pid}:{len(pieces) + 1}", "{}")
