"""The backends' figures a what-if replay decides with (usage/simulate.py): per backend, the
p95 TTFT and total latency and the median tokens/s the engine reads as live input, and the
medians a request moved to another backend is predicted with."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gateway.policy.inputs import BackendLive


@dataclass(frozen=True, slots=True)
class Measured:
    """The backends' figures over the replayed rows: the engine's live input, and the
    medians a request moved to another backend is predicted with."""

    live: Mapping[str, BackendLive]
    ttft_ms: Mapping[str, float]
    latency_ms: Mapping[str, float]
    tokens_per_s: Mapping[str, float]


def measure(rows: Iterable[Sequence[Any]]) -> Measured:
    ttft: dict[str, list[float]] = {}
    total: dict[str, list[float]] = {}
    tps: dict[str, list[float]] = {}
    for backend, t, latency, speed in rows:
        total.setdefault(backend, []).append(latency)
        if t is not None:
            ttft.setdefault(backend, []).append(t)
        if speed:
            tps.setdefault(backend, []).append(speed)
    for lists in (ttft, total, tps):  # sorted once: each figure below re-sorts in linear time
        for values in lists.values():
            values.sort()
    live = {
        b: BackendLive(
            ttft_p95_ms=_p95(ttft.get(b)),
            total_p95_ms=_p95(lats),
            tokens_per_s=_median(tps.get(b)),
            samples=len(lats),
        )
        for b, lats in total.items()
    }
    return Measured(
        live,
        {b: m for b, v in ttft.items() if (m := _median(v)) is not None},
        {b: m for b, v in total.items() if (m := _median(v)) is not None},
        {b: m for b, v in tps.items() if (m := _median(v)) is not None},
    )


def _p95(values: list[float] | None) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[int(0.95 * (len(ordered) - 1))]


def _median(values: list[float] | None) -> float | None:
    return statistics.median(values) if values else None
