"""Geçit: a KVKK-aware LLM inference gateway."""

__version__ = "0.1.0"
