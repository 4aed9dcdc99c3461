"""What a stream has delivered, counted as it passes."""

from __future__ import annotations

from gateway.core.types import ChatChunk, Usage
from gateway.service.choices import summed


class Tally:
    """What a stream has delivered so far: the usage each choice reported (last wins; the
    choices' are summed) and its text pieces, for an estimate when it reports none."""

    __slots__ = ("chars", "pieces", "reported")

    def __init__(self) -> None:
        self.reported: dict[int, Usage] = {}
        self.pieces = 0
        self.chars: list[str] = []

    def add(self, chunk: ChatChunk) -> None:
        if chunk.usage is not None:
            self.reported[chunk.choice] = chunk.usage
        if chunk.text:
            self.pieces += 1
            self.chars.append(chunk.text)

    @property
    def usage(self) -> Usage | None:
        if len(self.reported) < 2:
            return next(iter(self.reported.values()), None)
        return summed(list(self.reported.values()))
