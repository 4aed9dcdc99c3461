"""Fit a ledger entry to the columns it will be written to, before it is journaled or queued.

Several values come from outside (the `model` a client sent, a backend's reported model name,
error kinds) and PostgreSQL refuses a string longer than its VARCHAR, an INTEGER beyond 32
bits or a NUL character. A refused row used to stop the writer for good, so every string is
cut to its column's length (and loses NUL characters), every integer is clamped to the
column's range and a float that is not finite becomes NULL. SQLite enforces none of these,
so both databases store the same values.
"""

from __future__ import annotations

import math
from operator import itemgetter
from typing import Any

from sqlalchemy import Integer

from gateway.usage.tables import AttemptRow, RequestRow

_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


def _columns(table: Any) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    strings = tuple(
        (c.name, c.type.length)
        for c in table.columns  # String, AutoString
        if isinstance(getattr(c.type, "length", None), int)
    )
    ints = tuple(c.name for c in table.columns if isinstance(c.type, Integer) and not c.primary_key)
    return strings, ints


_REQUEST_STRINGS, _REQUEST_INTS = _columns(RequestRow.__table__)  # type: ignore[attr-defined]
_ATTEMPT_STRINGS, _ATTEMPT_INTS = _columns(AttemptRow.__table__)  # type: ignore[attr-defined]
_REQUEST_INTS = tuple(k for k in _REQUEST_INTS if k != "attempts")  # a list in the entry
_REQUEST_FLOATS = ("latency_ms", "ttft_ms", "tokens_per_s")
# the common case (nothing to fit) is checked with C-level getters: this runs per request
_STRING_VALUES = itemgetter(*(k for k, _ in _REQUEST_STRINGS))
_STRING_LIMITS = tuple(n for _, n in _REQUEST_STRINGS)
_INT_VALUES = itemgetter(*_REQUEST_INTS)
_FLOAT_VALUES = itemgetter(*_REQUEST_FLOATS)


def fit_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """`entry` itself, its values fitted in place (cheap when nothing needs fitting)."""
    try:
        clean = _clean(entry)
    except KeyError:  # an entry of another shape (an old journal): take the long way
        clean = False
    if not clean:
        _fit(entry, _REQUEST_STRINGS, _REQUEST_INTS)
        for k in _REQUEST_FLOATS:
            v = entry.get(k)
            if type(v) is float and not math.isfinite(v):
                entry[k] = None if k != "latency_ms" else 0.0
    for a in entry.get("attempts") or ():
        _fit(a, _ATTEMPT_STRINGS, _ATTEMPT_INTS)
        lat = a.get("latency_ms")
        if type(lat) is float and not math.isfinite(lat):
            a["latency_ms"] = 0.0
    return entry


def _clean(entry: dict[str, Any]) -> bool:
    for v, n in zip(_STRING_VALUES(entry), _STRING_LIMITS, strict=True):
        if v.__class__ is str and (len(v) > n or "\x00" in v):
            return False
    for i in _INT_VALUES(entry):
        if i.__class__ is not int or not _INT_MIN <= i <= _INT_MAX:
            return False
    for f in _FLOAT_VALUES(entry):
        if f is not None and not math.isfinite(f):
            return False
    return True


def _fit(row: dict[str, Any], strings: tuple[tuple[str, int], ...], ints: tuple[str, ...]) -> None:
    for k, n in strings:
        v = row.get(k)
        if type(v) is str and (len(v) > n or "\x00" in v):
            row[k] = v.replace("\x00", "")[:n]
    for k in ints:
        v = row.get(k)
        if type(v) is int and not _INT_MIN <= v <= _INT_MAX:
            row[k] = _INT_MAX if v > 0 else _INT_MIN
