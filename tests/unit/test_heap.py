"""The serving process settles its heap once started (less GC CPU): start-up objects frozen, the
first GC generation's threshold raised. Run in a subprocess: freezing is for the whole process
and must not leak into the test runner."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import asyncio, gc, json
import uvicorn
from gateway.drain import DrainingServer, DrainState
from gateway.heap import THRESHOLDS

async def app(scope, receive, send):
    pass

before = (gc.get_freeze_count(), gc.get_threshold())
server = DrainingServer(uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="off",
                                       log_level="warning"), DrainState())

async def main():
    server.config.load()  # what uvicorn.Server.serve does before startup()
    server.lifespan = server.config.lifespan_class(server.config)
    await server.startup()
    after = (gc.get_freeze_count(), gc.get_threshold())
    await server.shutdown()
    print(json.dumps({"before": before, "after": after, "want": THRESHOLDS}))

asyncio.run(main())
"""


def test_a_started_server_freezes_start_up_objects_and_raises_the_gc_threshold() -> None:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    r = json.loads(out.strip().splitlines()[-1])
    assert r["before"][0] == 0 and r["before"][1] == [700, 10, 10]  # CPython's defaults
    assert r["after"][0] > 10_000  # the imported modules' objects, at least
    assert r["after"][1] == list(r["want"])
