"""`POST /v1/responses`: the OpenAI Responses API as a thin translation onto the chat path."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from gateway.core.errors import InvalidRequest
from gateway.openai_api import served
from gateway.openai_api.handlers import JSON, limits_of
from gateway.openai_api.response_memory import ResponseMemory
from gateway.openai_api.responses_out import Ids, ResponsesEvents, output_items, result_json
from gateway.openai_api.responses_wire import ResponsesRequest, standalone_chat, to_chat


def build_responses_router() -> APIRouter:
    router = APIRouter()

    @router.post("/v1/responses")
    async def create_response(request: Request) -> Response:
        rt = served.runtime_of(request)
        req, alone = await served.read(request, ResponsesRequest, standalone_chat)
        ctx = await rt.authenticate(request, None)
        memory = ResponseMemory(rt.responses, rt.policy.policy.responses, ctx.tenant)
        try:
            earlier = memory.recall(req)  # expanded before classification: it reads it all
            if alone is not None:
                chat = alone
            else:  # it continues a kept conversation: those turns count against the limits too
                chat = to_chat(req, earlier)
                limits_of(rt).check_chat(chat)
        except InvalidRequest as exc:
            rt.chat.record_rejected(ctx, req.model, exc)
            raise
        created = served.created_at(request)
        ids = Ids(ctx.request_id)
        if chat.stream:
            handle = await rt.chat.open_stream(ctx, chat)
            keep = memory.will_keep(req, handle.decision.data_class)

            def kept(output: list[dict[str, Any]]) -> None:
                if keep:
                    memory.keep(ids.response, req, earlier, output)

            return served.event_stream(handle, ResponsesEvents(ids, created, req, keep, kept))
        answer = await rt.chat.complete(ctx, chat)
        output = output_items(ids, answer.result)
        keep = memory.will_keep(req, answer.decision.data_class)
        if keep:
            memory.keep(ids.response, req, earlier, output)
        body = result_json(
            ids, created, req, output, answer.result.finish_reason, answer.usage, keep
        )
        return Response(body, media_type=JSON, headers=served.headers_of(answer))

    return router
