"""A chat request's `n` choices as `n` calls fanned out to the routed backends: each call goes
through the dispatcher with the one decision (so the classification, the data boundary and the
budget reservation made for the request hold for every choice) and asks for one choice; the
answers are merged back into one request (one outcome, one usage, one ledger row)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TypeVar

from gateway.core.types import ChatChunk, ChatRequest, ChatResult, Usage
from gateway.service.decision import RouteDecision
from gateway.service.dispatcher import Dispatcher, Outcome, RequestFor

T = TypeVar("T")


def one_choice(request_for: RequestFor) -> RequestFor:
    """The request each fanned-out call sends: the same, asking a backend for one choice."""

    def pick(backend: str) -> ChatRequest:
        return request_for(backend).model_copy(update={"n": None})

    return pick


async def all_or_none(calls: Sequence[Awaitable[T]]) -> list[T]:
    """Every call's result in order; the first failure cancels the others and is raised."""
    tasks = [asyncio.ensure_future(c) for c in calls]
    try:
        return list(await asyncio.gather(*tasks))
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def merged(outcomes: Sequence[Outcome]) -> Outcome:
    """One outcome for the request: every choice's attempts, the first choice's backend (the
    one named in the response headers and the ledger row); the choices' on-prem cost shares
    are summed when the dispatcher settles it (a stream's share is known only at its end)."""
    out = Outcome(backend=outcomes[0].backend, parts=list(outcomes))
    for o in outcomes:
        # numbered on across the choices: an attempt is one ledger row keyed by its ordinal
        base = len(out.attempts)
        out.attempts.extend(
            [dataclasses.replace(a, ordinal=base + k) for k, a in enumerate(o.attempts, 1)]
        )
        out.unsupported.extend(o.unsupported)
        if o.first_chunk_at is not None and (
            out.first_chunk_at is None or o.first_chunk_at < out.first_chunk_at
        ):
            out.first_chunk_at = o.first_chunk_at
    return out


def summed(usages: Sequence[Usage]) -> Usage:
    """What all choices cost: each fanned-out call was billed its own prompt and output."""
    return Usage(
        prompt_tokens=sum(u.prompt_tokens for u in usages),
        completion_tokens=sum(u.completion_tokens for u in usages),
        cached_tokens=sum(u.cached_tokens for u in usages),
        estimated=any(u.estimated for u in usages),
    )


async def complete_all(
    dispatcher: Dispatcher,
    decision: RouteDecision,
    request_for: RequestFor,
    outcome: Outcome,
    count: int,
) -> list[ChatResult]:
    """`count` answers; `outcome` becomes their merged outcome (also when one fails)."""
    parts = [Outcome() for _ in range(count)]
    pick = one_choice(request_for)
    try:
        return await all_or_none([dispatcher.complete(decision, pick, o) for o in parts])
    finally:
        _fill(outcome, merged(parts))


# (first chunk, the rest, that choice's outcome) -> the choice's chunks
Wrap = Callable[[ChatChunk, AsyncIterator[ChatChunk], Outcome], AsyncIterator[ChatChunk]]


async def open_all(
    dispatcher: Dispatcher,
    decision: RouteDecision,
    request_for: RequestFor,
    outcome: Outcome,
    count: int,
    wrap: Wrap,
) -> AsyncIterator[ChatChunk]:
    """`count` streams opened at once, merged into one whose chunks carry their choice index;
    `wrap` turns each opened stream into its chunks (restoring redacted values); `outcome`
    becomes their merged outcome (also when one fails to open)."""
    parts = [Outcome() for _ in range(count)]
    pick = one_choice(request_for)
    try:
        tries = await asyncio.gather(
            *(dispatcher.open_stream(decision, pick, o) for o in parts), return_exceptions=True
        )
    finally:
        _fill(outcome, merged(parts))
    failed = next((t for t in tries if isinstance(t, BaseException)), None)
    opened = [t for t in tries if not isinstance(t, BaseException)]
    if failed is not None:  # all or none: the streams that did open are closed, not leaked
        for _, rest in opened:
            aclose = getattr(rest, "aclose", None)
            if aclose is not None:
                await aclose()
        raise failed
    return interleave(
        [wrap(first, rest, o) for (first, rest), o in zip(opened, parts, strict=True)]
    )


def _fill(target: Outcome, source: Outcome) -> None:
    for f in dataclasses.fields(Outcome):
        setattr(target, f.name, getattr(source, f.name))


async def interleave(streams: Sequence[AsyncIterator[ChatChunk]]) -> AsyncIterator[ChatChunk]:
    """The chunks of all streams as they come, each tagged with its stream's index; the
    first failure ends the merged stream (and the others)."""
    queue: asyncio.Queue[tuple[int, ChatChunk | None, BaseException | None]] = asyncio.Queue()

    async def pump(index: int, stream: AsyncIterator[ChatChunk]) -> None:
        try:
            async for chunk in stream:
                await queue.put((index, chunk, None))
        except Exception as exc:
            await queue.put((index, None, exc))
            return
        await queue.put((index, None, None))

    tasks = [asyncio.ensure_future(pump(i, s)) for i, s in enumerate(streams)]
    live = len(tasks)
    try:
        while live:
            index, chunk, exc = await queue.get()
            if exc is not None:
                raise exc
            if chunk is None:
                live -= 1
                continue
            yield dataclasses.replace(chunk, choice=index)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
