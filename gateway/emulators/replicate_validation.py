"""Request validation for the Replicate emulator: the create-prediction body against the fields
Replicate's HTTP API reference documents (`predictions.create`, `models.predictions.create`)
and `input` against the emulated model's input schema: the one Replicate publishes for
meta/meta-llama-3-8b-instruct (names, types, ranges). Findings come the way Replicate answers
them: 422 "Input validation failed", the field named, never its value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

WEBHOOK_EVENTS = ("start", "output", "logs", "completed")
# body members of a create call; `version` only where the path names no model
BODY_FIELDS = ("input", "stream", "webhook", "webhook_events_filter")


@dataclass(frozen=True, slots=True)
class Field:
    kind: type | tuple[type, ...]
    low: float | None = None
    high: float | None = None


# meta/meta-llama-3-8b-instruct's published input schema
INPUT_SCHEMA: Mapping[str, Field] = {
    "prompt": Field(str),
    "system_prompt": Field(str),
    "prompt_template": Field(str),
    "max_tokens": Field(int, 1),
    "min_tokens": Field(int, -1),
    "max_new_tokens": Field(int, 1),
    "min_new_tokens": Field(int, -1),
    "temperature": Field((int, float), 0, 5),
    "top_p": Field((int, float), 0, 1),
    "top_k": Field(int, -1),
    "length_penalty": Field((int, float), 0, 5),
    "presence_penalty": Field((int, float)),
    "frequency_penalty": Field((int, float)),
    "stop_sequences": Field(str),
    "seed": Field(int),
    "log_performance_metrics": Field(bool),
}


def _input_findings(inp: Any) -> list[str]:
    if not isinstance(inp, dict):
        return ["input: Invalid type. Expected: object"]
    out = [
        f"input: Additional property {name} is not allowed"
        for name in inp
        if name not in INPUT_SCHEMA
    ]
    for name, spec in INPUT_SCHEMA.items():
        value = inp.get(name)
        if value is None:
            continue
        if (isinstance(value, bool) and spec.kind is not bool) or not isinstance(value, spec.kind):
            out.append(f"input.{name}: Invalid type")
            continue
        number = cast(float, value)  # int or float here: the type check passed
        if spec.low is not None and number < spec.low:
            out.append(f"input.{name}: Must be greater than or equal to {spec.low}")
        if spec.high is not None and number > spec.high:
            out.append(f"input.{name}: Must be less than or equal to {spec.high}")
    return out


def create_findings(body: Mapping[str, Any], by_version: bool) -> list[str]:
    """What Replicate's API reference and the model's schema find wrong with a create body."""
    allowed = (*BODY_FIELDS, "version") if by_version else BODY_FIELDS
    out = [
        f"{name}: Additional property {name} is not allowed" for name in body if name not in allowed
    ]
    if by_version and not isinstance(body.get("version"), str):
        out.append("version: version is required")
    if "input" not in body:
        return [*out, "input: input is required"]
    if body.get("stream") is not None and not isinstance(body["stream"], bool):
        out.append("stream: Invalid type. Expected: boolean")
    if body.get("webhook") is not None and not isinstance(body["webhook"], str):
        out.append("webhook: Invalid type. Expected: string")
    events = body.get("webhook_events_filter")
    if events is not None and (
        not isinstance(events, list) or any(e not in WEBHOOK_EVENTS for e in events)
    ):
        out.append(f"webhook_events_filter: must be a list of {', '.join(WEBHOOK_EVENTS)}")
    return out + _input_findings(body["input"])


def prefer_findings(prefer: str) -> list[str]:
    """`Prefer: wait` or `Prefer: wait=N` with N from 1 to 60, or no header."""
    if not prefer:
        return []
    name, _, seconds = prefer.strip().partition("=")
    if name != "wait":
        return ["Prefer: only wait or wait=N is supported"]
    if seconds and not (seconds.isdigit() and 1 <= int(seconds) <= 60):
        return ["Prefer: wait must be between 1 and 60 seconds"]
    return []
