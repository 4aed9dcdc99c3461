"""Adapter for Google Vertex AI (Gemini and embedding models) through google-genai."""

from gateway.providers.vertex.adapter import VertexProvider

__all__ = ["VertexProvider"]
