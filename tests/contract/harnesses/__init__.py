"""One module per adapter, each defining HARNESS."""
