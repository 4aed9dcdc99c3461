"""Adapter for Ollama's native API (`/api/chat`, `/api/tags`, `/api/embed`)."""

from gateway.providers.ollama.adapter import OllamaProvider
from gateway.providers.ollama.mapping import OllamaTimings

__all__ = ["OllamaProvider", "OllamaTimings"]
