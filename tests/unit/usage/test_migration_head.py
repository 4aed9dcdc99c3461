"""Start-up skips Alembic when the database is already at the newest revision: the constant it
compares with must be the head of the migrations folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import text

from gateway.usage.db import HEAD_REVISION, alembic_config, make_engine, migrate, schema_revision


def test_head_revision_is_the_head_of_the_migrations_folder() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_heads() == [HEAD_REVISION]


def test_current_database_starts_without_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
    engine = make_engine(url)
    assert schema_revision(engine) is None  # empty database: no alembic_version yet
    migrate(engine)
    assert schema_revision(engine) == [HEAD_REVISION]
    engine.dispose()
    code = (
        "import sys; from gateway.usage.db import make_engine, migrate; "
        f"e = make_engine({url!r}); migrate(e); e.dispose(); "
        "print('alembic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "False"


def test_older_database_is_still_migrated(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    try:
        migrate(engine, "0004")
        assert schema_revision(engine) == ["0004"]
        migrate(engine)
        assert schema_revision(engine) == [HEAD_REVISION]
        with engine.connect() as conn:  # 0005's columns are there
            conn.execute(text("SELECT unpriced_requests FROM usage_daily")).all()
    finally:
        engine.dispose()
