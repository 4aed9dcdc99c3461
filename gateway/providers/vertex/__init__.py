"""Adapter for Google Vertex AI (Gemini and embedding models) through google-genai."""

# The adapter (and its SDK) is imported on first use, not with the package: the factory runs
# for every policy that names this kind, and without credentials it needs no SDK at all.
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gateway.providers.vertex.adapter import VertexProvider

__all__ = ["VertexProvider"]


def __getattr__(name: str) -> Any:
    if name == "VertexProvider":
        from gateway.providers.vertex.adapter import VertexProvider

        return VertexProvider
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
