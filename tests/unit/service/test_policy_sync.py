"""Shared policy version: replicas on one database converge on the newest accepted document;
a document a replica refuses leaves it serving its running policy."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import pytest

from gateway.policy.loader import load_file
from gateway.policy.reload import PolicyReloader
from gateway.service.policy_sync import PolicySync, file_text
from gateway.usage import policy_store
from gateway.usage.db import create_schema, make_engine

DOC = "version: 1\nbackends:\n  l: {kind: local}\naliases:\n  NAME: {backends: [l]}\n"


def _replica(db: str, policy_file: Path) -> tuple[PolicySync, PolicyReloader]:
    engine = make_engine(db)
    create_schema(engine)
    sync = PolicySync(engine, interval_s=0)
    reloader = PolicyReloader(load_file(policy_file), now=lambda: 0.0, sink=sync.sink)
    sync.attach(reloader)
    return sync, reloader


def test_a_change_on_one_replica_reaches_the_other_and_a_bad_one_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    f = tmp_path / "p.yaml"
    f.write_text(DOC.replace("NAME", "one"))
    db = f"sqlite:///{tmp_path / 'l.db'}"

    async def scenario() -> None:
        (sa, ra), (sb, rb) = _replica(db, f), _replica(db, f)
        await sa.start_up(file_text(ra.current()))
        await sb.start_up(file_text(rb.current()))
        engine = make_engine(db)
        assert policy_store.newest(engine) is not None
        assert policy_store.newest(engine).id == 1  # type: ignore[union-attr]  # stored once
        ra.apply_text(DOC.replace("NAME", "two"), "admin:k1")
        await sa.flush()
        assert await sb.check_once()
        assert rb.current().aliases == ["two"] and rb.changes[-1].actor == "policy-sync:admin:k1"
        await sb.flush()
        assert policy_store.newest(engine).id == 2  # type: ignore[union-attr]  # no echo
        assert not await sa.check_once()  # its own document: nothing to apply
        # a document replica B cannot accept (written by hand): refused, B keeps serving
        policy_store.append(engine, "version: 1\nbackends: {}\n", "f" * 64, "someone")
        with caplog.at_level(logging.ERROR, "gateway.policy"):
            assert not await sb.check_once()
        assert rb.current().aliases == ["two"]
        assert "refused here" in caplog.text
        engine.dispose()

    asyncio.run(scenario())


def test_a_restarting_replica_serves_the_newer_shared_document_but_a_new_file_wins(
    tmp_path: Path,
) -> None:
    f = tmp_path / "p.yaml"
    f.write_text(DOC.replace("NAME", "one"))
    db = f"sqlite:///{tmp_path / 'l.db'}"

    async def scenario() -> None:
        sa, ra = _replica(db, f)
        await sa.start_up(file_text(ra.current()))
        ra.apply_text(DOC.replace("NAME", "admin"), "admin:k1")
        await sa.flush()
        sb, rb = _replica(db, f)  # scale-out with the deployment's (older) file
        await sb.start_up(file_text(rb.current()))
        assert rb.current().aliases == ["admin"]
        f.write_text(DOC.replace("NAME", "deployed"))  # a new deployment's file
        sc, rc = _replica(db, f)
        await sc.start_up(file_text(rc.current()))
        assert rc.current().aliases == ["deployed"]
        assert await sa.check_once() and ra.current().aliases == ["deployed"]

    asyncio.run(scenario())


def test_the_poll_loop_survives_an_unreachable_store(tmp_path: Path) -> None:
    f = tmp_path / "p.yaml"
    f.write_text(DOC.replace("NAME", "one"))

    async def scenario() -> None:
        engine = make_engine(f"sqlite:///{tmp_path / 'missing' / 'l.db'}")  # cannot open
        sync = PolicySync(engine, interval_s=0.01)
        reloader = PolicyReloader(load_file(f), now=lambda: 0.0, sink=sync.sink)
        sync.attach(reloader)
        async with contextlib.AsyncExitStack() as stack:
            await sync.start(stack, file_text(reloader.current()))
            await asyncio.sleep(0.05)
            assert reloader.current().aliases == ["one"]  # still serving

    asyncio.run(scenario())
