"""`gateway serve --upstream URL`: put Geçit in front of an existing OpenAI-compatible server
(vLLM, llama.cpp's server, Ollama's /v1, ...).

At start-up the upstream's `GET /v1/models` is read and a compiled policy is derived from the
configured one (the embedded default unless `--policy` says otherwise):

- the bundled `local` backend is replaced by one `openai_compat` backend named `upstream`
  (zone `on_prem`, the local backend's timeouts) serving the first listed model; a server that
  lists more models gets one more backend per model (`upstream-2`, `upstream-3`, ...), all
  pointing at the same server, because a backend serves exactly one model;
- every listed model becomes an alias of the same name (what clients put in "model");
  aliases of the configured policy that only named `local` are dropped; an alias that mixes
  `local` with other backends (the default `auto`: local + clouds) is kept, with `upstream`
  in the place of `local`;
- rules that name `local` name every upstream backend instead; everything else (keys,
  classification, rules, billing, tenants, sensitivity settings, the ledger) stays as
  configured.

The derived policy is validated like a file (schema + semantic checks) and is not file-backed,
so the file watcher does not replace it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import Any

import httpx
import orjson
from pydantic import ValidationError

from gateway.policy.loader import CompiledPolicy, PolicyError, Problem, semantic_problems
from gateway.policy.schema import Policy

log = logging.getLogger("gateway")

UPSTREAM = "upstream"
LOCAL = "local"


class UpstreamError(RuntimeError):
    """The upstream could not be read or lists no model; the gateway cannot start with it."""


def models_url(url: str) -> str:
    base = url.rstrip("/")
    return base + ("/models" if base.endswith("/v1") else "/v1/models")


async def fetch_models(
    url: str,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    wait_s: float = 10.0,
    interval_s: float = 0.1,
) -> list[str]:
    """The model ids the upstream lists at /v1/models, in its order. Waits up to `wait_s` for a
    server that is still starting (connection refused, 5xx); a 4xx or a malformed answer fails
    at once."""
    target = models_url(url)
    deadline = time.monotonic() + wait_s
    last = "no answer"
    # a plain-http upstream needs no TLS: verify=False spares loading the CA bundle into an SSL
    # context (~40 ms of start-up CPU). This client follows no redirects, so it never does TLS.
    plain = target.startswith("http://")
    async with httpx.AsyncClient(
        transport=transport, timeout=5.0, verify=not plain, follow_redirects=False
    ) as client:
        while True:
            try:
                resp = await client.get(target)
                if resp.status_code < 500:
                    break
                last = f"HTTP {resp.status_code}"
            except httpx.HTTPError as exc:
                last = type(exc).__name__
            if time.monotonic() >= deadline:
                raise UpstreamError(f"upstream {target} did not answer within {wait_s:g}s ({last})")
            await asyncio.sleep(interval_s)
    if resp.status_code != 200:
        raise UpstreamError(f"upstream {target} answered HTTP {resp.status_code}")
    try:
        data = orjson.loads(resp.content)
        ids = [str(m["id"]) for m in data["data"]]
    except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
        raise UpstreamError(
            f"upstream {target} gave no OpenAI model list ({type(exc).__name__})"
        ) from None
    models = list(dict.fromkeys(i for i in ids if i))  # drop empties and duplicates, keep order
    if not models:
        raise UpstreamError(f"upstream {target} lists no model")
    return models


def backend_names(models: list[str]) -> dict[str, str]:
    """model id -> backend name: `upstream`, then `upstream-2`, `upstream-3`, ..."""
    return {m: UPSTREAM if i == 0 else f"{UPSTREAM}-{i + 1}" for i, m in enumerate(models)}


def derive_policy(base: CompiledPolicy, url: str, models: list[str]) -> CompiledPolicy:
    """The configured policy with the upstream as its on-prem backend and one alias per model.
    Raises PolicyError when the result does not validate (e.g. a rule only made sense for
    `local`)."""
    data: dict[str, Any] = base.policy.model_dump(mode="python", exclude_unset=True)
    backends: dict[str, Any] = dict(data.get("backends") or {})
    local = backends.pop(LOCAL, None)
    names = backend_names(models)
    taken = set(backends) & set(names.values())
    if taken:
        raise PolicyError(
            base.source,
            [
                Problem(
                    "backends", None, f"backend name(s) {sorted(taken)} are reserved for --upstream"
                )
            ],
        )
    timeouts = (local or {}).get("timeouts")
    for model, name in names.items():
        spec: dict[str, Any] = {
            "kind": "openai_compat",
            "zone": "on_prem",
            "base_url": url,
            "model": model,
        }
        if timeouts:
            spec["timeouts"] = timeouts
        backends[name] = spec
    data["backends"] = backends

    aliases: dict[str, Any] = {
        model: {"backends": [name], "description": f"{model} on the upstream {url}"}
        for model, name in names.items()
    }
    for alias, spec in (data.get("aliases") or {}).items():
        members = [UPSTREAM if b == LOCAL else b for b in spec["backends"]]
        if alias not in aliases and set(members) - {UPSTREAM}:  # e.g. `auto`: local + clouds
            aliases[alias] = {**spec, "backends": list(dict.fromkeys(members))}
    data["aliases"] = aliases

    every = list(names.values())
    for rule in data.get("rules") or []:
        for key in ("allow_backends", "deny_backends"):
            if rule.get(key):  # what a rule said of `local` it says of every upstream backend
                rule[key] = list(
                    dict.fromkeys(n for b in rule[key] for n in (every if b == LOCAL else [b]))
                )
        if rule.get("weights") and LOCAL in rule["weights"]:
            w = rule["weights"].pop(LOCAL)
            rule["weights"].update({n: w for n in every})

    source = f"{base.source} + upstream {url}"
    try:
        policy = Policy.model_validate(data)
    except ValidationError as exc:
        raise PolicyError(
            source, [Problem(".".join(map(str, e["loc"])), None, e["msg"]) for e in exc.errors()]
        ) from None
    problems = semantic_problems(policy, {})
    if problems:
        raise PolicyError(source, problems)
    digest = hashlib.sha256(
        base.sha256.encode() + b"\0" + url.encode() + b"\0" + orjson.dumps(models)
    ).hexdigest()
    return CompiledPolicy(policy=policy, sha256=digest, source=source, warnings=base.warnings)


async def upstream_policy(
    base: CompiledPolicy,
    url: str,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    wait_s: float = 10.0,
) -> CompiledPolicy:
    """Read the upstream's model list and derive the running policy from `base`."""
    try:
        models = await fetch_models(url, transport=transport, wait_s=wait_s)
    except UpstreamError as exc:
        log.error("--upstream: %s", exc)
        raise
    compiled = derive_policy(base, url, models)
    log.info("upstream %s: %d model(s) offered as aliases: %s", url, len(models), ", ".join(models))
    return compiled
