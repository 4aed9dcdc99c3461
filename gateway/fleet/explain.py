"""`policy explain` for pooled backends: which node this text would go to with no live load,
and the order Geçit would fall back in. A running gateway also weighs the engines' queues, KV
use and measured speeds (the `x-gecit-node` header shows its actual choice)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from gateway.core.types import ChatRequest
from gateway.fleet.router import FleetRouter, PoolNode, request_blocks
from gateway.fleet.scraper import NodeTarget
from gateway.policy.schema import Policy
from gateway.providers.tokens import estimate_prompt_tokens

IDLE_NOTE = "idle fleet assumed (explain reads no live engine signals)"


def pool_of(spec: Any) -> list[PoolNode]:
    return [
        PoolNode(
            NodeTarget(e.name, e.engine, e.base_url, spec.model), e.weight, e.kv_capacity_tokens
        )
        for e in spec.endpoints or ()
    ]


def explain_nodes(
    policy: Policy, candidates: Iterable[str], request: ChatRequest
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name in candidates:
        spec = policy.backends.get(name)
        nodes = pool_of(spec) if getattr(spec, "endpoints", None) else []
        if not nodes:
            continue
        got = FleetRouter(nodes, None, time.monotonic).choose(
            request_blocks(request), estimate_prompt_tokens(request), request.token_limit
        )
        out[name] = {
            "node": got.node,
            "order": list(got.order),
            "reason": f"{got.reason}; {IDLE_NOTE}",
            "dropped": [{"node": n, "reason": r} for n, r in got.dropped],
        }
    return out
