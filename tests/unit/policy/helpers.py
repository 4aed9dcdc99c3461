"""Small policy builders for engine tests."""

from __future__ import annotations

from typing import Any

from gateway.policy.schema import Policy

SCC = {
    "mechanism": "tr_scc",
    "signed": "2025-01-06",
    "notified": "2025-01-08",
    "classes": ["public", "personal"],
}


def backend(zone: str = "on_prem", **kw: Any) -> dict[str, Any]:
    b: dict[str, Any] = {
        "kind": "openai_compat",
        "zone": zone,
        "base_url": "http://x",
        "model": "m",
    }
    b.update(kw)
    return b


def policy(
    backends: dict[str, dict[str, Any]],
    alias: list[str] | None = None,
    rules: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> Policy:
    data: dict[str, Any] = {
        "version": 1,
        "backends": backends,
        "aliases": {"a": {"backends": alias or list(backends)}},
        "rules": rules or [],
    }
    data.update(kw)
    return Policy.model_validate(data)
