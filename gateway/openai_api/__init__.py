"""The public OpenAI-compatible edge: wire schemas, handlers, SSE and the error shape."""
