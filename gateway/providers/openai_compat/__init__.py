"""Adapter for OpenAI-style servers (vLLM, llama.cpp, Ollama /v1) over a pooled httpx client."""

from gateway.providers.openai_compat.adapter import OpenAICompatProvider

__all__ = ["OpenAICompatProvider"]
