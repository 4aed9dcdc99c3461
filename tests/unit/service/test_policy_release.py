"""Hot reloads release what they replace: retired providers are closed and collected once
their grace has passed, and the reloader keeps a bounded history without the documents."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from gateway.policy.loader import load_text
from gateway.policy.reload import PolicyReloader
from gateway.providers.registry import BuildContext
from gateway.service.pool import ProviderPool

POLICY = """version: 1
backends:
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9/v1", model: MODEL}
aliases:
  chat: {backends: [gpu]}
"""


async def test_a_replaced_provider_is_closed_and_collected_after_its_grace() -> None:
    pool = ProviderPool(BuildContext(env={}), retire_after_s=0.05)
    pool.sync(load_text(POLICY.replace("MODEL", "m0")))
    closed: list[str] = []

    def watch(provider: Any) -> weakref.ref[Any]:
        real_close, name = provider.aclose, provider.name

        async def close() -> None:
            closed.append(name)
            await real_close()

        provider.aclose = close
        return weakref.ref(provider)

    ref = watch(pool.providers["gpu"])
    for i in range(1, 4):  # several swaps: none of the old providers may stay
        pool.sync(load_text(POLICY.replace("MODEL", f"m{i}")))
    assert ref() is not None  # still serving streams that started on it, for the grace
    await asyncio.sleep(0.2)
    gc.collect()
    assert closed == ["gpu"]
    assert ref() is None
    assert pool._retired == []
    await pool.aclose()


def test_the_reloader_keeps_a_bounded_history_without_documents() -> None:
    reloader = PolicyReloader(load_text(POLICY.replace("MODEL", "m0")), lambda: 0.0, history=50)
    seen: list[str] = []
    reloader.add_sink(lambda change: seen.append(change.text))
    for i in range(1, 121):
        reloader.apply_text(POLICY.replace("MODEL", f"m{i}") + "#" * 2000, "admin:t")
    assert len(reloader.changes) == 50
    assert all(c.text == "" for c in reloader.changes)
    assert len(seen) == 120 and all(len(t) > 2000 for t in seen)  # the sinks got the text
