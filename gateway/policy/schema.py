"""Strict models of the policy YAML (`version: 1`). Unknown keys are rejected."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from gateway.policy.billing import Billing

Zone = Literal["on_prem", "cloud"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Price(Strict):
    """USD per million tokens."""

    input_per_mtok: Decimal = Field(ge=0)
    output_per_mtok: Decimal = Field(ge=0)
    cached_input_per_mtok: Decimal | None = Field(default=None, ge=0)


class Timeouts(Strict):
    connect_s: float = Field(default=5.0, gt=0)
    first_token_s: float = Field(default=60.0, gt=0)
    total_s: float = Field(default=300.0, gt=0)


class CapabilitySpec(Strict):
    streaming: bool = True
    tools: bool = False
    json_mode: bool = False
    context_length: int | None = Field(default=None, ge=1)


class BackendBase(Strict):
    zone: Zone
    model: str
    enabled: bool = True
    price: Price | None = None
    hourly_cost_usd: Decimal | None = Field(default=None, ge=0)
    timeouts: Timeouts = Timeouts()
    capabilities: CapabilitySpec | None = None


class LocalBackend(BackendBase):
    """The bundled llama.cpp server with SmolLM2, started and supervised by the gateway."""

    kind: Literal["local"]
    zone: Zone = "on_prem"
    model: str = "smollm2"


class OpenAICompatBackend(BackendBase):
    """Any OpenAI-style server: vLLM, llama.cpp, Ollama's /v1, a hosted OpenAI-style API."""

    kind: Literal["openai_compat"]
    base_url: str
    api_key_env: str | None = None


class OllamaBackend(BackendBase):
    """An Ollama server reached through its native API (`/api/chat`)."""

    kind: Literal["ollama"]
    zone: Zone = "on_prem"
    host: str = "http://127.0.0.1:11434"
    keep_alive: str | None = None


class BedrockBackend(BackendBase):
    """AWS Bedrock Converse / ConverseStream. `model` is a model id or inference-profile ARN."""

    kind: Literal["bedrock"]
    zone: Zone = "cloud"
    region: str = "eu-central-1"
    endpoint_url: str | None = None  # e.g. an emulator; default: the regional AWS endpoint
    profile: str | None = None  # AWS shared-config profile; default: the standard chain


class VertexBackend(BackendBase):
    """Google Vertex AI through google-genai (`vertexai=True`)."""

    kind: Literal["vertex"]
    zone: Zone = "cloud"
    project: str
    location: str = "europe-west3"
    base_url: str | None = None  # e.g. an emulator; default: the regional Vertex endpoint
    credentials_env: str = "GOOGLE_APPLICATION_CREDENTIALS"


class ReplicateBackend(BackendBase):
    """Replicate predictions; `model` is `owner/name` or `owner/name:version`."""

    kind: Literal["replicate"]
    zone: Zone = "cloud"
    api_token_env: str = "REPLICATE_API_TOKEN"
    base_url: str | None = None  # e.g. an emulator; default: Replicate's API


class LiteLLMBackend(BackendBase):
    """Any other provider litellm supports; imported lazily only when a policy uses it."""

    kind: Literal["litellm"]
    zone: Zone = "cloud"
    api_base: str | None = None
    api_key_env: str | None = None
    params: dict[str, str | int | float | bool] = Field(default_factory=dict)


Backend = Annotated[
    LocalBackend | OpenAICompatBackend | OllamaBackend | BedrockBackend | VertexBackend
    | ReplicateBackend | LiteLLMBackend,
    Field(discriminator="kind"),
]


class Alias(Strict):
    backends: list[str] = Field(min_length=1)
    description: str | None = None


class Policy(Strict):
    version: Literal[1]
    backends: dict[str, Backend]
    aliases: dict[str, Alias] = Field(min_length=1)
    billing: Billing = Billing()
