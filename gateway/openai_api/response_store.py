"""Responses kept for `previous_response_id`: each conversation (its input items and the answer's
output items) in memory only, by response id, for the policy's retention, bounded in count and
bytes (the oldest go first). Never in the ledger, never on disk: a restart forgets them all."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson

from gateway.core.clock import Clock

Items = list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class _Kept:
    items: bytes  # the conversation's items as JSON: their size is what the bound counts
    expires_at: float


class ResponseStore:
    def __init__(self, clock: Clock, max_items: int, max_bytes: int) -> None:
        self._clock = clock
        self._max_items = max_items
        self._max_bytes = max_bytes
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._kept)

    def keep(self, response_id: str, items: Items, retention_s: float) -> bool:
        """Keep `items` under `response_id` for `retention_s`; False when they alone pass the
        byte bound (then nothing is kept)."""
        data = orjson.dumps(items)
        if len(data) > self._max_bytes:
            return False
        self._drop_expired()
        self._kept[response_id] = _Kept(data, self._clock.monotonic() + retention_s)
        self._bytes += len(data)
        while len(self._kept) > self._max_items or self._bytes > self._max_bytes:
            self._pop_oldest()
        return True

    def get(self, response_id: str) -> Items | None:
        """The kept conversation, or None when unknown or expired."""
        kept = self._kept.get(response_id)
        if kept is None:
            return None
        if kept.expires_at <= self._clock.monotonic():
            self._bytes -= len(self._kept.pop(response_id).items)
            return None
        items: Items = orjson.loads(kept.items)
        return items

    def _drop_expired(self) -> None:
        now = self._clock.monotonic()
        # the same retention for every entry kept at once: the oldest expire first
        while self._kept and next(iter(self._kept.values())).expires_at <= now:
            self._pop_oldest()

    def _pop_oldest(self) -> None:
        _, kept = self._kept.popitem(last=False)
        self._bytes -= len(kept.items)
