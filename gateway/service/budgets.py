"""Budget enforcement on the request path.

* A request's budgets: its tenant's, its app's (`tenant/app`), its key's, its alias's and one
  per tag it carries (`name=value`), each over a day, an ISO week and/or a month.
* `state_for(ctx)` (sync, for the policy engine): the request's budgets that are already
  exhausted, from a snapshot refreshed every `refresh_s` seconds (no I/O on the hot path).
* `admit(ctx, request, decision)` (async, before the call): an atomic reservation of the
  request's upper-bound cost on each of its budgets (usage/budgets.py); the ledger write settles
  it with the real cost. No room: `refuse` -> 429 naming the budget; `on_prem_only` -> only
  the decision's on-prem candidates stay (they are not charged against the budget).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Engine

from gateway.core.clock import Clock
from gateway.core.errors import RateLimited
from gateway.core.types import ChatRequest, RequestContext
from gateway.policy.inputs import NO_BUDGET_LIMITS, BudgetState, ExhaustedBudget
from gateway.providers.tokens import estimate_prompt_tokens
from gateway.usage import budgets as store
from gateway.usage.budget_periods import SPANS
from gateway.usage.pricing import Pricer, cost_of

log = logging.getLogger("gateway.budgets")

PolicyNow = Callable[[], Any]  # -> gateway.policy.schema.Policy


Tags = Callable[[RequestContext, ChatRequest], str | None]  # -> "k=v,..." (attribution.py)
Exhausted = Callable[[list[store.BudgetView]], None]  # told off the path (budget alerts)


def subjects(
    ctx: RequestContext, alias: str | None = None, tags: str | None = None
) -> list[tuple[str, str]]:
    """(scope, subject) of every budget that may apply to the request."""
    out = [("tenant", ctx.tenant), ("app", f"{ctx.tenant}/{ctx.app}")]
    if ctx.key_id:
        out.append(("key", ctx.key_id))
    if alias:
        out.append(("alias", alias))
    out.extend(("tag", t) for t in (tags.split(",") if tags else ()))
    return out


def budget_ids(ctx: RequestContext, alias: str | None = None, tags: str | None = None) -> list[str]:
    return [
        store.budget_id(scope, subject, span)
        for scope, subject in subjects(ctx, alias, tags)
        for span in SPANS
    ]


class BudgetGate:
    def __init__(
        self,
        engine: Engine,
        policy: PolicyNow,
        pricer: Pricer,
        clock: Clock,
        *,
        refresh_s: float = 1.0,
        sweep_every_s: float = 60.0,
        stale_after_s: float = 3600.0,
        backlog: Callable[[], int] | None = None,
        tags: Tags | None = None,
        on_exhausted: Exhausted | None = None,
    ) -> None:
        self._engine = engine
        self._policy = policy
        self._pricer = pricer
        self._clock = clock
        self._refresh_s = refresh_s
        # holds older than `stale_after_s` belong to requests whose process died (a live
        # request settles its hold when its ledger row is written, well within that)
        self._sweep_every_s = sweep_every_s
        self._stale_after_s = stale_after_s
        self._backlog = backlog or (lambda: 0)
        self._tags = tags
        self._on_exhausted = on_exhausted
        self._snapshot: dict[str, store.BudgetView] = {}
        self._absent: dict[str, float] = {}  # budget id -> when the database last lacked it
        self._pending: asyncio.Future[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []

    # ---- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        await asyncio.to_thread(self.sync_policy_budgets)
        await self.refresh()
        self._tasks.append(asyncio.create_task(self._loop(), name="budget-snapshot"))
        if self._sweep_every_s > 0:
            self._tasks.append(asyncio.create_task(self._sweep_loop(), name="budget-sweep"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()

    async def sweep(self) -> int:
        """Release stale holds (budget reservations left by a dead process). Skipped while
        the ledger has entries not yet in the database: their rows may still settle holds."""
        if self._backlog() > 0:
            return 0
        n = await asyncio.to_thread(
            store.sweep_stale_holds, self._engine, self._stale_after_s, self._clock.now()
        )
        if n:
            log.warning(
                "released the budget holds of %d request(s) that never reached the "
                "ledger (older than %.0f s)",
                n,
                self._stale_after_s,
            )
            await self.refresh()
        return n

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self._sweep_every_s)
            try:
                await self.sweep()
            except Exception as exc:  # database down: try again next round
                log.warning("budget hold sweep failed (%s)", type(exc).__name__)

    def sync_policy_budgets(self) -> None:
        """The policy's `billing.tenant_budgets` become (or update) budget rows."""
        billing = getattr(self._policy(), "billing", None)
        for tenant, spec in billing.tenant_budgets.items() if billing else ():
            store.set_budget(
                self._engine,
                "tenant",
                tenant,
                spec.amount,
                spec.currency,
                self._clock.now(),
                tenant=tenant,
            )

    async def refresh(self) -> None:
        views = await asyncio.to_thread(store.all_budgets, self._engine)
        self._snapshot = {v.id: v for v in views}

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self._refresh_s)
            try:
                await self.refresh()
            except Exception as exc:  # database down: keep the last snapshot
                log.warning("budget snapshot refresh failed (%s)", type(exc).__name__)

    def views(self) -> list[store.BudgetView]:
        return list(self._snapshot.values())

    # ---- engine input ----------------------------------------------------------------
    def state_for(self, ctx: RequestContext) -> BudgetState:
        # the engine sees the budgets of tenant, app and key (known before routing); alias
        # and tag budgets are held by the reservation in `admit`
        out = []
        now = self._clock.now()
        for bid in budget_ids(ctx):
            view = self._snapshot.get(bid)
            if view is not None and view.exhausted(now):
                out.append(ExhaustedBudget(view.describe(), self._action(view)))
        return BudgetState(tuple(out)) if out else NO_BUDGET_LIMITS

    def _action(self, view: store.BudgetView) -> Any:
        billing = getattr(self._policy(), "billing", None)
        return billing.action_for(view.scope, view.subject) if billing else "refuse"

    # ---- reservation -----------------------------------------------------------------
    async def admit(self, ctx: RequestContext, request: ChatRequest, decision: Any) -> Any:
        """Reserve before the call; returns the decision to execute (maybe narrowed)."""
        tags = self._tags(ctx, request) if self._tags is not None else None
        wanted = budget_ids(ctx, request.model, tags)
        # tag values are the client's to choose: an unseen one never costs a database read
        # (a new tag budget holds from the next snapshot refresh, within `refresh_s`)
        fixed = budget_ids(ctx, request.model)
        if any(b not in self._snapshot for b in fixed):
            # a budget created since the last snapshot (e.g. `gateway keys create --budget`
            # right after start-up) must hold from its first request, not a refresh later;
            # concurrent requests wait for the same look-up instead of slipping past it
            if self._recheck(fixed) and (self._pending is None or self._pending.done()):
                self._pending = asyncio.ensure_future(self.refresh())
            if self._pending is not None and not self._pending.done():
                with contextlib.suppress(Exception):  # database down: the last snapshot
                    await asyncio.shield(self._pending)
        ids = [b for b in wanted if b in self._snapshot]
        cloud = [c for c in decision.candidates if not self._on_prem(c)]
        if not ids or not cloud:
            return decision
        usd = self.estimate_usd(request, cloud, getattr(decision, "prompt_tokens", None))
        amounts = {b: self._in_currency(usd, self._snapshot[b].currency) for b in ids}
        exhausted = await asyncio.to_thread(
            store.reserve, self._engine, ctx.request_id, amounts, self._clock.now()
        )
        if not exhausted:
            return decision
        if self._on_exhausted is not None:
            self._on_exhausted(exhausted)
        for view in exhausted:
            if self._action(view) == "refuse":
                raise RateLimited(f"the {view.describe()} is exhausted", code="budget_exhausted")
        keep = tuple(c for c in decision.candidates if self._on_prem(c))
        if not keep:
            names = ", ".join(v.describe() for v in exhausted)
            raise RateLimited(
                f"the {names} is exhausted and no on-prem backend can serve",
                code="budget_exhausted",
            )
        return dataclasses.replace(decision, candidates=keep)

    def _recheck(self, wanted: list[str]) -> bool:
        """Whether to look in the database for budgets missing from the snapshot: at most once
        per refresh interval per id (ids with no budget at all are the common case)."""
        now = self._clock.monotonic()
        due = False
        for b in wanted:
            if b in self._snapshot:
                continue
            seen = self._absent.get(b)
            if seen is None or now - seen >= self._refresh_s:
                self._absent[b] = now
                due = True
        if len(self._absent) > 10_000:
            self._absent.clear()
        return due

    def estimate_usd(
        self, request: ChatRequest, backends: list[str], prompt_tokens: int | None = None
    ) -> Decimal:
        """An upper bound: the estimated prompt and the output-token limit at the most
        expensive candidate (unknown prices count as zero: they cannot be bounded).
        `prompt_tokens`: the estimate the router already made for this request."""
        policy = self._policy()
        out = request.token_limit or policy.defaults.default_output_tokens
        prompt = prompt_tokens if prompt_tokens else estimate_prompt_tokens(request)
        costs = [
            cost_of(u, prompt, out)
            for b in backends
            if (u := self._pricer.unit_price(b)) is not None
        ]
        # a request for `n` choices is `n` calls (service/choices.py)
        return max(costs, default=Decimal(0)) * (request.n or 1)

    def _in_currency(self, usd: Decimal, currency: str) -> Decimal:
        if currency == "USD":
            return usd
        rate = self._pricer.fx_rate_try()
        if rate is None:
            raise RateLimited(
                "a TRY budget applies but the policy sets no billing.usd_try rate",
                code="budget_misconfigured",
            )
        return usd * rate

    def _on_prem(self, backend: str) -> bool:
        spec = self._policy().backends.get(backend)
        return spec is not None and spec.zone == "on_prem"
