"""Strict models of the policy YAML (`version: 1`). Unknown keys are rejected."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

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


Backend = Annotated[LocalBackend | OpenAICompatBackend, Field(discriminator="kind")]


class Alias(Strict):
    backends: list[str] = Field(min_length=1)
    description: str | None = None


class Policy(Strict):
    version: Literal[1]
    backends: dict[str, Backend]
    aliases: dict[str, Alias] = Field(min_length=1)
