"""A local append-only journal of finished ledger entries, so none is ever lost.

Why a record is durable against `kill -9` as soon as `append` returns: `append` is one
`os.write` of the whole line to a file descriptor opened with O_APPEND. When that system call
returns, the bytes are in the kernel's page cache, which belongs to the kernel, not to the
process: killing the process (even with SIGKILL, which runs no user code) cannot take them
back, and the next reader of the file sees them. Only a crash of the whole machine (power,
kernel panic) can lose page-cache data; against that, a background task calls `fdatasync`
every `sync_interval` seconds, so at most that window is exposed. An fsync per record would
make every request wait for the disk; this costs one syscall of a few microseconds.

The ChatService records a request before the edge writes its last bytes (the final usage chunk
and `[DONE]`, or the JSON body), so an answer the client fully received is always journaled.

Layout: a directory holding `seg-<start>-<n>.jsonl` segments and a `lock` file (one process per
journal directory). A segment is deleted only after every entry in it was committed to the
database; whatever is left at start-up is replayed (writes are idempotent by request id).
A torn last line (only possible after a machine crash) is skipped.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

log = logging.getLogger("gateway.usage")


class JournalLocked(RuntimeError):
    """Another running process owns this journal directory."""


@dataclass(slots=True)
class _Segment:
    seq: int
    path: Path
    fd: int
    appended: int = 0
    committed: int = 0
    closed: bool = False
    keep: bool = False  # an entry of it left memory unwritten: replay it from disk instead


class Journal:
    def __init__(self, directory: str | Path, *, segment_records: int = 20_000) -> None:
        self.dir = Path(directory)
        self._segment_records = segment_records
        self._lock_fd: int | None = None
        self._segments: dict[int, _Segment] = {}
        self._current: _Segment | None = None
        self._seq = 0
        self._dirty = False
        self._start = time.time_ns()

    # ---- life cycle ------------------------------------------------------------------
    def open(self) -> list[Path]:
        """Lock the directory and return the segments left by an earlier run (to replay)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.dir / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise JournalLocked(f"journal {self.dir} is in use by another process") from None
        self._lock_fd = fd
        leftovers = sorted(self.dir.glob("seg-*.jsonl"))
        self._rotate()
        return leftovers

    def close(self) -> None:
        for seg in list(self._segments.values()):
            self._close_segment(seg)
            self._maybe_remove(seg)
        self._segments.clear()
        self._current = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # ---- hot path --------------------------------------------------------------------
    def append(self, entry: dict[str, Any]) -> int:
        """Write one entry; returns its segment number (to report the commit later)."""
        seg = self._current
        if seg is None:
            raise RuntimeError("journal is not open")
        os.write(seg.fd, orjson.dumps(entry) + b"\n")
        seg.appended += 1
        self._dirty = True
        if seg.appended >= self._segment_records:
            self._rotate()
        return seg.seq

    # ---- bookkeeping -----------------------------------------------------------------
    def committed(self, seq: int, n: int = 1) -> None:
        seg = self._segments.get(seq)
        if seg is None:
            return
        seg.committed += n
        self._maybe_remove(seg)

    def keep_for_replay(self, seq: int) -> None:
        seg = self._segments.get(seq)
        if seg is not None:
            seg.keep = True

    def closed_kept_segments(self) -> list[Path]:
        """Closed segments with entries that were not held in memory: to replay from disk."""
        return [s.path for s in self._segments.values() if s.keep and s.closed]

    def forget(self, path: Path) -> None:
        """A replayed segment (a leftover or a kept one): every entry is in the database."""
        for seq, seg in list(self._segments.items()):
            if seg.path == path:
                del self._segments[seq]
        with contextlib.suppress(FileNotFoundError):
            path.unlink()

    def rotate_if_kept(self) -> None:
        if self._current is not None and self._current.keep and self._current.appended:
            self._rotate()

    def sync(self) -> None:
        """fdatasync the current segment if anything was appended since the last sync."""
        if not self._dirty or self._current is None:
            return
        self._dirty = False
        with contextlib.suppress(OSError):  # a segment closed under us was synced on close
            os.fdatasync(self._current.fd)

    @property
    def pending(self) -> int:
        return sum(s.appended - s.committed for s in self._segments.values())

    # ---- internals -------------------------------------------------------------------
    def _rotate(self) -> None:
        old = self._current
        self._seq += 1
        path = self.dir / f"seg-{self._start:020d}-{self._seq:06d}.jsonl"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        seg = _Segment(self._seq, path, fd)
        self._segments[seg.seq] = seg
        self._current = seg
        if old is not None:
            self._close_segment(old)
            self._maybe_remove(old)

    def _close_segment(self, seg: _Segment) -> None:
        if seg.closed:
            return
        with contextlib.suppress(OSError):
            os.fdatasync(seg.fd)
        os.close(seg.fd)
        seg.closed = True

    def _maybe_remove(self, seg: _Segment) -> None:
        if seg.closed and not seg.keep and seg.committed >= seg.appended:
            self._segments.pop(seg.seq, None)
            with contextlib.suppress(FileNotFoundError):
                seg.path.unlink()


def read_segment(path: Path) -> Iterator[dict[str, Any]]:
    """Entries of a segment; a torn or unreadable line is skipped (and logged)."""
    with path.open("rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                log.warning("journal %s: skipping a torn last line", path.name)
                return
            try:
                obj = orjson.loads(line)
            except orjson.JSONDecodeError:
                log.warning("journal %s: skipping an unreadable line", path.name)
                continue
            if isinstance(obj, dict):
                yield obj
