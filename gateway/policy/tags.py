"""Cost-attribution tags (`tags:` in the policy): which request metadata keys become tags,
and the `x-gecit-tags` header (`project=atlas,feature=search`), both read under bounds.

Only the keys the policy names are kept, so the number of tag keys (and the reports' columns)
is the admin's choice, never a client's. A malformed header or a named metadata value out of
bounds is the client's error (400 naming it); metadata keys the policy does not name are not
tags and are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, Final

from pydantic import BaseModel, ConfigDict, Field

HEADER: Final = "x-gecit-tags"
KEY_PATTERN: Final = r"^[a-z][a-z0-9_]{0,31}$"
MAX_HEADER_CHARS: Final = 1024
_VALUE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/@+-]*")
_KEY = re.compile(KEY_PATTERN)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TagSpec(_Strict):
    keys: list[Annotated[str, Field(pattern=KEY_PATTERN)]] = Field(
        default_factory=list,
        max_length=16,
        description="request metadata keys (and x-gecit-tags names) kept as tags, e.g. project",
    )
    max_per_request: int = Field(default=8, ge=1, le=8)
    max_value_chars: int = Field(default=64, ge=1, le=64)


class TagError(ValueError):
    """A tag the client sent that breaks the bounds; the message names where it came from."""

    def __init__(self, message: str, param: str) -> None:
        super().__init__(message)
        self.param = param


def tags_of(
    spec: TagSpec, headers: Mapping[str, str], metadata: Mapping[str, Any] | None
) -> dict[str, str]:
    """The request's tags: the header's, then the metadata's (metadata wins on a clash)."""
    if not spec.keys:
        return {}
    named = set(spec.keys)
    out: dict[str, str] = {}
    raw = headers.get(HEADER)
    if raw is not None:
        out.update(_header_tags(spec, named, raw))
    for key in spec.keys:
        value = (metadata or {}).get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not _fits(spec, value):
            raise TagError(
                f"metadata.{key} must be 1-{spec.max_value_chars} characters of "
                "letters, digits and _ . : / @ + -",
                f"metadata.{key}",
            )
        out[key] = value
    if len(out) > spec.max_per_request:
        raise TagError(f"at most {spec.max_per_request} tags per request", HEADER)
    return out


def _header_tags(spec: TagSpec, named: set[str], raw: str) -> dict[str, str]:
    if len(raw) > MAX_HEADER_CHARS:
        raise TagError(f"{HEADER} is longer than {MAX_HEADER_CHARS} characters", HEADER)
    out: dict[str, str] = {}
    for part in raw.split(","):
        key, sep, value = part.strip().partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not _KEY.match(key) or not _fits(spec, value):
            raise TagError(
                f"{HEADER} must be key=value pairs separated by commas (keys: lowercase "
                f"letters, digits, _; values: 1-{spec.max_value_chars} characters of letters, "
                "digits and _ . : / @ + -)",
                HEADER,
            )
        if key in named:
            out[key] = value
        if len(out) > spec.max_per_request:
            break
    return out


def _fits(spec: TagSpec, value: str) -> bool:
    return 0 < len(value) <= spec.max_value_chars and _VALUE.fullmatch(value) is not None


def format_tags(tags: Mapping[str, str]) -> str | None:
    """The ledger's spelling of a request's tags: `feature=search,project=atlas` (sorted)."""
    return ",".join(f"{k}={v}" for k, v in sorted(tags.items())) or None
