"""ConverseStream events (as boto3 parses them, one `{eventName: payload}` dict each) -> chunks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gateway.core.types import ChatChunk, ToolCallDelta
from gateway.providers.bedrock.mapping import finish_reason, parse_usage


class StreamMapper:
    """Turns one stream's events into ChatChunks; remembers which content block is which tool
    call, and whether the stream reached its end (`messageStop`)."""

    def __init__(self) -> None:
        self._tool_index: dict[int, int] = {}
        self.stopped = False

    def feed(self, event: Mapping[str, Any]) -> ChatChunk | None:
        """The chunk for one event, or None for events that carry nothing for the client.
        Raises KeyError/TypeError/ValueError on a malformed event."""
        if "contentBlockDelta" in event:
            return self._delta(event["contentBlockDelta"])
        if "contentBlockStart" in event:
            return self._start(event["contentBlockStart"])
        if "messageStop" in event:
            self.stopped = True
            return ChatChunk(finish_reason=finish_reason(event["messageStop"].get("stopReason")))
        if "metadata" in event:
            usage = parse_usage(event["metadata"].get("usage"))
            return ChatChunk(usage=usage) if usage is not None else None
        return None  # messageStart, contentBlockStop, unknown future events

    def _start(self, body: Mapping[str, Any]) -> ChatChunk | None:
        tool = (body.get("start") or {}).get("toolUse")
        if tool is None:
            return None
        index = len(self._tool_index)
        self._tool_index[int(body["contentBlockIndex"])] = index
        return ChatChunk(
            tool_calls=(
                ToolCallDelta(
                    index=index, id=str(tool["toolUseId"]), name=str(tool["name"]), arguments=""
                ),
            )
        )

    def _delta(self, body: Mapping[str, Any]) -> ChatChunk | None:
        delta = body["delta"]
        if "text" in delta:
            return ChatChunk(text=str(delta["text"]))
        if "toolUse" in delta:
            index = self._tool_index[int(body["contentBlockIndex"])]
            return ChatChunk(
                tool_calls=(
                    ToolCallDelta(index=index, arguments=str(delta["toolUse"].get("input") or "")),
                )
            )
        return None  # reasoningContent and other non-answer deltas
