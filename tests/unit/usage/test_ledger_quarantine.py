"""A ledger that cannot be poisoned, on SQLite and real PostgreSQL: values are fitted to their
columns before they are queued; a batch the database refuses is retried row by row and a row
refused on its own is quarantined (counted, listed by `gateway audit quarantine`); a journal
replay after a restart never sticks on such a row either."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from gateway.policy.loader import load_text
from gateway.usage.db import make_engine, migrate
from gateway.usage.journal import Journal
from gateway.usage.ledger import make_entry
from gateway.usage.pricing import Cost, Pricer, load_catalog
from gateway.usage.quarantine import FILE_NAME, Quarantine
from gateway.usage.recorder import Recorder
from gateway.usage.records import AttemptRecord, UsageRecord
from tests.unit.usage.pg import pg_available, throwaway_database

POLICY = load_text("""version: 1
backends:
  gpu: {kind: openai_compat, zone: on_prem, base_url: "http://127.0.0.1:9/v1", model: m}
aliases:
  chat: {backends: [gpu]}
""")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ledger.db'}"
        return
    if not pg_available():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    with throwaway_database("quarantine") as url:
        yield url


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    migrate(eng)
    yield eng
    eng.dispose()


def _record(i: int, **over: Any) -> UsageRecord:
    fields: dict[str, Any] = dict(
        request_id=f"r{i:04d}",
        created_at=time.time(),
        alias="chat",
        status=200,
        backend="gpu",
        model="m",
        prompt_tokens=3,
        completion_tokens=2,
        attempts=[AttemptRecord(1, "gpu", "ok", None, 200, 1.0)],
    )
    fields.update(over)
    return UsageRecord(**fields)


def _recorder(engine: Engine, tmp_path: Path) -> Recorder:
    return Recorder(
        engine,
        Pricer(lambda: POLICY.policy, load_catalog()),
        Journal(tmp_path / "journal"),
        flush_interval=0.01,
        quarantine=Quarantine(tmp_path / "journal" / FILE_NAME),
    )


def _ids(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        return [r[0] for r in conn.execute(text("SELECT id FROM requests ORDER BY id"))]


async def test_a_200_character_model_does_not_stop_the_writer(
    engine: Engine, tmp_path: Path
) -> None:
    rec = _recorder(engine, tmp_path)
    await rec.start()
    try:
        rec.record(_record(1, alias="x" * 200))  # what a client sent as `model`
        rec.record(_record(2))
        assert await rec.drain(timeout=15), "the writer is stuck on a row"
    finally:
        await rec.stop()
    assert _ids(engine) == ["r0001", "r0002"]
    assert rec.quarantine.count == 0


async def test_an_oversized_model_and_huge_numbers_are_fitted_not_stuck(
    engine: Engine, tmp_path: Path
) -> None:
    rec = _recorder(engine, tmp_path)
    await rec.start()
    try:
        rec.record(_record(1))
        rec.record(
            _record(
                2,
                alias="a" * 200,
                model="m" * 300,
                prompt_tokens=10**30,
                error_kind="x\x00y" * 40,
                key_id="k" * 90,
                attempts=[AttemptRecord(1, "b" * 300, "o" * 50, "f" * 90, 10**12, float("inf"))],
            )
        )
        rec.record(_record(3))
        assert await rec.drain(timeout=15), "the writer is stuck on a row"
    finally:
        await rec.stop()
    assert _ids(engine) == ["r0001", "r0002", "r0003"]
    with engine.connect() as conn:
        alias, model, tokens, err = conn.execute(
            text("SELECT alias, model, prompt_tokens, error_kind FROM requests WHERE id='r0002'")
        ).one()
        backend, status = conn.execute(
            text("SELECT backend, status FROM attempts WHERE request_id='r0002'")
        ).one()
    assert (alias, model, tokens) == ("a" * 128, "m" * 256, 2**31 - 1)
    assert "\x00" not in err and len(err) == 64
    assert (backend, status) == ("b" * 128, 2**31 - 1)
    assert rec.quarantine.count == 0


def _poison(i: int) -> dict[str, Any]:
    """An entry no database can take, whatever its columns: its time is not a time."""
    entry = make_entry(_record(i), Cost(None, "policy", None), None)
    entry["created_at"] = "not-a-time"
    return entry


async def test_a_refused_row_is_quarantined_and_the_rest_of_its_batch_is_written(
    engine: Engine, tmp_path: Path
) -> None:
    rec = _recorder(engine, tmp_path)
    await rec.start()
    try:
        rec.record(_record(1))
        rec.record(_record(2, created_at=float("inf")))  # a clock gone wrong
        rec.record(_record(3))
        assert await rec.drain(timeout=15), "the writer is stuck on a row"
        rec.record(_record(4))  # later rows still flow
        assert await rec.drain(timeout=15)
    finally:
        await rec.stop()
    assert _ids(engine) == ["r0001", "r0003", "r0004"]
    assert rec.quarantine.count == 1
    lines = list(Quarantine(tmp_path / "journal" / FILE_NAME).lines())
    assert [x["entry"]["id"] for x in lines] == ["r0002"]
    assert lines[0]["reason"]  # the error's class, never its message


async def test_a_journal_replay_after_a_restart_does_not_stick(
    engine: Engine, tmp_path: Path
) -> None:
    # a journal left by an earlier process (an older build: nothing fitted) with a row the
    # old writer retried forever, a poisoned row, and good rows around them
    j = Journal(tmp_path / "journal")
    j.open()
    long = make_entry(_record(2), Cost(None, "policy", None), None)
    long["model"] = "m" * 200
    long["alias"] = "a" * 200
    for entry in (
        make_entry(_record(1), Cost(None, "policy", None), None),
        long,
        _poison(3),
        make_entry(_record(4), Cost(None, "policy", None), None),
    ):
        j.append(entry)
    j.close()
    rec = _recorder(engine, tmp_path)
    await rec.start()
    try:
        assert await rec.drain(timeout=15), "the replay is stuck on a row"
    finally:
        await rec.stop()
    assert _ids(engine) == ["r0001", "r0002", "r0004"]
    assert rec.quarantine.count == 1
    assert not list((tmp_path / "journal").glob("seg-*.jsonl"))  # nothing left to replay


def test_gateway_audit_quarantine_lists_and_replays(
    db_url: str, engine: Engine, tmp_path: Path
) -> None:
    q = Quarantine(tmp_path / "journal" / FILE_NAME)
    q.add(_poison(7), "DataError")
    fixed = make_entry(_record(8), Cost(None, "policy", None), None)
    q.add(fixed, "DataError")
    env = {
        **os.environ,
        "GECIT_DATABASE_URL": db_url,
        "GECIT_JOURNAL_PATH": str(tmp_path / "journal"),
    }
    listed = subprocess.run(
        [sys.executable, "-m", "gateway", "audit", "quarantine"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert listed.returncode == 0, listed.stderr
    assert [ln.split("\t")[0] for ln in listed.stdout.splitlines()] == ["r0007", "r0008"]
    assert "2 quarantined row(s)" in listed.stderr
    replay = subprocess.run(
        [sys.executable, "-m", "gateway", "audit", "quarantine", "--replay"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert replay.returncode == 1  # r0007 can never be written
    assert "1 row(s) written, 1 still quarantined" in replay.stderr
    assert _ids(engine) == ["r0008"]
    left = [
        orjson.loads(x) for x in (tmp_path / "journal" / FILE_NAME).read_bytes().split(b"\n") if x
    ]
    assert [x["entry"]["id"] for x in left] == ["r0007"]


async def test_a_database_that_does_not_answer_is_waited_for_never_quarantined(
    tmp_path: Path,
) -> None:
    from gateway.emulators.base import free_port

    engine = make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    rec = _recorder(engine, tmp_path)
    await rec.start()
    try:
        rec.record(_record(1))
        assert not await rec.drain(timeout=1.5)  # still retrying: nothing is given up
        assert rec.backlog + len(list((tmp_path / "journal").glob("seg-*.jsonl"))) > 0
        assert rec.quarantine.count == 0
    finally:
        await rec.stop(timeout=0.1)
        engine.dispose()
