"""Property: every text a client puts anywhere in a Responses, Anthropic Messages or legacy
completions body lands in the ChatRequest the chat path classifies, redacts and forwards, and
the texts of conversation turns land in message content or tool calls (the places the
classifier has always read). Nothing is lost in translation and nothing takes another road."""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.openai_api import anthropic_wire, completions, responses_wire
from gateway.openai_api.strict import parse_strict

WORD = st.text(alphabet="abcçdefgğhıijklmnoöprsştuüvyz", min_size=3, max_size=8)


@st.composite
def marked(draw: st.DrawFn, marks: list[str]) -> str:
    """A text carrying a fresh marker (recorded in `marks`)."""
    mark = f"M{len(marks)}x{draw(WORD)}"
    marks.append(mark)
    return f"{draw(WORD)} {mark} {draw(WORD)}"


@st.composite
def responses_body(draw: st.DrawFn) -> tuple[dict[str, Any], list[str], list[str]]:
    turns: list[str] = []  # markers of conversation turns
    defs: list[str] = []  # markers of tool definitions and schemas
    items: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["user", "assistant", "developer", "parts", "call"]))
        if kind == "parts":
            items.append(
                {
                    "role": "user",
                    "content": [
                        {"type": "input_text", "text": draw(marked(turns))}
                        for _ in range(draw(st.integers(1, 3)))
                    ],
                }
            )
        elif kind == "call":
            items.append(
                {
                    "type": "function_call",
                    "call_id": f"c{i}",
                    "name": "f",
                    "arguments": orjson.dumps({"a": draw(marked(turns))}).decode(),
                }
            )
            items.append(
                {"type": "function_call_output", "call_id": f"c{i}", "output": draw(marked(turns))}
            )
        else:
            items.append({"role": kind, "content": draw(marked(turns))})
    body: dict[str, Any] = {"model": "m", "input": items}
    if draw(st.booleans()):
        body["instructions"] = draw(marked(turns))
    if draw(st.booleans()):
        body["tools"] = [
            {
                "type": "function",
                "name": "f",
                "description": draw(marked(defs)),
                "parameters": {"type": "object", "description": draw(marked(defs))},
            }
        ]
    if draw(st.booleans()):
        body["text"] = {
            "format": {
                "type": "json_schema",
                "name": "o",
                "schema": {"description": draw(marked(defs))},
            }
        }
    return body, turns, defs


@st.composite
def messages_body(draw: st.DrawFn) -> tuple[dict[str, Any], list[str], list[str]]:
    turns: list[str] = []
    defs: list[str] = []
    msgs: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["text", "blocks", "tool"]))
        if kind == "text":
            msgs.append(
                {
                    "role": draw(st.sampled_from(["user", "assistant"])),
                    "content": draw(marked(turns)),
                }
            )
        elif kind == "blocks":
            msgs.append(
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": draw(marked(turns))}
                        for _ in range(draw(st.integers(1, 3)))
                    ],
                }
            )
        else:
            msgs.append(
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": draw(marked(turns))},
                        {
                            "type": "tool_use",
                            "id": f"t{i}",
                            "name": "f",
                            "input": {"q": draw(marked(turns))},
                        },
                    ],
                }
            )
            msgs.append(
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": f"t{i}",
                            "content": draw(
                                st.one_of(
                                    marked(turns),
                                    st.builds(
                                        lambda t: [{"type": "text", "text": t}], marked(turns)
                                    ),
                                )
                            ),
                        }
                    ],
                }
            )
    body: dict[str, Any] = {"model": "m", "max_tokens": 5, "messages": msgs}
    if draw(st.booleans()):
        body["system"] = draw(
            st.one_of(
                marked(turns), st.builds(lambda t: [{"type": "text", "text": t}], marked(turns))
            )
        )
    if draw(st.booleans()):
        body["tools"] = [
            {
                "name": "f",
                "description": draw(marked(defs)),
                "input_schema": {"description": draw(marked(defs))},
            }
        ]
    return body, turns, defs


def _turn_texts(chat: Any) -> str:
    """Message content and tool-call arguments: what the classifier reads on every branch."""
    out = []
    for m in chat.messages:
        out.append(m.text())
        out += [tc.function.arguments for tc in m.tool_calls or ()]
    return "\n".join(out)


def _check(chat: Any, turns: list[str], defs: list[str]) -> None:
    turn_text = _turn_texts(chat)
    for mark in turns:
        assert mark in turn_text, mark
    everything = orjson.dumps(chat.model_dump()).decode()
    for mark in defs:
        assert mark in everything, mark


@settings(max_examples=150, deadline=None)
@given(case=responses_body())
def test_every_responses_text_lands_in_the_chat_request(
    case: tuple[dict[str, Any], list[str], list[str]],
) -> None:
    body, turns, defs = case
    chat = responses_wire.to_chat(parse_strict(responses_wire.ResponsesRequest, orjson.dumps(body)))
    _check(chat, turns, defs)


@settings(max_examples=150, deadline=None)
@given(case=messages_body())
def test_every_messages_text_lands_in_the_chat_request(
    case: tuple[dict[str, Any], list[str], list[str]],
) -> None:
    body, turns, defs = case
    chat = anthropic_wire.to_chat(parse_strict(anthropic_wire.MessagesRequest, orjson.dumps(body)))
    _check(chat, turns, defs)


@given(prompt=WORD, as_list=st.booleans())
def test_every_completion_prompt_lands_in_the_chat_request(prompt: str, as_list: bool) -> None:
    body = {"model": "m", "prompt": [prompt] if as_list else prompt}
    chat = completions.to_chat(parse_strict(completions.CompletionRequest, orjson.dumps(body)))
    assert _turn_texts(chat) == prompt
