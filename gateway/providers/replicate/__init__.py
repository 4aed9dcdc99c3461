"""Adapter for Replicate predictions (create, poll, SSE stream)."""

# The adapter (and its SDK) is imported on first use, not with the package: the factory runs
# for every policy that names this kind, and without credentials it needs no SDK at all.
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gateway.providers.replicate.adapter import ReplicateProvider

__all__ = ["ReplicateProvider"]


def __getattr__(name: str) -> Any:
    if name == "ReplicateProvider":
        from gateway.providers.replicate.adapter import ReplicateProvider

        return ReplicateProvider
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
