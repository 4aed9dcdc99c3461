"""Alembic environment. Run programmatically by `gateway.usage.db.migrate(engine)`, which hands
over an open connection; `alembic -x url=...` style use with a URL works too."""

from __future__ import annotations

import importlib

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from gateway.usage import tables  # noqa: F401  (registers the ledger tables)

# other ledger modules that add tables (rollups, the audit chain) register when present
for _name in ("gateway.usage.rollups", "gateway.usage.audit"):
    try:
        importlib.import_module(_name)
    except ModuleNotFoundError as exc:
        if not (exc.name and _name.startswith(exc.name)):
            raise

target_metadata = SQLModel.metadata
config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection and no sqlalchemy.url for the ledger migrations")
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(
            connection=conn,
            target_metadata=target_metadata,
            render_as_batch=conn.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run()
