"""A gateway killed outright (SIGKILL, the OOM killer) leaves no offload child behind: each
child holds its own memory (a loaded judge model among it) and would otherwise wait for jobs
forever, one more pair after every crash and restart."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PARENT = """
import asyncio, os, signal, sys
from gateway.core.offload import ChildPool

async def main():
    pool = ChildPool(1)
    child = await pool.run(60, os.getpid)
    print(child, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in state  # a zombie has exited; only its reaping is left


def test_a_child_ends_when_its_server_is_killed() -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.run(
        [sys.executable, "-c", PARENT], capture_output=True, text=True, timeout=60, env=env
    )
    assert proc.returncode == -9, proc.stderr[-500:]
    child = int(proc.stdout.split()[0])
    for _ in range(100):  # the child looks once a second
        if not _alive(child):
            break
        time.sleep(0.1)
    else:
        os.kill(child, 9)
        raise AssertionError("the offload child outlived its killed server")
