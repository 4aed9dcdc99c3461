"""The client APIs' answer encoders (pure): Responses events, Anthropic message events and
legacy completion chunks built from ChatChunks, in the order and shape the SDKs accumulate."""

from __future__ import annotations

from typing import Any

import orjson

from gateway.core.types import ChatChunk, ChatResult, ToolCallDelta, ToolCallOut, Usage
from gateway.openai_api.anthropic_out import MessageEvents, message_json, tool_input
from gateway.openai_api.completions import TextChunks
from gateway.openai_api.responses_out import Ids, ResponsesEvents, output_items, result_json
from gateway.openai_api.responses_wire import ResponsesRequest

USAGE = Usage(prompt_tokens=11, completion_tokens=4)
TOOL_CHUNKS = [
    ChatChunk(tool_calls=(ToolCallDelta(0, id="call_a", name="w", arguments=""),)),
    ChatChunk(tool_calls=(ToolCallDelta(1, id="call_b", name="v", arguments="{}"),)),
    ChatChunk(tool_calls=(ToolCallDelta(0, arguments='{"c":'),)),
    ChatChunk(tool_calls=(ToolCallDelta(0, arguments='"x"}'),), finish_reason="tool_calls"),
]


def _sse(data: bytes) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for frame in data.decode().split("\n\n"):
        if not frame:
            continue
        event, body = frame.split("\n")
        assert event.startswith("event: ") and body.startswith("data: ")
        payload = orjson.loads(body[6:])
        assert payload["type"] == event[7:]
        out.append((event[7:], payload))
    return out


def _responses_stream(chunks: list[ChatChunk]) -> list[tuple[str, dict[str, Any]]]:
    enc = ResponsesEvents(Ids("req_abc"), 1700000000, ResponsesRequest(model="m", input="x"))
    data = enc.start() + b"".join(enc.chunk(c) for c in chunks) + enc.finish(USAGE)
    return _sse(data)


def test_responses_text_stream_events() -> None:
    events = _responses_stream(
        [ChatChunk(text="Mer"), ChatChunk(text="haba"), ChatChunk(finish_reason="stop")]
    )
    assert [k for k, _ in events] == [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert [e["sequence_number"] for _, e in events] == list(range(10))
    final = events[-1][1]["response"]
    assert final["id"] == "resp_abc" and final["status"] == "completed"
    assert final["output"] == [
        {
            "id": "msg_abc",
            "type": "message",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Merhaba", "annotations": []}],
        }
    ]
    assert final["usage"]["input_tokens"] == 11 and final["usage"]["output_tokens"] == 4


def test_responses_interleaved_tool_calls_keep_their_items() -> None:
    events = _responses_stream(TOOL_CHUNKS)
    deltas = [
        (e["output_index"], e["delta"])
        for k, e in events
        if k == "response.function_call_arguments.delta"
    ]
    assert deltas == [(1, "{}"), (0, '{"c":'), (0, '"x"}')]
    final = events[-1][1]["response"]
    assert [(o["call_id"], o["name"], o["arguments"]) for o in final["output"]] == [
        ("call_a", "w", '{"c":"x"}'),
        ("call_b", "v", "{}"),
    ]


def test_responses_length_is_incomplete() -> None:
    events = _responses_stream([ChatChunk(text="a", finish_reason="length")])
    assert events[-1][0] == "response.incomplete"
    assert events[-1][1]["response"]["incomplete_details"] == {"reason": "max_output_tokens"}


def test_responses_whole_result() -> None:
    result = ChatResult(
        text=None,
        finish_reason="tool_calls",
        usage=USAGE,
        model="x",
        tool_calls=(ToolCallOut("call_1", "w", "{}"),),
    )
    ids = Ids("req_q")
    body = orjson.loads(
        result_json(
            ids,
            1,
            ResponsesRequest(model="m", input="x"),
            output_items(ids, result),
            result.finish_reason,
            USAGE,
        )
    )
    assert body["output"] == [
        {
            "id": "fc_q_0",
            "type": "function_call",
            "status": "completed",
            "call_id": "call_1",
            "name": "w",
            "arguments": "{}",
        }
    ]
    assert body["store"] is False and body["object"] == "response"


def test_anthropic_stream_text_then_whole_tool_use_blocks() -> None:
    enc = MessageEvents("msg_1", "m")
    data = (
        enc.start()
        + enc.chunk(ChatChunk(text="Bakıyorum"))
        + b"".join(enc.chunk(c) for c in TOOL_CHUNKS)
        + enc.finish(USAGE)
    )
    events = _sse(data)
    assert [k for k, _ in events] == [
        "message_start",
        "ping",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    starts = [e for k, e in events if k == "content_block_start"]
    assert [s["index"] for s in starts] == [0, 1, 2]
    assert starts[1]["content_block"] == {
        "type": "tool_use",
        "id": "call_a",
        "name": "w",
        "input": {},
    }
    json_deltas = [
        e["delta"]["partial_json"]
        for k, e in events
        if k == "content_block_delta" and e["delta"]["type"] == "input_json_delta"
    ]
    assert json_deltas == ['{"c":"x"}', "{}"]
    delta = events[-2][1]
    assert delta["delta"]["stop_reason"] == "tool_use"
    assert delta["usage"]["output_tokens"] == 4 and delta["usage"]["input_tokens"] == 11


def test_anthropic_whole_message_and_tool_input() -> None:
    result = ChatResult(
        text="ok",
        finish_reason="length",
        usage=USAGE,
        model="x",
        tool_calls=(ToolCallOut("t", "w", "not json"),),
    )
    body = orjson.loads(message_json("msg_1", "m", result, USAGE))
    assert body["content"] == [
        {"type": "text", "text": "ok"},
        {"type": "tool_use", "id": "t", "name": "w", "input": {"arguments": "not json"}},
    ]
    assert body["stop_reason"] == "max_tokens"
    assert tool_input("") == {} and tool_input("[1]") == {"arguments": [1]}


def test_legacy_completion_chunks() -> None:
    enc = TextChunks("cmpl-1", 5, "m")
    assert enc.chunk(ChatChunk()) == b""
    frame = orjson.loads(enc.chunk(ChatChunk(text="hi"))[6:])
    assert frame["object"] == "text_completion"
    assert frame["choices"] == [{"index": 0, "text": "hi", "logprobs": None, "finish_reason": None}]
    usage = orjson.loads(enc.usage(USAGE)[6:])
    assert usage["choices"] == [] and usage["usage"]["total_tokens"] == 15
