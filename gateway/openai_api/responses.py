"""`POST /v1/responses`: the OpenAI Responses API as a thin translation onto the chat path."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from gateway.core.errors import InvalidRequest
from gateway.openai_api import served
from gateway.openai_api.handlers import JSON
from gateway.openai_api.responses_out import Ids, ResponsesEvents, result_json
from gateway.openai_api.responses_wire import ResponsesRequest, to_chat
from gateway.openai_api.strict import parse_strict


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
            return served.event_stream(handle, ResponsesEvents(Ids(ctx.request_id), created,
                                                               req))
        ctx, answer = await served.complete(request, chat)
        body = result_json(Ids(ctx.request_id), created, req, answer.result, answer.usage)
        return Response(body, media_type=JSON, headers=served.headers_of(answer))

    return router
