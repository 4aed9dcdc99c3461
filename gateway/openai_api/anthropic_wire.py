"""Anthropic Messages (`POST /v1/messages`, `/v1/messages/count_tokens`) request bodies, and
their translation into the provider-neutral ChatRequest: `system`, messages with text,
`tool_use` and `tool_result` blocks, tools, `tool_choice`, `max_tokens`, `stop_sequences`,
`temperature`, `top_p`, `output_config.format` (JSON schema). Every text lands in a chat place
the classifier reads (message content, tool definitions, tool-call arguments, tool results)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from gateway.core.types import ChatRequest
from gateway.openai_api.strict import Strict, by_type, chat_request, json_text

# `cache_control` is a caching hint for Anthropic's servers; accepted on every block it may
# sit on and not forwarded (no backend here keeps a prompt cache keyed by it)
CacheControl = dict[str, Any] | None


class TextBlock(Strict):
    type: Literal["text"]
    text: str
    cache_control: CacheControl = None
    citations: list[Any] | None = None


class ToolUseBlock(Strict):
    type: Literal["tool_use"]
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    input: dict[str, Any]
    cache_control: CacheControl = None


class ToolResultBlock(Strict):
    type: Literal["tool_result"]
    tool_use_id: str = Field(min_length=1)
    content: str | list[TextBlock] = ""
    is_error: bool | None = None
    cache_control: CacheControl = None

    def text(self) -> str:
        body = (
            self.content if isinstance(self.content, str) else "".join(b.text for b in self.content)
        )
        # the model must know a tool failed; the chat tool message has no flag for it
        return "error: " + body if self.is_error else body


Block = Annotated[
    Annotated[TextBlock, Tag("type=text")]
    | Annotated[ToolUseBlock, Tag("type=tool_use")]
    | Annotated[ToolResultBlock, Tag("type=tool_result")],
    Discriminator(by_type(None)),
]


class Message(Strict):
    role: Literal["user", "assistant"]
    content: str | list[Block]


class Tool(Strict):
    name: str = Field(min_length=1)
    description: str | None = None
    input_schema: dict[str, Any]
    type: Literal["custom"] | None = None
    cache_control: CacheControl = None


class ToolChoice(Strict):
    type: Literal["auto", "any", "tool", "none"]
    name: str | None = None
    disable_parallel_tool_use: bool | None = None


class Metadata(Strict):
    user_id: str | None = None


class JsonOutputFormat(Strict):
    type: Literal["json_schema"]
    schema_: dict[str, Any] = Field(alias="schema")


class OutputConfig(Strict):
    """Structured output; `effort` has no chat counterpart, so it is not accepted."""

    format: JsonOutputFormat | None = None


class ThinkingDisabled(Strict):
    """Extended thinking cannot be served by chat backends; saying it is off is fine."""

    type: Literal["disabled"]


class CountTokensRequest(Strict):
    model: str = Field(min_length=1)
    messages: list[Message] = Field(min_length=1)
    system: str | list[TextBlock] | None = None
    tools: list[Tool] | None = None
    tool_choice: ToolChoice | None = None


class MessagesRequest(CountTokensRequest):
    max_tokens: int = Field(ge=1)
    stop_sequences: list[str] | None = None
    temperature: float | None = Field(default=None, ge=0, le=1)
    top_p: float | None = Field(default=None, ge=0, le=1)
    metadata: Metadata | None = None
    output_config: OutputConfig | None = None
    thinking: ThinkingDisabled | None = None
    cache_control: CacheControl = None
    stream: bool = False


def to_chat(req: CountTokensRequest) -> ChatRequest:
    messages: list[dict[str, Any]] = []
    if req.system:
        system = req.system if isinstance(req.system, str) else "".join(b.text for b in req.system)
        messages.append({"role": "system", "content": system})
    for m in req.messages:
        _append(messages, m)
    fields: dict[str, Any] = {"model": req.model, "messages": messages}
    if req.tools:
        fields["tools"] = [{"type": "function", "function": _function(t)} for t in req.tools]
    if req.tool_choice is not None:
        fields["tool_choice"] = _tool_choice(req.tool_choice)
    if isinstance(req, MessagesRequest):
        fields.update(max_tokens=req.max_tokens, stream=req.stream)
        if req.stream:
            fields["stream_options"] = {"include_usage": True}
        for name, value in (
            ("stop", req.stop_sequences),
            ("temperature", req.temperature),
            ("top_p", req.top_p),
        ):
            if value is not None:
                fields[name] = value
        if req.metadata is not None and req.metadata.user_id is not None:
            fields["user"] = req.metadata.user_id
        if req.output_config is not None and req.output_config.format is not None:
            fields["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "output", "schema": req.output_config.format.schema_},
            }
    return chat_request(fields)


def _append(messages: list[dict[str, Any]], m: Message) -> None:
    """One Anthropic turn as chat messages: tool results become tool messages (before the
    turn's own text, as the chat format wants them right after the calls), tool uses become the
    assistant message's tool calls."""
    if isinstance(m.content, str):
        messages.append({"role": m.role, "content": m.content})
        return
    text = "".join(b.text for b in m.content if isinstance(b, TextBlock))
    calls = [
        {
            "id": b.id,
            "type": "function",
            "function": {"name": b.name, "arguments": json_text(b.input, "messages")},
        }
        for b in m.content
        if isinstance(b, ToolUseBlock)
    ]
    for b in m.content:
        if isinstance(b, ToolResultBlock):
            messages.append({"role": "tool", "tool_call_id": b.tool_use_id, "content": b.text()})
    if calls:
        messages.append({"role": "assistant", "content": text or None, "tool_calls": calls})
    elif text or not any(isinstance(b, ToolResultBlock) for b in m.content):
        messages.append({"role": m.role, "content": text})


def _function(t: Tool) -> dict[str, Any]:
    fn: dict[str, Any] = {"name": t.name, "parameters": t.input_schema}
    if t.description is not None:
        fn["description"] = t.description
    return fn


def _tool_choice(c: ToolChoice) -> str | dict[str, Any]:
    if c.type == "tool":
        return {"type": "function", "function": {"name": c.name or ""}}
    return {"auto": "auto", "any": "required", "none": "none"}[c.type]
