"""The fan-out behind chat `n`: merged outcomes number every attempt once (an attempt is a
ledger row keyed by its ordinal) and sum the on-prem cost shares; the merged stream tags each
chunk with its choice and ends at the first failure; a fan-out whose streams do not all open
closes the ones that did."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import pytest

from gateway.core.clock import SystemClock
from gateway.core.errors import FailureKind, ProviderError
from gateway.core.types import ChatChunk
from gateway.service.choices import interleave, merged, open_all
from gateway.service.dispatcher import Dispatcher, Outcome
from gateway.usage.records import AttemptRecord


class Costs:
    """The on-prem cost shares as the dispatcher's cost seam hands them out, by outcome."""

    def __init__(self, shares: dict[int, Decimal]) -> None:
        self.shares = shares

    def started(self, backend: str, key: object, now: float) -> None:
        return None

    def finished(self, key: int, now: float) -> Decimal | None:
        return self.shares.pop(key, None)


def test_merged_numbers_attempts_once_and_sums_cost_shares() -> None:
    parts = [Outcome(backend="a"), Outcome(backend="b")]
    for p in parts:
        p.attempts.append(AttemptRecord(ordinal=1, backend=p.backend or "", outcome="ok"))
    parts[1].attempts.append(AttemptRecord(ordinal=2, backend="b", outcome="ok"))
    out = merged(parts)
    assert [a.ordinal for a in out.attempts] == [1, 2, 3] and out.backend == "a"
    costs = Costs({id(parts[0]): Decimal("0.25"), id(parts[1]): Decimal("0.5")})
    Dispatcher({}, SystemClock(), costs=costs).settle_cost(out)
    assert out.onprem_cost_usd == Decimal("0.75")


async def _chunks(*texts: str, fail: bool = False) -> AsyncIterator[ChatChunk]:
    for t in texts:
        await asyncio.sleep(0)
        yield ChatChunk(text=t)
    if fail:
        raise ProviderError(FailureKind.TRANSIENT, "cut")


async def _collect(stream: AsyncIterator[ChatChunk]) -> dict[int, str]:
    out: dict[int, str] = {}
    async for c in stream:
        out[c.choice] = out.get(c.choice, "") + c.text
    return out


def test_interleave_tags_each_chunk_with_its_choice() -> None:
    got = asyncio.run(_collect(interleave([_chunks("a", "b"), _chunks("c"), _chunks("d", "e")])))
    assert got == {0: "ab", 1: "c", 2: "de"}


def test_interleave_ends_at_the_first_failure() -> None:
    with pytest.raises(ProviderError):
        asyncio.run(_collect(interleave([_chunks("a", "b", "c"), _chunks(fail=True)])))


def test_a_fan_out_that_does_not_all_open_closes_what_opened() -> None:
    closed: list[int] = []

    class Rest:
        def __init__(self, i: int) -> None:
            self.i = i

        def __aiter__(self) -> Rest:
            return self

        async def __anext__(self) -> ChatChunk:
            raise StopAsyncIteration

        async def aclose(self) -> None:
            closed.append(self.i)

    class Opens:
        calls = 0

        async def open_stream(
            self, decision: Any, pick: Any, outcome: Outcome
        ) -> tuple[ChatChunk, Rest]:
            i = Opens.calls
            Opens.calls += 1
            if i == 1:
                raise ProviderError(FailureKind.TRANSIENT, "down")
            return ChatChunk(text="x"), Rest(i)

    outcome = Outcome()
    with pytest.raises(ProviderError):
        asyncio.run(
            open_all(
                Opens(),
                None,
                lambda b: None,
                outcome,
                3,  # type: ignore[arg-type]
                lambda f, r, o: r,
            )
        )
    assert sorted(closed) == [0, 2] and len(outcome.parts) == 3
