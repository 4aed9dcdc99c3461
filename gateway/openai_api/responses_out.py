"""A chat answer in the OpenAI Responses shape: the whole response object, and the stream of
Responses events (`response.created`, `response.output_item.added`, `response.output_text.delta`,
`response.function_call_arguments.delta`, ... `response.completed`) built from ChatChunks."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import orjson

from gateway.core.types import ChatChunk, ChatResult, FinishReason, ToolCallDelta, Usage
from gateway.openai_api.responses_wire import ResponsesRequest
from gateway.openai_api.wire import with_cost


def usage_json(u: Usage) -> dict[str, Any]:
    return {
        "input_tokens": u.prompt_tokens,
        "input_tokens_details": {"cached_tokens": u.cached_tokens},
        "output_tokens": u.completion_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": u.total_tokens,
    }


class Ids:
    """The ids of one response and its output items, from the gateway's request id."""

    def __init__(self, request_id: str) -> None:
        self.tail = request_id.removeprefix("req_")
        self.response = "resp_" + self.tail
        self.message = "msg_" + self.tail

    def call(self, index: int) -> str:
        return f"fc_{self.tail}_{index}"


def response_object(
    ids: Ids,
    created: int,
    req: ResponsesRequest,
    output: list[dict[str, Any]],
    usage: Usage | None,
    finish: FinishReason | None,
    stored: bool = False,
) -> dict[str, Any]:
    status = "completed" if usage is not None else "in_progress"
    incomplete = None
    if finish == "length":
        status, incomplete = "incomplete", {"reason": "max_output_tokens"}
    elif finish == "content_filter":
        status, incomplete = "incomplete", {"reason": "content_filter"}
    fmt = (
        req.text.format.model_dump(by_alias=True, exclude_none=True)
        if req.text is not None and req.text.format is not None
        else {"type": "text"}
    )
    return {
        "id": ids.response,
        "object": "response",
        "created_at": created,
        "status": status,
        "error": None,
        "incomplete_details": incomplete,
        "instructions": req.instructions,
        "max_output_tokens": req.max_output_tokens,
        "model": req.model,
        "output": output,
        "parallel_tool_calls": req.parallel_tool_calls is not False,
        "previous_response_id": req.previous_response_id,
        "temperature": req.temperature,
        "top_p": req.top_p,
        "text": {"format": fmt},
        "tool_choice": (
            req.tool_choice
            if isinstance(req.tool_choice, str) or req.tool_choice is None
            else req.tool_choice.model_dump()
        )
        or "auto",
        "tools": [t.model_dump(exclude_none=True) for t in req.tools or ()],
        "usage": usage_json(usage) if usage is not None else None,
        "store": stored,
        "metadata": req.metadata or {},
        "user": req.user,
    }


def _message(ids: Ids, text: str, status: str) -> dict[str, Any]:
    return {
        "id": ids.message,
        "type": "message",
        "status": status,
        "role": "assistant",
        "content": [_text_part(text)],
    }


def _text_part(text: str) -> dict[str, Any]:
    return {"type": "output_text", "text": text, "annotations": []}


def _call(item_id: str, call_id: str, name: str, arguments: str, status: str) -> dict[str, Any]:
    return {
        "id": item_id,
        "type": "function_call",
        "status": status,
        "call_id": call_id,
        "name": name,
        "arguments": arguments,
    }


def output_items(ids: Ids, result: ChatResult) -> list[dict[str, Any]]:
    output: list[dict[str, Any]] = []
    if result.text or not result.tool_calls:
        output.append(_message(ids, result.text or "", "completed"))
    for i, c in enumerate(result.tool_calls):
        output.append(_call(ids.call(i), c.id, c.name, c.arguments, "completed"))
    return output


def result_json(
    ids: Ids,
    created: int,
    req: ResponsesRequest,
    output: list[dict[str, Any]],
    finish: FinishReason | None,
    usage: Usage,
    stored: bool = False,
) -> bytes:
    return orjson.dumps(response_object(ids, created, req, output, usage, finish, stored))


class _Call:
    __slots__ = ("args", "index", "item")

    def __init__(self, item: dict[str, Any], index: int) -> None:
        self.item = item
        self.index = index  # in the response's output
        self.args: list[str] = []


class ResponsesEvents:
    """Encodes one stream: `start()`, then `chunk()` per ChatChunk, then `finish(usage)`;
    `on_finish` gets the completed output items (to keep the conversation)."""

    def __init__(
        self,
        ids: Ids,
        created: int,
        req: ResponsesRequest,
        stored: bool = False,
        on_finish: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> None:
        self._stored = stored
        self._on_finish = on_finish
        self._ids = ids
        self._created = created
        self._req = req
        self._seq = 0
        self._output: list[dict[str, Any]] = []
        self._text: list[str] | None = None  # the open message's text, once it has one
        self._text_index = -1
        self._calls: dict[int, _Call] = {}
        self._finish: FinishReason | None = None

    def _event(self, kind: str, **fields: Any) -> bytes:
        data = orjson.dumps({"type": kind, "sequence_number": self._seq, **fields})
        self._seq += 1
        return b"event: " + kind.encode() + b"\ndata: " + data + b"\n\n"

    def _response(self, usage: Usage | None) -> dict[str, Any]:
        return response_object(
            self._ids, self._created, self._req, self._output, usage, self._finish, self._stored
        )

    def start(self) -> bytes:
        snapshot = self._response(None)
        return self._event("response.created", response=snapshot) + self._event(
            "response.in_progress", response=snapshot
        )

    def chunk(self, c: ChatChunk) -> bytes:
        out = b""
        if c.finish_reason is not None:
            self._finish = c.finish_reason
        if c.text:
            out += self._text_delta(c.text)
        for t in c.tool_calls:
            out += self._call_delta(t)
        return out

    def _text_delta(self, text: str) -> bytes:
        out = b""
        if self._text is None:
            self._text = []
            self._text_index = len(self._output)
            self._output.append(_message(self._ids, "", "in_progress"))
            out += self._event(
                "response.output_item.added", output_index=self._text_index, item=self._output[-1]
            )
            out += self._event(
                "response.content_part.added",
                item_id=self._ids.message,
                output_index=self._text_index,
                content_index=0,
                part=_text_part(""),
            )
        self._text.append(text)
        return out + self._event(
            "response.output_text.delta",
            item_id=self._ids.message,
            output_index=self._text_index,
            content_index=0,
            delta=text,
            logprobs=[],
        )

    def _call_delta(self, t: ToolCallDelta) -> bytes:
        out = b""
        call = self._calls.get(t.index)
        if call is None:
            item = _call(
                self._ids.call(t.index), t.id or f"call_{t.index}", t.name or "", "", "in_progress"
            )
            call = self._calls[t.index] = _Call(item, len(self._output))
            self._output.append(item)
            out += self._event(
                "response.output_item.added", output_index=call.index, item=dict(item)
            )
        elif t.name and not call.item["name"]:
            call.item["name"] = t.name
        if t.arguments:
            call.args.append(t.arguments)
            out += self._event(
                "response.function_call_arguments.delta",
                item_id=call.item["id"],
                output_index=call.index,
                delta=t.arguments,
            )
        return out

    def finish(self, usage: Usage, cost_usd: Decimal | None = None) -> bytes:
        """Close every open item, then `response.completed` (or `.incomplete`)."""
        out = b""
        for index, item in enumerate(self._output):
            item["status"] = "completed"
            if item["type"] == "message":
                text = "".join(self._text or ())
                item["content"] = [_text_part(text)]
                out += self._event(
                    "response.output_text.done",
                    item_id=item["id"],
                    output_index=index,
                    content_index=0,
                    text=text,
                    logprobs=[],
                )
                out += self._event(
                    "response.content_part.done",
                    item_id=item["id"],
                    output_index=index,
                    content_index=0,
                    part=_text_part(text),
                )
            else:
                call = next(c for c in self._calls.values() if c.item is item)
                item["arguments"] = "".join(call.args)
                out += self._event(
                    "response.function_call_arguments.done",
                    item_id=item["id"],
                    output_index=index,
                    name=item["name"],
                    arguments=item["arguments"],
                )
            out += self._event("response.output_item.done", output_index=index, item=item)
        final = self._response(usage)
        if final.get("usage") is not None:
            final["usage"] = with_cost(final["usage"], cost_usd)
        if self._on_finish is not None:
            self._on_finish(self._output)
        kind = "response.completed" if final["status"] == "completed" else "response.incomplete"
        return out + self._event(kind, response=final)

    def error(self, message: str) -> bytes:
        return self._event("error", code="stream_interrupted", message=message, param=None)
