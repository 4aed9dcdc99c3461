"""OpenAI Responses (`POST /v1/responses`) request bodies, and their translation into the
provider-neutral ChatRequest: the text input or the items (messages, function calls and their
outputs), `instructions`, function tools, `text.format`, `max_output_tokens`. Every text lands in
a chat place the classifier reads (message content, tool definitions, tool-call arguments, tool
results). `previous_response_id` is refused unless the caller hands over the conversation it
names (kept by openai_api/response_memory.py when the policy retains responses): the whole
conversation is then translated, so the classifier reads every earlier turn as well."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, TypeAdapter

from gateway.core.types import ChatRequest
from gateway.openai_api.strict import Strict, by_type, chat_request, unsupported


class TextPart(Strict):
    """`input_text` from the user; `output_text` / `refusal` when a client replays an
    earlier answer of ours (`annotations` and `logprobs` come back with it, unused)."""

    type: Literal["input_text", "output_text", "refusal"]
    text: str | None = None
    refusal: str | None = None
    annotations: list[Any] | None = None
    logprobs: list[Any] | None = None

    def value(self) -> str:
        return self.text if self.text is not None else self.refusal or ""


class MessageItem(Strict):
    type: Literal["message"] = "message"
    role: Literal["user", "assistant", "system", "developer"]
    content: str | list[TextPart]
    id: str | None = None
    status: str | None = None

    def text(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return "".join(p.value() for p in self.content)


class FunctionCallItem(Strict):
    type: Literal["function_call"]
    call_id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    arguments: str
    id: str | None = None
    status: str | None = None


class ResultText(Strict):
    type: Literal["input_text"]
    text: str


class FunctionCallOutputItem(Strict):
    type: Literal["function_call_output"]
    call_id: str = Field(min_length=1)
    output: str | list[ResultText]
    id: str | None = None
    status: str | None = None

    def text(self) -> str:
        if isinstance(self.output, str):
            return self.output
        return "".join(p.text for p in self.output)


InputItem = Annotated[
    Annotated[MessageItem, Tag("type=message")]
    | Annotated[FunctionCallItem, Tag("type=function_call")]
    | Annotated[FunctionCallOutputItem, Tag("type=function_call_output")],
    Discriminator(by_type("message")),
]


class FunctionTool(Strict):
    type: Literal["function"]
    name: str = Field(min_length=1)
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None


class NamedFunction(Strict):
    type: Literal["function"]
    name: str


class TextFormat(Strict):
    type: Literal["text", "json_object", "json_schema"]
    name: str | None = None
    schema_: dict[str, Any] | None = Field(default=None, alias="schema")
    description: str | None = None
    strict: bool | None = None


class TextOptions(Strict):
    format: TextFormat | None = None


class ResponsesRequest(Strict):
    model: str = Field(min_length=1)
    input: str | Annotated[list[InputItem], Field(min_length=1)]
    instructions: str | None = None
    max_output_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    tools: list[FunctionTool] | None = None
    tool_choice: Literal["auto", "none", "required"] | NamedFunction | None = None
    parallel_tool_calls: bool | None = None
    text: TextOptions | None = None
    metadata: dict[str, str] | None = None
    user: str | None = None
    stream: bool = False
    store: bool | None = None
    previous_response_id: str | None = None
    # defaults some SDKs always send; nothing extra can be included and input is never cut
    include: Annotated[list[str], Field(max_length=0)] | None = None
    truncation: Literal["disabled"] | None = None


ITEMS = TypeAdapter(list[InputItem])


def input_items(req: ResponsesRequest) -> list[dict[str, Any]]:
    """The request's input as items (a text input is one user message), for keeping."""
    if isinstance(req.input, str):
        return [{"type": "message", "role": "user", "content": req.input}]
    return [i.model_dump(exclude_none=True) for i in req.input]


def standalone_chat(req: ResponsesRequest) -> ChatRequest | None:
    """The chat request when `req` stands alone; None when it continues a kept conversation
    (`previous_response_id`): that is translated once the conversation is recalled."""
    return None if req.previous_response_id is not None else to_chat(req)


def to_chat(req: ResponsesRequest, earlier: list[dict[str, Any]] | None = None) -> ChatRequest:
    """`earlier`: the kept conversation `previous_response_id` names (its items first)."""
    if req.previous_response_id is not None and earlier is None:
        raise unsupported(
            "previous_response_id is not supported: this gateway stores no "
            "responses; send the whole conversation in 'input'",
            "previous_response_id",
        )
    messages: list[dict[str, Any]] = []
    if req.instructions:
        messages.append({"role": "system", "content": req.instructions})
    if earlier:
        _append_items(messages, ITEMS.validate_python(earlier))
    if isinstance(req.input, str):
        messages.append({"role": "user", "content": req.input})
    else:
        _append_items(messages, req.input)
    fields: dict[str, Any] = {"model": req.model, "messages": messages, "stream": req.stream}
    if req.stream:
        fields["stream_options"] = {"include_usage": True}
    for name, value in (
        ("max_tokens", req.max_output_tokens),
        ("temperature", req.temperature),
        ("top_p", req.top_p),
        ("metadata", req.metadata),
        ("user", req.user),
    ):
        if value is not None:
            fields[name] = value
    if req.tools:
        fields["tools"] = [{"type": "function", "function": _function(t)} for t in req.tools]
    if req.tool_choice is not None:
        fields["tool_choice"] = (
            req.tool_choice
            if isinstance(req.tool_choice, str)
            else {"type": "function", "function": {"name": req.tool_choice.name}}
        )
    if req.text is not None and req.text.format is not None:
        fields["response_format"] = _response_format(req.text.format)
    return chat_request(fields)


def _append_items(messages: list[dict[str, Any]], items: list[Any]) -> None:
    """Items in order; consecutive function calls become one assistant turn's tool calls."""
    for item in items:
        if isinstance(item, MessageItem):
            messages.append({"role": item.role, "content": item.text()})
        elif isinstance(item, FunctionCallItem):
            call = {
                "id": item.call_id,
                "type": "function",
                "function": {"name": item.name, "arguments": item.arguments},
            }
            last = messages[-1] if messages else None
            if last is not None and last["role"] == "assistant" and last.get("tool_calls"):
                last["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        else:
            messages.append({"role": "tool", "tool_call_id": item.call_id, "content": item.text()})


def _function(t: FunctionTool) -> dict[str, Any]:
    fn: dict[str, Any] = {"name": t.name}
    if t.description is not None:
        fn["description"] = t.description
    if t.parameters is not None:
        fn["parameters"] = t.parameters
    return fn


def _response_format(f: TextFormat) -> dict[str, Any]:
    if f.type != "json_schema":
        return {"type": f.type}
    if f.schema_ is None or not f.name:
        raise unsupported(
            "text.format of type json_schema needs 'name' and 'schema'", "text.format"
        )
    schema: dict[str, Any] = {"name": f.name, "schema": f.schema_}
    if f.description is not None:
        schema["description"] = f.description
    if f.strict is not None:
        schema["strict"] = f.strict
    return {"type": "json_schema", "json_schema": schema}
