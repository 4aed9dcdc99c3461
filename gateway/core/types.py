"""Provider-neutral request and response types.

The request side is the OpenAI chat wire format (it is the lingua franca every adapter maps
from), validated once by pydantic at the edge. The response side is a small set of frozen
dataclasses that adapters produce and the OpenAI edge serialises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Role = Literal["system", "developer", "user", "assistant", "tool", "function"]
FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "error"]
DataClass = Literal["public", "personal", "special"]
DATA_CLASS_ORDER: dict[str, int] = {"public": 0, "personal": 1, "special": 2}


class FunctionCall(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    arguments: str = ""


class ToolCall(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    type: Literal["function"] = "function"
    function: FunctionCall


class ContentPart(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: str
    text: str | None = None


class ChatMessage(BaseModel):
    model_config = ConfigDict(extra="allow")
    role: Role
    content: str | list[ContentPart] | None = None
    name: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None

    def text(self) -> str:
        """The message's text content (text parts joined), without tool calls."""
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text or "" for p in self.content if p.type == "text")


class FunctionDef(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None


class ToolDef(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: Literal["function"] = "function"
    function: FunctionDef


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="allow")
    include_usage: bool = False


class ResponseFormat(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: Literal["text", "json_object", "json_schema"]
    json_schema: dict[str, Any] | None = None


class ChatRequest(BaseModel):
    """An OpenAI `POST /v1/chat/completions` body, validated."""

    model_config = ConfigDict(extra="allow")

    model: str = Field(min_length=1)
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    stream_options: StreamOptions | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    stop: str | list[str] | None = None
    seed: int | None = None
    user: str | None = None
    n: int | None = Field(default=None, ge=1, le=1)
    tools: list[ToolDef] | None = None
    tool_choice: str | dict[str, Any] | None = None
    response_format: ResponseFormat | None = None
    metadata: dict[str, Any] | None = None

    @field_validator("stop")
    @classmethod
    def _stop_list(cls, v: str | list[str] | None) -> str | list[str] | None:
        if isinstance(v, list) and len(v) > 4:
            raise ValueError("at most 4 stop sequences")
        return v

    @model_validator(mode="after")
    def _limits(self) -> ChatRequest:
        return self

    @property
    def token_limit(self) -> int | None:
        """`max_completion_tokens` wins over the legacy `max_tokens`."""
        return self.max_completion_tokens or self.max_tokens

    @property
    def stop_list(self) -> list[str]:
        if self.stop is None:
            return []
        return [self.stop] if isinstance(self.stop, str) else list(self.stop)

    @property
    def wants_usage_in_stream(self) -> bool:
        return bool(self.stream_options and self.stream_options.include_usage)

    def all_texts(self) -> list[str]:
        """Every piece of text the request carries (messages, tool calls, tool results)."""
        out: list[str] = []
        for m in self.messages:
            t = m.text()
            if t:
                out.append(t)
            for tc in m.tool_calls or ():
                out.append(tc.function.arguments)
        return out


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int = 0
    estimated: bool = False

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class ToolCallOut:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True, slots=True)
class ChatResult:
    """A whole (non-streamed) answer from a backend."""

    text: str | None
    finish_reason: FinishReason
    usage: Usage | None
    model: str
    tool_calls: tuple[ToolCallOut, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolCallDelta:
    index: int
    id: str | None = None
    name: str | None = None
    arguments: str | None = None


@dataclass(frozen=True, slots=True)
class ChatChunk:
    """One streamed piece. `usage` comes on the last chunk when the backend reports it."""

    text: str = ""
    finish_reason: FinishReason | None = None
    usage: Usage | None = None
    tool_calls: tuple[ToolCallDelta, ...] = ()


@dataclass(frozen=True, slots=True)
class RequestContext:
    """Who is asking, established by the edge before anything else runs."""

    request_id: str
    tenant: str = "default"
    app: str = "default"
    key_id: str | None = None
    declared_class: DataClass | None = None
    headers: dict[str, str] = field(default_factory=dict)
    received_at: float = 0.0
