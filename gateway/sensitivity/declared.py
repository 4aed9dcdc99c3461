"""The class a client declares, and how it combines with the detected one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

from gateway.core.types import DATA_CLASS_ORDER, DataClass

HEADER: Final = "x-data-class"
METADATA_KEY: Final = "data_class"


def effective_class(declared: DataClass | None, detected: DataClass) -> DataClass:
    """The stricter of the declared and the detected class."""
    if declared is None:
        return detected
    return declared if DATA_CLASS_ORDER[declared] > DATA_CLASS_ORDER[detected] else detected


def _parse(value: Any, source: str) -> DataClass:
    if isinstance(value, str):
        v = value.strip().lower()
        if v in DATA_CLASS_ORDER:
            return cast(DataClass, v)
    allowed = ", ".join(DATA_CLASS_ORDER)
    raise ValueError(f"invalid data class in {source}: {value!r}; expected one of {allowed}")


def declared_class_from(
    headers: Mapping[str, str], metadata: dict[str, Any] | None
) -> DataClass | None:
    """The class declared by the `x-data-class` header or `metadata.data_class` (the stricter
    when both are present). Raises ValueError for a value that is not a known class."""
    found: list[DataClass] = []
    for key, value in headers.items():
        if key.lower() == HEADER:
            found.append(_parse(value, f"header {HEADER}"))
    if metadata and METADATA_KEY in metadata and metadata[METADATA_KEY] is not None:
        found.append(_parse(metadata[METADATA_KEY], f"metadata.{METADATA_KEY}"))
    if not found:
        return None
    return max(found, key=lambda c: DATA_CLASS_ORDER[c])
