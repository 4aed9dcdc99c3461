"""Admin API, cost dashboard and admin auth."""
