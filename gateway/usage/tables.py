"""Ledger tables. No prompt or completion text is ever stored here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel


class RequestRow(SQLModel, table=True):
    __tablename__ = "requests"

    id: str = Field(primary_key=True, max_length=64)
    created_at: datetime = Field(index=True)
    tenant: str = Field(default="default", index=True, max_length=128)
    app: str = Field(default="default", max_length=128)
    key_id: str | None = Field(default=None, max_length=64)
    alias: str = Field(max_length=128)
    backend: str | None = Field(default=None, max_length=128)
    model: str | None = Field(default=None, max_length=256)
    data_class: str | None = Field(default=None, max_length=16)
    rule: str | None = Field(default=None, max_length=128)
    status: int
    error_kind: str | None = Field(default=None, max_length=64)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    estimated: bool = False
    streamed: bool = False
    latency_ms: float = 0.0
    ttft_ms: float | None = None
    attempts: int = 0
    trace: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))


class AttemptRow(SQLModel, table=True):
    __tablename__ = "attempts"

    request_id: str = Field(primary_key=True, max_length=64)
    ordinal: int = Field(primary_key=True)
    backend: str = Field(max_length=128)
    outcome: str = Field(max_length=32)
    failure_kind: str | None = Field(default=None, max_length=64)
    status: int | None = None
    latency_ms: float = 0.0
