"""`make coverage` measures service/ and usage/ and fails when either is below its floor."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# quick tests that reach both packages: a few seconds of traced code, not the whole suite
SAMPLE = "tests/unit/service/test_stats_incremental.py tests/unit/usage/test_onprem_cost.py"

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or not (BIN / "coverage").exists(),
    reason="make or pytest-cov not installed",
)


def _coverage(tmp_path: Path, service: int, usage: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COVERAGE_FILE": str(tmp_path / ".coverage"), "PYTHONPATH": str(ROOT)}
    # -o: the dev install is there already (the tools run from this interpreter's folder)
    return subprocess.run(
        [
            "make",
            "-s",
            "-o",
            ".venv/.installed-dev",
            "coverage",
            f"BIN={BIN}",
            f"COVERAGE_TESTS={SAMPLE}",
            f"COVERAGE_FLOOR_SERVICE={service}",
            f"COVERAGE_FLOOR_USAGE={usage}",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_both_packages_are_reported_and_pass_a_floor_they_reach(tmp_path: Path) -> None:
    result = _coverage(tmp_path, 0, 0)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "gateway/service/" in result.stdout
    assert "gateway/usage/" in result.stdout


def test_a_package_below_its_floor_fails(tmp_path: Path) -> None:
    # usage/ is checked last: its failure shows that both floors are read and enforced
    result = _coverage(tmp_path, 0, 100)
    assert result.returncode != 0
    assert "gateway/service/" in result.stdout  # the service report passed first
    assert "Coverage failure: total of" in result.stdout + result.stderr
