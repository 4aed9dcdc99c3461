"""`POST /v1/responses`: the OpenAI Responses API as a thin translation onto the chat path."""

from __future__ import annotations

from collections.abc import AsyncGenerator

from fastapi import APIRouter, Request
from starlette.responses import Response, StreamingResponse

from gateway.core.errors import InvalidRequest, ProviderError
from gateway.openai_api import served
from gateway.openai_api.handlers import JSON, route_headers
from gateway.openai_api.responses_out import Ids, ResponsesEvents, result_json
from gateway.openai_api.responses_wire import ResponsesRequest, to_chat
from gateway.openai_api.strict import parse_strict
from gateway.service.chat import StreamHandle

SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}


def build_responses_router() -> APIRouter:
    router = APIRouter()

    @router.post("/v1/responses")
    async def create_response(request: Request) -> Response:
        try:
            req = parse_strict(ResponsesRequest, await request.body())
            chat = to_chat(req)
        except InvalidRequest as exc:
            served.record_unreadable(request, exc)
            raise
        created = served.created_at(request)
        if chat.stream:
            ctx, handle = await served.open_stream(request, chat)
            enc = ResponsesEvents(Ids(ctx.request_id), created, req)
            headers = route_headers(handle.decision, handle.outcome.backend,
                                    len(handle.outcome.attempts))
            return StreamingResponse(_events(handle, enc), media_type="text/event-stream",
                                     headers={**headers, **SSE_HEADERS})
        ctx, answer = await served.complete(request, chat)
        headers = route_headers(answer.decision, answer.outcome.backend,
                                len(answer.outcome.attempts))
        body = result_json(Ids(ctx.request_id), created, req, answer.result, answer.usage)
        return Response(body, media_type=JSON, headers=headers)

    return router


async def _events(handle: StreamHandle, enc: ResponsesEvents) -> AsyncGenerator[bytes, None]:
    yield enc.start()
    try:
        async for chunk in handle.chunks:
            data = enc.chunk(chunk)
            if data:
                yield data
    except ProviderError as exc:
        # the first event already went out: no fallback is possible; say so and stop
        yield enc.error(f"the stream was interrupted: {exc.message}", "stream_interrupted")
        return
    assert handle.usage is not None  # set by the chat service when the chunks end
    yield enc.finish(handle.usage)
