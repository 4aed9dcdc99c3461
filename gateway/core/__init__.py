"""Provider-neutral types, the error model and the clock/id seams (stdlib + pydantic only)."""
