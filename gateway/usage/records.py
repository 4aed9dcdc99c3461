"""The finished-request record handed from the request path to the recorder."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any


@dataclass(slots=True)
class AttemptRecord:
    ordinal: int
    backend: str
    outcome: str  # ok | failed | skipped
    failure_kind: str | None = None
    status: int | None = None
    latency_ms: float = 0.0


@dataclass(slots=True)
class UsageRecord:
    request_id: str
    created_at: float
    alias: str
    status: int
    tenant: str = "default"
    app: str = "default"
    key_id: str | None = None
    backend: str | None = None
    model: str | None = None
    data_class: str | None = None
    sensitivity_band: str | None = None  # confident / uncertain
    rule: str | None = None
    error_kind: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    estimated: bool = False
    streamed: bool = False
    latency_ms: float = 0.0
    ttft_ms: float | None = None
    attempts: list[AttemptRecord] = field(default_factory=list)
    trace: dict[str, Any] | None = None
    # the request's share of on-prem nodes' hourly cost, when the backend is billed by the hour
    onprem_cost_usd: Decimal | None = None
    tags: str | None = None  # `key=value,...` sorted (usage/tag_rollups.format_tags)
    node: str | None = None  # the node of a pooled backend that served it (fleet/choice.py)
