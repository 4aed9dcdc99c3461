"""The audit chain's hashed form: which fields an entry's hash covers and how they are spelled
(canonical JSON), so that any replica, any database and `gateway audit verify` compute the same
hash for the same entry."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import orjson

HASHED_FIELDS: tuple[str, ...] = (
    "seq",
    "at",
    "kind",
    "request_id",
    "policy_hash",
    "data_class",
    "entities",
    "rule",
    "destination",
    "transfer_basis",
    "redaction",
    "detail",
)


def utc_iso(ts: datetime) -> str:
    """One spelling of a timestamp whatever the database hands back (naive = UTC):
    YYYY-MM-DDTHH:MM:SS.ffffffZ (what strftime("%Y-%m-%dT%H:%M:%S.%fZ") gives, 4x cheaper;
    then an f-string of the fields, now isoformat: tests/unit/usage/test_ledger_hotpath)."""
    if ts.tzinfo is not None and ts.tzinfo is not UTC and ts.utcoffset():
        ts = ts.astimezone(UTC)
    # isoformat's first 26 characters are those fields, the year always 4 digits
    return ts.isoformat(timespec="microseconds")[:26] + "Z"


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_float(v) for v in value)
    return False


def canonical_bytes(fields: Mapping[str, Any]) -> bytes:
    """The hashed form: JSON with sorted keys, no spaces, UTF-8 (non-ASCII kept). orjson
    writes exactly what json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    writes for strings, ints, bools, None and str-keyed dicts (tests/unit/usage/
    test_ledger_batch checks); floats are spelled differently, so a body with a float (none
    is written today) and anything orjson refuses take json.dumps."""
    body = {k: (utc_iso(fields[k]) if k == "at" else fields[k]) for k in HASHED_FIELDS}
    return dumps_canonical(body, _has_float(body["detail"]) or _has_float(body["entities"]))


def dumps_canonical(body: dict[str, Any], floats: bool) -> bytes:
    """canonical_bytes of a body already holding exactly HASHED_FIELDS (`at` spelled);
    `floats`: whether its detail or entities hold a float."""
    if not floats:
        try:
            return orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson.JSONEncodeError: big ints, non-str keys, lone surrogates
            pass
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def canonical(fields: Mapping[str, Any]) -> str:
    return canonical_bytes(fields).decode("utf-8")


def chain_hash(fields: Mapping[str, Any], prev_hash: str) -> str:
    return hashlib.sha256(canonical_bytes(fields) + prev_hash.encode("utf-8")).hexdigest()
