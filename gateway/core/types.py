"""Provider-neutral request and response types.

The request side is the OpenAI chat wire format (it is the lingua franca every adapter maps
from), validated once by pydantic at the edge. The schema is closed: every documented field is
typed and bounded, and a field or key it does not know is refused (400 naming it), because a
value nobody read could carry personal data past the classifier or steer an adapter (a client
must never choose a destination, key, fallback or mock). Where each text of a request lives is
enumerated in `gateway.core.textplaces`. The response side is a small set of frozen dataclasses
that adapters produce and the OpenAI edge serialises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Role = Literal["system", "developer", "user", "assistant", "tool", "function"]
FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "error"]
DataClass = Literal["public", "personal", "special"]
DATA_CLASS_ORDER: dict[str, int] = {"public": 0, "personal": 1, "special": 2}

# what upstreams accept: token counts are int32 there, a seed int64
MAX_TOKENS = 2**31 - 1
# the schema's bound on `n`; the running limit is the settings' `max_choices`, checked at the edge
MAX_CHOICES = 128
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1

_CLOSED = ConfigDict(extra="forbid")


class FunctionCall(BaseModel):
    model_config = _CLOSED
    name: str
    arguments: str = ""


class ToolCall(BaseModel):
    model_config = _CLOSED
    id: str
    type: Literal["function"] = "function"
    function: FunctionCall


class ContentPart(BaseModel):
    """One part of a list content. Text-bearing parts carry `text` (or `refusal`); the others
    (`image_url`, `input_audio`, `file`, ...) carry a payload the classifier cannot read."""

    model_config = _CLOSED
    type: str = Field(min_length=1, max_length=64)
    text: str | None = None
    refusal: str | None = None
    image_url: dict[str, Any] | str | None = None
    input_audio: dict[str, Any] | None = None
    file: dict[str, Any] | None = None


class AudioRef(BaseModel):
    model_config = _CLOSED
    id: str


class ChatMessage(BaseModel):
    model_config = _CLOSED
    role: Role
    content: str | list[ContentPart] | None = None
    name: str | None = None
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    refusal: str | None = None
    audio: AudioRef | None = None
    function_call: FunctionCall | None = None

    def text(self) -> str:
        """The message's text content (text parts joined), without tool calls."""
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text or "" for p in self.content if p.type == "text")


class FunctionDef(BaseModel):
    model_config = _CLOSED
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None


class ToolDef(BaseModel):
    model_config = _CLOSED
    type: Literal["function"] = "function"
    function: FunctionDef


class StreamOptions(BaseModel):
    model_config = _CLOSED
    include_usage: bool = False
    include_obfuscation: bool | None = None


class ResponseFormat(BaseModel):
    model_config = _CLOSED
    type: Literal["text", "json_object", "json_schema"]
    json_schema: dict[str, Any] | None = None


class Prediction(BaseModel):
    """Predicted output: its content is text sent upstream like a message's."""

    model_config = _CLOSED
    type: Literal["content"] = "content"
    content: str | list[ContentPart]


class AudioOutput(BaseModel):
    model_config = _CLOSED
    voice: str = Field(max_length=64)
    format: Literal["wav", "aac", "mp3", "flac", "opus", "pcm16"]


class ApproximateLocation(BaseModel):
    model_config = _CLOSED
    city: str | None = None
    country: str | None = None
    region: str | None = None
    timezone: str | None = None


class UserLocation(BaseModel):
    model_config = _CLOSED
    type: Literal["approximate"] = "approximate"
    approximate: ApproximateLocation


class WebSearchOptions(BaseModel):
    model_config = _CLOSED
    search_context_size: Literal["low", "medium", "high"] | None = None
    user_location: UserLocation | None = None


class ChatRequest(BaseModel):
    """An OpenAI `POST /v1/chat/completions` body, validated (every documented field)."""

    model_config = _CLOSED

    model: str = Field(min_length=1)
    messages: list[ChatMessage] = Field(min_length=1)
    stream: bool = False
    stream_options: StreamOptions | None = None
    max_tokens: int | None = Field(default=None, ge=1, le=MAX_TOKENS)
    max_completion_tokens: int | None = Field(default=None, ge=1, le=MAX_TOKENS)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    stop: str | list[str] | None = None
    seed: int | None = Field(default=None, ge=SEED_MIN, le=SEED_MAX)
    user: str | None = None
    n: int | None = Field(default=None, ge=1, le=MAX_CHOICES)
    tools: list[ToolDef] | None = None
    tool_choice: str | dict[str, Any] | None = None
    response_format: ResponseFormat | None = None
    metadata: dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    logit_bias: dict[str, int] | None = None
    presence_penalty: float | None = Field(default=None, ge=-2, le=2)
    frequency_penalty: float | None = Field(default=None, ge=-2, le=2)
    logprobs: bool | None = None
    top_logprobs: int | None = Field(default=None, ge=0, le=20)
    service_tier: Literal["auto", "default", "flex", "scale", "priority"] | None = None
    store: bool | None = None
    modalities: list[Literal["text", "audio"]] | None = None
    reasoning_effort: Literal["minimal", "low", "medium", "high"] | None = None
    verbosity: Literal["low", "medium", "high"] | None = None
    prediction: Prediction | None = None
    audio: AudioOutput | None = None
    web_search_options: WebSearchOptions | None = None
    safety_identifier: str | None = None
    prompt_cache_key: str | None = None
    # deprecated spellings of tools / tool_choice, still sent by older clients
    functions: list[FunctionDef] | None = None
    function_call: str | dict[str, Any] | None = None

    @field_validator("stop")
    @classmethod
    def _stop_list(cls, v: str | list[str] | None) -> str | list[str] | None:
        if isinstance(v, list) and len(v) > 4:
            raise ValueError("at most 4 stop sequences")
        return v

    @field_validator("logit_bias")
    @classmethod
    def _bias_range(cls, v: dict[str, int] | None) -> dict[str, int] | None:
        if v is not None and any(not -100 <= b <= 100 for b in v.values()):
            raise ValueError("logit_bias values must be between -100 and 100")
        return v

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
    choice: int = 0  # which of a request's `n` choices this piece belongs to


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
