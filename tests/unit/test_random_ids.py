"""Request ids: unique, 24 hex digits after the prefix, and not repeated across a fork."""

from __future__ import annotations

import os
import re
import sys

import pytest

from gateway.core.clock import RandomIds


def test_ids_are_unique_hex_across_batches() -> None:
    ids = RandomIds()
    seen = [ids.new_id("req_") for _ in range(3000)]  # several os.urandom batches
    assert len(set(seen)) == len(seen)
    assert all(re.fullmatch(r"req_[0-9a-f]{24}", i) for i in seen)


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_a_forked_child_does_not_reuse_the_parents_batch() -> None:
    ids = RandomIds()
    ids.new_id()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.write(w, ids.new_id().encode())
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(r, 64).decode()
    os.close(r)
    os.close(w)
    assert child != ids.new_id()


def test_ids_start_with_the_millisecond_so_later_ids_sort_after_earlier_ones() -> None:
    """Time-ordered: ledger inserts append to the id indexes instead of landing at random
    places (see RandomIds)."""
    now = [1_764_480_000_000_000_000]  # ns

    def clock() -> int:
        return now[0]

    ids = RandomIds(now_ns=clock)
    same_ms = [ids.new_id("req_") for _ in range(300)]
    assert len({i[4:15] for i in same_ms}) == 1  # one millisecond prefix
    assert same_ms[0][4:15] == format(1_764_480_000_000, "011x")
    assert len(set(same_ms)) == 300  # the random part still differs
    later = []
    for _ in range(50):
        now[0] += 1_000_000  # one millisecond on
        later.append(ids.new_id("req_"))
    assert later == sorted(later) and later[0] > max(same_ms)
    assert all(re.fullmatch(r"req_[0-9a-f]{24}", i) for i in same_ms + later)
