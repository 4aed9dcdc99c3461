"""Strict models of the policy YAML (`version: 1`). Unknown keys are rejected everywhere.

The admin-facing vocabulary: backends (where a model runs, in which zone and country, at what
price, under which KVKK transfer basis), aliases (what clients put in `model`), tenants (sector
locks) and ordered rules (match -> route under SLOs and cost caps, redact, or block).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gateway.policy.billing import Billing
from gateway.policy.rate_limits import RateLimits
from gateway.policy.tags import TagSpec
from gateway.sensitivity.config import SensitivityConfig

if TYPE_CHECKING:  # plan.py compiles this schema, so it is imported when first used
    from gateway.policy.plan import Plan

Zone = Literal["on_prem", "cloud"]
DataClassName = Literal["public", "personal", "special"]
Mechanism = Literal["adequacy", "tr_scc", "bcr", "undertaking", "none"]
Objective = Literal["cheapest", "fastest", "ordered", "weighted"]
Preset = Literal["bank", "health", "public_sector"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Price(Strict):
    """USD per million tokens (write them as strings, e.g. "0.15", to keep them exact)."""

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


class TransferBasis(Strict):
    """The KVKK Art. 9 record for a cloud destination (KVKK.md 6.4). Without one, a cloud
    backend may only receive `public` data."""

    mechanism: Mechanism = "none"
    module: Literal["C2C", "C2P", "P2P", "P2C"] | None = None
    provider_legal_name: str | None = None
    signed: date | None = None
    notified: date | None = Field(default=None, description="date notified to the Authority")
    notification_channel: Literal["kep", "physical", "other"] | None = None
    evidence: str | None = Field(default=None, description="reference to the signed document")
    expires: date | None = None
    classes: tuple[DataClassName, ...] = Field(
        default=("public",), description="data classes this destination may receive"
    )


class BackendBase(Strict):
    zone: Zone
    model: str
    enabled: bool = True
    private_endpoint: bool = Field(
        default=False,
        description="the backend is reached over a private network (a private link, a "
        "self-hosted deployment): only then may a cloud vendor's kind or a public "
        "host be declared zone on_prem",
    )
    country: str | None = Field(default=None, description="country of processing, e.g. TR, DE")
    processing_region: str | None = None
    price: Price | None = None
    hourly_cost_usd: Decimal | None = Field(default=None, ge=0)
    timeouts: Timeouts = Timeouts()
    capabilities: CapabilitySpec | None = None
    transfer: TransferBasis | None = None


class LocalBackend(BackendBase):
    """The bundled llama.cpp server with SmolLM2, started and supervised by the gateway."""

    kind: Literal["local"]
    zone: Zone = "on_prem"
    model: str = "smollm2"


class Endpoint(Strict):
    """One on-prem node of a pooled backend: an OpenAI-style server and the engine behind it,
    whose own load signals Geçit reads (vLLM /metrics, llama.cpp /metrics and /slots, Ollama
    /api/ps)."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    base_url: str
    engine: Literal["vllm", "llamacpp", "ollama"]
    weight: float = Field(default=1.0, gt=0, description="capacity share for the load bound")
    kv_capacity_tokens: int | None = Field(
        default=None, ge=1, description="KV cache size; vLLM reports it, others need it here"
    )


def _default_queue() -> dict[DataClassName, int]:
    # the pool's own default (gateway.fleet.admission.DEFAULT_QUEUE) when no policy sets one
    return {"public": 16, "personal": 32, "special": 64}


class FleetTuning(Strict):
    scrape_interval_s: float = Field(default=0.5, gt=0)
    max_age_s: float = Field(default=2.0, gt=0, description="older engine figures are ignored")
    load_factor: float = Field(
        default=1.25, ge=1.0, description="a node carries at most this x its share"
    )
    kv_high: float = Field(default=0.95, gt=0, le=1, description="KV use that counts as full")
    queue: dict[DataClassName, Annotated[int, Field(ge=0, le=10_000)]] = Field(
        default_factory=_default_queue,
        description=(
            "requests that have nowhere else to go (no allowed backend after this pool) wait "
            "in Geçit for a node, at most this many per data class, ordered by tenant then "
            "rule priority; beyond it, or past their first-token deadline, 503 + Retry-After"
        ),
    )
    queue_recheck_s: float = Field(
        default=0.1, gt=0, le=5, description="a waiting request looks at the nodes again"
    )


class OpenAICompatBackend(BackendBase):
    """Any OpenAI-style server: vLLM, llama.cpp, Ollama's /v1, a hosted OpenAI-style API.
    With `endpoints`, a pool of on-prem nodes serving the same model; Geçit picks one per
    request (`base_url` must then be one of them: it is the node probed for readiness)."""

    kind: Literal["openai_compat"]
    base_url: str = Field(
        description=(
            "the server's address, with or without /v1: a private or test endpoint, e.g. "
            "http://10.0.0.5:8000/v1 (vLLM), http://127.0.0.1:8081 (llama.cpp)"
        )
    )
    api_key_env: str | None = Field(
        default=None,
        description=("environment variable holding the bearer key, if the server wants one"),
    )
    endpoints: list[Endpoint] | None = Field(default=None, min_length=1)
    fleet: FleetTuning | None = None

    @model_validator(mode="after")
    def _pool(self) -> OpenAICompatBackend:
        if self.endpoints is None:
            return self
        names = [e.name for e in self.endpoints]
        if len(set(names)) != len(names):
            raise ValueError("endpoint names must be unique")
        if self.base_url not in {e.base_url for e in self.endpoints}:
            raise ValueError("base_url must be one of the endpoints' base_url")
        return self


class OllamaBackend(BackendBase):
    """An Ollama server reached through its native API (`/api/chat`)."""

    kind: Literal["ollama"]
    zone: Zone = "on_prem"
    host: str = Field(
        default="http://127.0.0.1:11434",
        description=(
            "the Ollama server's address (scheme, host, port), e.g. http://gpu-node.lan:11434"
        ),
    )
    keep_alive: str | None = None


class BedrockBackend(BackendBase):
    """AWS Bedrock Converse / ConverseStream. `model` is a model id or inference-profile ARN."""

    kind: Literal["bedrock"]
    zone: Zone = "cloud"
    region: str = Field(default="eu-central-1", description="AWS region of the model")
    endpoint_url: str | None = Field(
        default=None,
        description=(
            "Bedrock Runtime endpoint to call instead of the regional AWS one: a VPC interface "
            "endpoint (https://vpce-....bedrock-runtime.eu-central-1.vpce.amazonaws.com) or a "
            "test endpoint such as `gateway emulate bedrock`"
        ),
    )
    profile: str | None = Field(
        default=None,
        description=("AWS shared-config profile; default: the standard credential chain"),
    )


class VertexBackend(BackendBase):
    """Google Vertex AI through google-genai (`vertexai=True`)."""

    kind: Literal["vertex"]
    zone: Zone = "cloud"
    project: str = Field(description="Google Cloud project id")
    location: str = Field(default="europe-west3", description="Vertex AI region")
    base_url: str | None = Field(
        default=None,
        description=(
            "Vertex AI endpoint to call instead of https://{location}-aiplatform.googleapis.com: "
            "a Private Service Connect endpoint or a test endpoint such as `gateway emulate vertex`"
        ),
    )
    credentials_env: str = Field(
        default="GOOGLE_APPLICATION_CREDENTIALS",
        description=(
            "environment variable naming a service-account or authorized-user JSON file; "
            "when it is unset, Application Default Credentials"
        ),
    )
    access_token_env: str | None = Field(
        default=None,
        description=(
            "environment variable holding an OAuth2 access token to send as is (no "
            "service-account file); instead of credentials_env"
        ),
    )
    access_token_file: str | None = Field(
        default=None,
        description=(
            "file holding an OAuth2 access token, re-read every few minutes (a sidecar may "
            "rotate it); instead of credentials_env"
        ),
    )

    @model_validator(mode="after")
    def _one_token_source(self) -> VertexBackend:
        if self.access_token_env and self.access_token_file:
            raise ValueError("give access_token_env or access_token_file, not both")
        return self


class ReplicateBackend(BackendBase):
    """Replicate predictions; `model` is `owner/name` or `owner/name:version`."""

    kind: Literal["replicate"]
    zone: Zone = "cloud"
    api_token_env: str = Field(
        default="REPLICATE_API_TOKEN",
        description=("environment variable holding the Replicate API token"),
    )
    base_url: str | None = Field(
        default=None,
        description=(
            "API address to call instead of https://api.replicate.com: a proxy or a test endpoint "
            "such as `gateway emulate replicate`"
        ),
    )


class LiteLLMBackend(BackendBase):
    """Any other provider litellm supports; imported lazily only when a policy uses it."""

    kind: Literal["litellm"]
    zone: Zone = "cloud"
    api_base: str | None = Field(
        default=None,
        description=(
            "endpoint litellm calls instead of the provider's default; also what /readyz probes"
        ),
    )
    api_key_env: str | None = None
    params: dict[str, str | int | float | bool] = Field(default_factory=dict)


BackendSpec = (
    LocalBackend
    | OpenAICompatBackend
    | OllamaBackend
    | BedrockBackend
    | VertexBackend
    | ReplicateBackend
    | LiteLLMBackend
)
Backend = Annotated[BackendSpec, Field(discriminator="kind")]
# the one list of kinds: each spec model's `kind` literal, in the union's order
BACKEND_KINDS: tuple[str, ...] = tuple(
    get_args(spec.model_fields["kind"].annotation)[0] for spec in get_args(BackendSpec)
)


class Alias(Strict):
    backends: list[str] = Field(min_length=1)
    description: str | None = None


class SLO(Strict):
    """Latency objectives. A backend whose measured figures break them is skipped; a backend
    not measured yet counts as meeting them."""

    ttft_p95_ms: float | None = Field(default=None, gt=0)
    min_tokens_per_s: float | None = Field(default=None, gt=0)
    total_p95_ms: float | None = Field(default=None, gt=0)
    deadline_factor: float = Field(
        default=2.0,
        ge=1.0,
        description="an attempt is abandoned after factor x ttft_p95_ms without a first token",
    )


class CostCap(Strict):
    per_request_usd: Decimal | None = Field(default=None, ge=0)
    per_mtok_usd: Decimal | None = Field(default=None, ge=0)


class Retry(Strict):
    attempts: int = Field(
        default=0, ge=0, le=5, description="retries on the same backend before falling back"
    )
    backoff_ms: float = Field(default=100.0, ge=0)
    max_backoff_ms: float = Field(default=2000.0, ge=0)


class Match(Strict):
    """Every listed condition must hold; an empty match matches every request."""

    tenants: list[str] | None = None
    apps: list[str] | None = None
    aliases: list[str] | None = None
    data_classes: list[DataClassName] | None = None
    headers: dict[str, str] | None = Field(
        default=None, description="header name -> exact value (names are case-insensitive)"
    )


class Rule(Strict):
    name: str = Field(min_length=1)
    match: Match = Match()
    action: Literal["route", "block"] = "route"
    message: str | None = Field(default=None, description="shown to the client when blocking")
    allow_zones: list[Zone] | None = None
    allow_backends: list[str] | None = None
    deny_backends: list[str] | None = None
    objective: Objective | None = None
    weights: dict[str, float] | None = None
    slo: SLO | None = None
    cost_cap: CostCap | None = None
    redact: bool | None = Field(
        default=None, description="redact identifiers before a cloud call (default: defaults)"
    )
    retry: Retry | None = None
    priority: int = Field(
        default=0,
        ge=-1000,
        le=1000,
        description="among waiting requests of one tenant priority, higher goes first",
    )


class Tenant(Strict):
    """A sector preset (bank, health, public_sector) or `on_prem_only` keeps ALL traffic of
    the tenant on-prem, whatever the detected class."""

    preset: Preset | None = None
    on_prem_only: bool = False
    description: str | None = None
    priority: int = Field(
        default=0,
        ge=-1000,
        le=1000,
        description="requests waiting for an on-prem node: a higher tenant priority goes first",
    )

    @property
    def locked(self) -> bool:
        return self.on_prem_only or self.preset is not None


class Defaults(Strict):
    objective: Objective = "ordered"
    slo: SLO = SLO()
    redact: bool = True
    retry: Retry = Retry()
    default_output_tokens: int = Field(default=512, ge=1)


class ResponsesRetention(Strict):
    """`/v1/responses` kept in memory for `previous_response_id`: 0 keeps nothing (and the
    id is refused); only conversations whose data class is listed are kept (special-category
    data by default never: a continued conversation is sent whole instead)."""

    retention_s: float = Field(default=0, ge=0, le=86_400)
    retain_classes: tuple[DataClassName, ...] = ("public", "personal")


class Policy(Strict):
    version: Literal[1]
    backends: dict[str, Backend]
    aliases: dict[str, Alias] = Field(min_length=1)
    billing: Billing = Billing()
    rate_limits: RateLimits = RateLimits()
    tags: TagSpec = TagSpec()
    tenants: dict[str, Tenant] = Field(default_factory=dict)
    rules: list[Rule] = Field(default_factory=list)
    defaults: Defaults = Defaults()
    responses: ResponsesRetention = ResponsesRetention()
    sensitivity: SensitivityConfig = SensitivityConfig()

    @cached_property
    def plan(self) -> Plan:
        """What depends only on this policy, worked out on first use and kept as long as the
        policy lives: a policy is immutable, so its plan never goes stale."""
        from gateway.policy.plan import Plan

        return Plan(self)

    def model_copy(self, *, update: Any = None, deep: bool = False) -> Policy:
        # a copy with other values is another policy: it must not carry this one's plan
        copied = super().model_copy(update=update, deep=deep)
        copied.__dict__.pop("plan", None)
        return copied
