"""Responses kept for `previous_response_id`: in memory for the retention, bounded in count and
bytes (oldest first), scoped by tenant, and only for the data classes the policy retains."""

from __future__ import annotations

import pytest

from gateway.core.errors import InvalidRequest
from gateway.openai_api.response_memory import ResponseMemory
from gateway.openai_api.response_store import ResponseStore
from gateway.openai_api.responses_wire import ResponsesRequest
from gateway.policy.schema import ResponsesRetention


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        return self.t

    def monotonic(self) -> float:
        return self.t


ITEM = [{"type": "message", "role": "user", "content": "merhaba"}]


def test_kept_until_the_retention_ends() -> None:
    clock = Clock()
    store = ResponseStore(clock, max_items=10, max_bytes=10_000)
    assert store.keep("r1", ITEM, 30)
    clock.t += 29.9
    assert store.get("r1") == ITEM
    clock.t += 0.1
    assert store.get("r1") is None and len(store) == 0


def test_bounded_in_count_and_bytes_oldest_first() -> None:
    store = ResponseStore(Clock(), max_items=2, max_bytes=10_000)
    for rid in ("a", "b", "c"):
        store.keep(rid, ITEM, 60)
    assert [store.get(r) is not None for r in ("a", "b", "c")] == [False, True, True]
    size = len(b'[{"type":"message","role":"user","content":"merhaba"}]')
    store = ResponseStore(Clock(), max_items=10, max_bytes=2 * size)
    for rid in ("a", "b", "c"):
        store.keep(rid, ITEM, 60)
    assert [store.get(r) is not None for r in ("a", "b", "c")] == [False, True, True]
    assert not store.keep("big", [{"content": "x" * 3 * size}], 60)  # alone over the bound
    assert store.get("big") is None


def test_special_data_is_not_kept_by_default() -> None:
    memory = ResponseMemory(
        ResponseStore(Clock(), 10, 10_000), ResponsesRetention(retention_s=60), "acme"
    )
    req = ResponsesRequest(model="m", input="x")
    assert memory.will_keep(req, "public") and memory.will_keep(req, "personal")
    assert not memory.will_keep(req, "special")
    assert not memory.will_keep(ResponsesRequest(model="m", input="x", store=False), "public")
    off = ResponseMemory(ResponseStore(Clock(), 10, 10_000), ResponsesRetention(), "acme")
    assert not off.will_keep(req, "public")  # the default keeps nothing


def test_an_id_is_recalled_only_by_its_tenant() -> None:
    store = ResponseStore(Clock(), 10, 10_000)
    retention = ResponsesRetention(retention_s=60)
    said = ResponsesRequest(model="m", input="merhaba")
    ResponseMemory(store, retention, "acme").keep("resp_1", said, None, [])
    asks = ResponsesRequest(model="m", input="y", previous_response_id="resp_1")
    assert ResponseMemory(store, retention, "acme").recall(asks) == ITEM
    with pytest.raises(InvalidRequest) as err:
        ResponseMemory(store, retention, "other").recall(asks)
    assert err.value.param == "previous_response_id"
