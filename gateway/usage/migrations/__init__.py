"""Alembic migrations of the ledger (shipped in the package; run by `gateway.usage.db.migrate`)."""
