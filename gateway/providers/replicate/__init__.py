"""Adapter for Replicate predictions (create, poll, SSE stream)."""

from gateway.providers.replicate.adapter import ReplicateProvider

__all__ = ["ReplicateProvider"]
