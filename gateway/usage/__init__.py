"""Usage ledger: tables, database setup, recorder (off the hot path)."""
