"""The JSON spelling of the ledger writer's JSON columns (requests.trace, audit_log.entities
and detail of decisions).

The writer's bulk inserts (bulk.insert_rows(compact_json=True)) spell JSON with `dumps`
instead of stdlib json.dumps, which cost ~6 µs per trace and ran three times per ledger entry
on the hot path; other writes (policy changes, Core inserts) keep json.dumps. orjson writes ~10x
faster; its text differs from json.dumps only in spacing and in writing non-ASCII characters
as UTF-8 instead of \\u escapes, never in the value read back. That is checked, not assumed:
the orjson text is parsed back and compared with the input (~2 µs on a trace, still less than
half of json.dumps), and anything that would not read back equal takes json.dumps exactly as
before: NaN/Infinity (orjson writes null), tuples, non-str keys, ints beyond 64 bits, lone
surrogates; types json.dumps refuses (dataclasses, datetimes; subclasses of str, int, dict,
list) go to `default`, which refuses them, so they too take json.dumps (which raises as it
always did, or writes a subclass as before).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _refuse(value: Any) -> Any:
    raise TypeError(type(value).__name__)


def dumps(value: Any) -> str:
    """JSON text of `value` that reads back (json.loads) equal to what json.dumps wrote."""
    try:
        out = orjson.dumps(value, default=_refuse, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value)
    if orjson.loads(out) != value:
        return json.dumps(value)
    return out.decode("utf-8")
