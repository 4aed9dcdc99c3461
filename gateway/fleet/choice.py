"""Which node of a pooled backend served the request, and why: set by the pooled provider in
the request's own task, read by the edge for the `x-gecit-node` header (a context variable, so
concurrent requests never see each other's)."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NodeChoice:
    backend: str
    node: str
    reason: str


CHOSEN_NODE: contextvars.ContextVar[NodeChoice | None] = contextvars.ContextVar(
    "gecit_chosen_node", default=None
)


def node_for(backend: str | None) -> NodeChoice | None:
    """The node chosen inside `backend` for this request (None when it is not a pool, or when
    the request fell back to another backend)."""
    got = CHOSEN_NODE.get()
    return got if got is not None and got.backend == backend else None
