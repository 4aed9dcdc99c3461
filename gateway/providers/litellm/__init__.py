"""Adapter for long-tail providers through litellm (optional extra, imported lazily).

Importing this package does not import litellm; building a provider does."""

from gateway.providers.litellm.adapter import LiteLLMProvider

__all__ = ["LiteLLMProvider"]
