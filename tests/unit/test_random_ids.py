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
