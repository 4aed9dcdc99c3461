"""The judge's model file in the cache: joins cut off mid-write leave nothing behind."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gateway.sensitivity import judge_file


def test_a_join_cut_off_mid_write_leaves_no_file_behind(tmp_path: Path) -> None:
    # a process that exits while its judge loads in a daemon thread never runs the join's
    # cleanup: the next start removes what it left, and keeps a join another process is writing
    stale = tmp_path / f"{judge_file.MODEL_FILE}.ab12cd34.tmp"
    fresh = tmp_path / f"{judge_file.MODEL_FILE}.ef56gh78.tmp"
    other = tmp_path / "notes.tmp"
    for f in (stale, fresh, other):
        f.write_bytes(b"\0" * 1024)
    old = time.time() - judge_file.STALE_AFTER_S - 60
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    assert judge_file.sweep_stale(tmp_path) == 1
    assert not stale.exists()
    assert fresh.exists() and other.exists()


def test_every_start_sweeps_before_it_joins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / f"{judge_file.MODEL_FILE}.ab12cd34.tmp"
    stale.write_bytes(b"\0")
    old = time.time() - judge_file.STALE_AFTER_S - 60
    os.utime(stale, (old, old))
    monkeypatch.setattr(judge_file, "CHUNKS", (("gecit_no_such_chunk_package", "x.part00"),))
    with pytest.raises(judge_file.ModelFileUnavailable):
        judge_file.model_file(tmp_path)
    assert not stale.exists()
