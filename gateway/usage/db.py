"""Engine creation (SQLite WAL by default, PostgreSQL by URL) and schema migration (Alembic).

Alembic is imported only when the schema needs migrating: a database already at HEAD_REVISION
(one SELECT tells) starts without it, which saves most of a second of start-up CPU."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import create_engine

from gateway.usage import tables  # noqa: F401  (registers the tables)

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 0x6765636974  # "gecit": a PostgreSQL advisory lock key
# The newest revision in migrations/versions; tests/unit/usage/test_migration_head.py fails when a
# migration is added without moving this.
HEAD_REVISION = "0011"


def normalise_url(url: str) -> str:
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def make_engine(url: str, *, pool_size: int = 5) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.close()

        return engine
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=pool_size,
        max_overflow=5,
        connect_args={"connect_timeout": 3},
    )


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def schema_revision(engine: Engine) -> list[str] | None:
    """The revision(s) recorded in alembic_version, or None when there is no such table."""
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars()
            return sorted(str(r) for r in rows)
    except SQLAlchemyError:
        return None


def migrate(engine: Engine, revision: str = "heads") -> None:
    """Bring the ledger schema up to date (idempotent; safe to run at every start-up)."""
    if revision in ("head", "heads") and schema_revision(engine) == [HEAD_REVISION]:
        return
    from alembic import command

    cfg = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":  # replicas starting together migrate one by one
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def create_schema(engine: Engine) -> None:
    """Kept for the composition root: the schema always comes from the migrations."""
    migrate(engine)


def require_database_url(url: str) -> None:
    """CommandError unless `url` names a database this build can open (checked before any
    connection, so a typo is one line rather than a failed start-up)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    from gateway.cli_support import CommandError

    try:
        make_url(normalise_url(url)).get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError):
        raise CommandError(
            "the database URL is not one this build can open "
            "(sqlite:///PATH or postgresql://USER@HOST/DB)"
        ) from None
    except ImportError as exc:
        raise CommandError(f"the database driver {exc.name} is not installed") from None


def require_reachable(url: str) -> None:
    """CommandError when a server database (PostgreSQL) does not answer: `gateway serve`
    says so in one line instead of failing inside the server's start-up. The URL is shown
    without its password and the driver's message is not (it can quote the connection)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from gateway.cli_support import CommandError

    if normalise_url(url).startswith("sqlite"):
        return
    engine = make_engine(url, pool_size=1)
    try:
        with engine.connect():
            pass
    except SQLAlchemyError:
        shown = make_url(normalise_url(url)).render_as_string(hide_password=True)
        raise CommandError(
            f"the ledger database {shown} does not answer (is it running, and "
            "does the URL name it? --database-url / GECIT_DATABASE_URL)"
        ) from None
    finally:
        engine.dispose()


def open_ledger(url: str) -> Engine:
    """The engine of an existing ledger, for the verbs that read one (`report`, `audit`):
    a SQLite file that is not there is not created, and a database without the ledger's tables
    (never served with) is refused. Raises CommandError saying which."""
    from sqlalchemy.engine import make_url

    from gateway.cli_support import CommandError
    from gateway.usage.ledger_url import sqlite_file

    require_database_url(url)
    path = sqlite_file(url)
    if path is not None and not path.is_file():
        raise CommandError(
            f"no ledger at {path}: the file does not exist "
            "(--database-url / GECIT_DATABASE_URL names the database "
            "`gateway serve` writes)"
        )
    engine = make_engine(url)
    if schema_revision(engine) is None:
        engine.dispose()
        shown = make_url(normalise_url(url)).render_as_string(hide_password=True)
        raise CommandError(
            f"the database {shown} holds no ledger yet (unreachable, or "
            "nothing was ever served with it)"
        )
    return engine
