"""`gateway budgets create | list | delete`, run as the real command on a real SQLite ledger:
every scope and period, what `list` shows after spending, and delete."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

from gateway.usage import budgets
from gateway.usage.db import make_engine
from gateway.usage.keys import create_key

ROOT = Path(__file__).resolve().parents[2]


def _gateway(db: str, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GECIT_DATABASE_URL": db,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "gateway", "budgets", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_create_list_delete_every_scope_and_period(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'ledger.db'}"
    made = _gateway(db, "create", "--tenant", "klinik", "500 TRY")
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip() == "tenant:klinik: monthly budget of tenant 'klinik' (500 TRY)"
    engine = make_engine(db)
    try:
        info, _ = create_key(engine, "klinik", "randevu", now=time.time())
    finally:
        engine.dispose()
    for argv in (
        ("--app", "klinik/randevu", "30 USD", "--period", "day"),
        ("--key", info.id, "20 USD", "--period", "week"),
        ("--alias", "assistant", "100 USD", "--period", "week"),
        ("--tag", "project=atlas", "5,5 USD", "--period", "day"),
    ):
        out = _gateway(db, "create", *argv)
        assert out.returncode == 0, out.stderr
    engine = make_engine(db)
    try:
        assert (
            budgets.reserve(engine, "r", {"day:tag:project=atlas": Decimal("4.4")}, time.time())
            == []
        )
        # a reservation is not spend: list shows spent 0 until the ledger settles it
    finally:
        engine.dispose()
    listed = _gateway(db, "list").stdout.splitlines()
    ids = [line.split()[0] for line in listed[1:]]
    assert ids == sorted(
        [
            "tenant:klinik",
            "day:app:klinik/randevu",
            f"week:key:{info.id}",
            "week:alias:assistant",
            "day:tag:project=atlas",
        ]
    )
    tag = next(line for line in listed if line.startswith("day:tag:project=atlas"))
    assert tag.split()[1:3] == ["day", time.strftime("%Y-%m-%d", time.gmtime())]
    assert "5.50 USD" in tag
    mine = [
        line.split()[0]
        for line in _gateway(db, "list", "--tenant", "klinik").stdout.splitlines()[1:]
    ]
    assert sorted(mine) == sorted(
        ["tenant:klinik", "day:app:klinik/randevu", f"week:key:{info.id}"]
    )
    gone = _gateway(db, "delete", "week:alias:assistant")
    assert gone.returncode == 0 and "weekly budget of alias 'assistant'" in gone.stdout
    again = _gateway(db, "delete", "week:alias:assistant")
    assert again.returncode == 2 and again.stderr.count("\n") == 1
