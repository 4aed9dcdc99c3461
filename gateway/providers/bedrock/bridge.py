"""Iterate a blocking iterator (boto3's EventStream) in an executor thread and hand its items to
the event loop through an asyncio queue, so the loop never blocks on a socket read."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncGenerator, Callable, Iterable
from concurrent.futures import Executor
from typing import Any, Literal, TypeVar

T = TypeVar("T")
_Kind = Literal["item", "end", "error"]


async def iterate_in_thread(
    open_stream: Callable[[], Iterable[T]], executor: Executor, item_timeout: float
) -> AsyncGenerator[T, None]:
    """Yield the items of `open_stream()` (called in the thread, so a failure to open is raised
    here before any item). Each wait is bounded by `item_timeout` (TimeoutError). Leaving early
    (break, error, cancel) stops the thread and closes the stream when it has `close()`."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[_Kind, Any]] = asyncio.Queue()
    stop = threading.Event()
    opened: list[Iterable[T]] = []

    def put(kind: _Kind, value: Any) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, (kind, value))
        except RuntimeError:  # the loop is gone; nobody is listening any more
            pass

    def pump() -> None:
        try:
            stream = open_stream()
            opened.append(stream)
            if stop.is_set():  # the consumer left while the stream was being opened
                _close(stream)
                return
            for item in stream:
                if stop.is_set():
                    return
                put("item", item)
            put("end", None)
        except BaseException as exc:  # handed over to the loop, raised there
            put("error", exc)

    pending = loop.run_in_executor(executor, pump)
    try:
        while True:
            async with asyncio.timeout(item_timeout):
                kind, value = await queue.get()
            if kind == "item":
                yield value
            elif kind == "end":
                return
            else:
                raise value
    finally:
        stop.set()
        for stream in opened:
            _close(stream)  # unblocks a read in progress in the pump thread
        pending.add_done_callback(lambda f: f.exception())  # the thread's end is not awaited


def _close(stream: object) -> None:
    close: Callable[[], None] | None = getattr(stream, "close", None)
    if close is not None:
        with contextlib.suppress(Exception):  # closing a dead stream may fail; nothing to do
            close()
