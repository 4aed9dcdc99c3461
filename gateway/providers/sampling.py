"""The OpenAI sampling fields (token limit, temperature, top_p, stop, seed) under a vendor's
own names: one mapping for every adapter whose body carries them as flat keys."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.core.types import ChatRequest


@dataclass(frozen=True)
class SamplingNames:
    """A vendor's key for each sampling field; `seed` None where the vendor takes no seed."""

    token_limit: str
    temperature: str = "temperature"
    top_p: str = "top_p"
    stop: str = "stop"
    seed: str | None = "seed"


def sampling_fields(request: ChatRequest, names: SamplingNames) -> dict[str, Any]:
    """The fields the request sets, under `names`; a field the request leaves out stays out,
    so the vendor's own default applies."""
    fields: dict[str, Any] = {}
    if request.token_limit is not None:
        fields[names.token_limit] = request.token_limit
    if request.temperature is not None:
        fields[names.temperature] = request.temperature
    if request.top_p is not None:
        fields[names.top_p] = request.top_p
    if request.stop_list:
        fields[names.stop] = request.stop_list
    if names.seed is not None and request.seed is not None:
        fields[names.seed] = request.seed
    return fields
