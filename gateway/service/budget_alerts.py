"""Budget alerts, off the request path: a background loop that notices budgets reaching 50, 80
and 100 % of their limit in their running period, records each alert once in the database
(usage/budget_alerts.py) and delivers it as a signed webhook (service/webhook.py), retried
with exponential backoff until it is answered 2xx or `attempts` run out.

The request path only calls `note_exhausted` (a refused reservation: the 100 % alert), which
remembers the budgets in memory for the next round; it never waits for the database or the
receiver.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.engine import Engine

from gateway.core.clock import Clock
from gateway.service.webhook import Webhook, WebhookError
from gateway.usage import budget_alerts as outbox
from gateway.usage.budgets import BudgetView

log = logging.getLogger("gateway.budget_alerts")

Views = Callable[[], list[BudgetView]]
MAX_REFUSED = 10_000  # budgets remembered as refused between two rounds
MAX_KNOWN = 100_000  # alerts remembered as recorded (a cache: the primary key decides)


@dataclass(frozen=True, slots=True)
class Delivery:
    """How often budgets are checked, and how a delivery is retried: `attempts` at most, the
    first wait `backoff_s` (doubling), a claimed delivery left to another replica after
    `lease_s`."""

    check_s: float = 5.0
    attempts: int = 8
    backoff_s: float = 2.0
    lease_s: float = 60.0


class BudgetAlerter:
    def __init__(
        self,
        engine: Engine,
        views: Views,
        webhook: Webhook,
        clock: Clock,
        delivery: Delivery = Delivery(),
    ) -> None:
        self._engine = engine
        self._views = views
        self._webhook = webhook
        self._clock = clock
        self._check_s = delivery.check_s
        self._attempts = delivery.attempts
        self._backoff_s = delivery.backoff_s
        self._lease_s = delivery.lease_s
        self._known: set[outbox.AlertKey] = set()
        self._refused: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self._check_s > 0:
            self._task = asyncio.create_task(self._loop(), name="budget-alerts")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def note_exhausted(self, views: list[BudgetView]) -> None:
        """A reservation found these budgets without room (called on the request path)."""
        if len(self._refused) < MAX_REFUSED:
            self._refused.update(v.id for v in views)

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except Exception as exc:  # database down: the next round tries again
                log.warning("budget alerts round failed (%s)", type(exc).__name__)
            await asyncio.sleep(self._check_s)

    async def run_once(self) -> int:
        """Record newly reached thresholds, then deliver what is due; returns deliveries."""
        await self.detect()
        return await self.deliver()

    async def detect(self) -> int:
        now = self._clock.now()
        refused, self._refused = self._refused, set()
        views = self._views()
        if not self._known:
            self._known = await asyncio.to_thread(
                outbox.known, self._engine, {v.period for v in views}
            )
        new = [
            (v, t)
            for v in views
            for t in outbox.reached(v, now, v.id in refused)
            if outbox.AlertKey(v.id, v.period, t) not in self._known
        ]
        if not new:
            return 0
        n = await asyncio.to_thread(outbox.record, self._engine, new, now)
        if len(self._known) > MAX_KNOWN:  # old periods' alerts: the database still has them
            self._known.clear()
        self._known.update(outbox.AlertKey(v.id, v.period, t) for v, t in new)
        return n

    async def deliver(self) -> int:
        now = self._clock.now()
        due = await asyncio.to_thread(outbox.claim, self._engine, now, self._lease_s)
        sent = 0
        for item in due:
            try:
                await self._webhook.send(item.payload.encode(), self._clock.now())
            except WebhookError as exc:
                await asyncio.to_thread(self._failed, item, str(exc))
                continue
            await asyncio.to_thread(outbox.mark_sent, self._engine, item.key, self._clock.now())
            sent += 1
        return sent

    def _failed(self, item: outbox.Due, error: str) -> None:
        now = self._clock.now()
        k = item.key
        if item.attempts >= self._attempts:
            log.warning(
                "budget alert %s %d%% (%s) not delivered after %d attempts (%s); given up",
                k.budget_id,
                k.threshold,
                k.period,
                item.attempts,
                error,
            )
            outbox.mark_failed(self._engine, k, now, error, None)
            return
        wait = self._backoff_s * 2 ** (item.attempts - 1)
        log.warning(
            "budget alert %s %d%% delivery failed (%s); retry in %.0f s",
            k.budget_id,
            k.threshold,
            error,
            wait,
        )
        outbox.mark_failed(self._engine, k, now, error, now + wait)
