"""Putting redacted values back: placeholders in an answer, its tool calls and a stream (where a
placeholder may arrive split across chunks) become the original values again."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Protocol

from gateway.core.types import ChatChunk, ChatResult, ToolCallDelta


class Restorer(Protocol):
    def restore(self, text: str) -> str: ...


class StreamRestorer(Protocol):
    def feed(self, text: str) -> str: ...

    def flush(self) -> str: ...


class RedactionMapLike(Restorer, Protocol):
    def stream_restorer(self) -> StreamRestorer: ...


def restore_result(result: ChatResult, mapping: Restorer) -> ChatResult:
    calls = tuple(
        dataclasses.replace(c, name=mapping.restore(c.name), arguments=mapping.restore(c.arguments))
        for c in result.tool_calls
    )
    text = mapping.restore(result.text) if result.text is not None else None
    return dataclasses.replace(result, text=text, tool_calls=calls)


async def restore_stream(
    chunks: AsyncIterator[ChatChunk], restorer: StreamRestorer, mapping: RedactionMapLike
) -> AsyncIterator[ChatChunk]:
    """Text and each tool call's arguments get their own stream restorer: a placeholder split
    across chunks is held back until complete, then restored."""
    args: dict[int, StreamRestorer] = {}
    async for chunk in chunks:
        text = restorer.feed(chunk.text) if chunk.text else ""
        calls: list[ToolCallDelta] = []
        for d in chunk.tool_calls:
            r = args.get(d.index) or args.setdefault(d.index, mapping.stream_restorer())
            name = mapping.restore(d.name) if d.name else d.name  # a name comes whole
            calls.append(
                ToolCallDelta(
                    d.index, d.id, name, r.feed(d.arguments) if d.arguments else d.arguments
                )
            )
        if chunk.finish_reason is not None or chunk.usage is not None:
            text += restorer.flush()
            calls.extend(_flush_arguments(args))
        yield dataclasses.replace(chunk, text=text, tool_calls=tuple(calls))
    tail, calls = restorer.flush(), _flush_arguments(args)
    if tail or calls:
        yield ChatChunk(text=tail, tool_calls=tuple(calls))


def _flush_arguments(args: dict[int, StreamRestorer]) -> list[ToolCallDelta]:
    out = []
    for index, r in args.items():
        held = r.flush()
        if held:
            out.append(ToolCallDelta(index, arguments=held))
    return out
