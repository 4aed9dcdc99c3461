"""Policy: YAML schema, loader (errors with YAML paths and lines), pure engine."""
