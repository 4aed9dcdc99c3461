"""Request and token rate limits on the request path (the policy's `rate_limits:`).

`admit` charges a request to every limit that applies to it (tenant, key, alias) before the
call: one request, and its estimated prompt tokens (times `n`; an embeddings request passes
the estimate of its inputs). The shared counter on Redis
holds across replicas; each admitted request is also logged in this process's counter. When
Redis cannot be reached (down, restarting, slow beyond its timeout) the gate either refuses
(`fallback="closed"`: 503 with `Retry-After`) or counts in this process alone, each limit
scaled by `local_share` (`fallback="local"`), and tries Redis again after `retry_s`: never an
unlimited burst. `settle` corrects the token charge to what the call really used.

A refusal is a 429 in the API's error shape with `Retry-After` and OpenAI's
`x-ratelimit-*` headers; an admitted request carries the same headers on its answer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from gateway.core.clock import Clock
from gateway.core.errors import RateLimited, ServiceUnavailable
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.decision import RouteDecision
from gateway.policy.rate_limits import Scope, scopes_for
from gateway.providers.tokens import estimate_prompt_tokens
from gateway.service.rate_windows import LocalWindow, Taken, Usage, Window

log = logging.getLogger("gateway.ratelimit")

PolicyNow = Callable[[], Any]  # -> gateway.policy.schema.Policy
Fallback = Literal["local", "closed"]


@dataclass(frozen=True, slots=True)
class Grant:
    """What one admitted request was charged, to correct with its real token count."""

    scopes: tuple[Scope, ...]
    member: str
    tokens: int
    windows: tuple[Window, ...]


class RateGate:
    def __init__(
        self,
        policy: PolicyNow,
        local: LocalWindow,
        clock: Clock,
        shared: Window | None = None,
        *,
        fallback: Fallback = "local",
        retry_s: float = 1.0,
    ) -> None:
        self._policy = policy
        self._local = local
        self._clock = clock
        self._shared = shared
        self._fallback = fallback
        self._retry_s = retry_s
        self._down_until: float | None = None  # monotonic; None while Redis answers
        self._tasks: set[asyncio.Task[None]] = set()

    async def admit(
        self,
        ctx: RequestContext,
        request: ChatRequest,
        decision: RouteDecision,
        tokens: int | None = None,
    ) -> tuple[RouteDecision, Grant | None]:
        """Charge one request and `tokens` (default: the chat prompt's estimate times `n`)."""
        limits = self._policy().rate_limits
        if limits.empty:
            return decision, None
        scopes = tuple(scopes_for(limits, ctx.tenant, ctx.key_id, request.model))
        if not scopes:
            return decision, None
        if tokens is None:
            prompt = decision.prompt_tokens or estimate_prompt_tokens(request)
            tokens = prompt * (request.n or 1)
        taken, windows = await self._take(scopes, ctx.request_id, tokens)
        headers = rate_headers(scopes, taken.scopes)
        if not taken.allowed:
            wait_ms = max(u.wait_ms for u in taken.scopes)
            full = [s.name for s, u in zip(scopes, taken.scopes, strict=True) if u.wait_ms]
            headers["retry-after"] = str(max(1, math.ceil(wait_ms / 1000)))
            raise RateLimited(
                f"rate limit reached for {', '.join(full)}; retry in {_duration(wait_ms)}",
                headers=headers,
            )
        grant = Grant(scopes, ctx.request_id, tokens, windows)
        return dataclasses.replace(decision, headers=tuple(headers.items())), grant

    async def _take(
        self, scopes: Sequence[Scope], member: str, tokens: int
    ) -> tuple[Taken, tuple[Window, ...]]:
        shared = self._shared
        if shared is None:
            return await self._local.take(scopes, member, tokens), (self._local,)
        now = self._clock.monotonic()
        if self._down_until is None or now >= self._down_until:
            try:
                taken = await shared.take(scopes, member, tokens)
            except Exception as exc:  # whatever the failure, the shared count is unknown
                if self._down_until is None:
                    log.warning(
                        "rate limits: Redis unreachable (%s); %s",
                        type(exc).__name__,
                        "refusing" if self._fallback == "closed" else "counting per replica",
                    )
                self._down_until = now + self._retry_s
            else:
                if self._down_until is not None:
                    log.warning("rate limits: Redis reachable again")
                    self._down_until = None
                if taken.allowed:
                    self._local.record(scopes, member, tokens)
                return taken, (shared, self._local)
        if self._fallback == "closed":
            raise ServiceUnavailable(
                "rate limits cannot be checked right now; retry shortly",
                code="rate_limit_unavailable",
                headers={"retry-after": str(max(1, math.ceil(self._retry_s)))},
            )
        return await self._local.take(scopes, member, tokens), (self._local,)

    def settle(self, grant: Grant | None, used_tokens: int) -> None:
        """Charge the tokens the call really used instead of the estimate (off the path)."""
        if grant is None or used_tokens == grant.tokens:
            return
        task = asyncio.get_running_loop().create_task(self._adjust(grant, used_tokens))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _adjust(self, grant: Grant, used_tokens: int) -> None:
        delta = used_tokens - grant.tokens
        for window in grant.windows:
            try:
                await window.adjust(grant.scopes, grant.member, delta)
            except Exception as exc:  # the estimate stays charged; it ages out in a minute
                log.debug("rate limit token correction failed (%s)", type(exc).__name__)


def rate_headers(scopes: Sequence[Scope], seen: Sequence[Usage]) -> dict[str, str]:
    """OpenAI's `x-ratelimit-*` headers for the tightest limit of each kind."""
    out: dict[str, str] = {}
    pairs = list(zip(scopes, seen, strict=True))
    for kind in ("requests", "tokens"):
        limited = [(_limit(s, kind), u) for s, u in pairs if _limit(s, kind)]
        if not limited:
            continue
        limit, u = min(limited, key=lambda p: p[0] - _used(p[1], kind))
        out[f"x-ratelimit-limit-{kind}"] = str(limit)
        out[f"x-ratelimit-remaining-{kind}"] = str(max(0, limit - _used(u, kind)))
        out[f"x-ratelimit-reset-{kind}"] = _duration(u.wait_ms or u.reset_ms)
    return out


def _limit(scope: Scope, kind: str) -> int:
    return scope.requests_per_minute if kind == "requests" else scope.tokens_per_minute


def _used(usage: Usage, kind: str) -> int:
    return usage.requests if kind == "requests" else usage.tokens


def _duration(ms: int) -> str:
    """OpenAI's spelling of a wait: `20ms`, `1.5s`, `1m0s`."""
    if ms < 1000:
        return f"{max(ms, 0)}ms"
    minutes, rest = divmod(ms, 60_000)
    seconds = f"{rest / 1000:.3f}".rstrip("0").rstrip(".")
    return f"{minutes}m{seconds}s" if minutes else f"{seconds}s"
