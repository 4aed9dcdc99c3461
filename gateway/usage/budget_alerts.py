"""Budget alerts in the database: which thresholds (50/80/100 %) a budget reached in a period,
and their webhook deliveries (an outbox every replica works from).

`record` inserts one row per (budget, period, threshold) and ignores one that exists: the
primary key is what makes an alert once per budget and period across replicas. `claim` takes
due rows with a conditional update (`claimed_until` in the past), so two replicas never send
the same row at once; a replica that dies mid-send leaves a claim that lapses and is retried.
The payload is built here, once, and sent byte for byte on every attempt: no prompt, no key
secret, no webhook secret is ever in it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Final

from sqlalchemy import ColumnElement, and_, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from gateway.usage.budget_periods import period_key
from gateway.usage.budgets import BudgetView
from gateway.usage.tables import BudgetAlertRow

THRESHOLDS: Final = (50, 80, 100)
_A = BudgetAlertRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class AlertKey:
    budget_id: str
    period: str
    threshold: int


@dataclass(frozen=True, slots=True)
class Due:
    key: AlertKey
    payload: str
    attempts: int  # this one included


def reached(view: BudgetView, now: float, refused: bool = False) -> list[int]:
    """The thresholds `view` has reached in its running period: spent / limit; and all of
    them once a request was refused for want of room (`refused`): a budget with no room is
    exhausted, however much of the limit its in-flight reservations still hold."""
    if refused and view.period == period_key(view.span, now):
        return list(THRESHOLDS)
    pct = view.used_fraction(now) * 100
    return [t for t in THRESHOLDS if pct >= t]


def payload(view: BudgetView, threshold: int, now: float) -> str:
    """The webhook body: figures and names only (Decimal amounts as strings)."""
    return json.dumps(
        {
            "type": "budget.threshold",
            "id": f"ba_{uuid.uuid4().hex}",
            "created": int(now),
            "budget": {
                "id": view.id,
                "scope": view.scope,
                "subject": view.subject,
                "tenant": view.tenant,
                "period": view.span,
                "period_key": view.period,
                "currency": view.currency,
                "limit": _amount(view.limit),
                "spent": _amount(view.spent),
            },
            "threshold": threshold,
            "used_percent": float(round(view.used_fraction(now) * 100, 2)),
        },
        separators=(",", ":"),
        sort_keys=True,
    )


def _amount(value: Decimal) -> str:
    return f"{value.normalize():f}"


def record(engine: Engine, alerts: Iterable[tuple[BudgetView, int]], now: float) -> int:
    """Insert the alerts not yet recorded; returns how many this call inserted."""
    ts = _dt(now)
    rows = [
        {
            "budget_id": v.id,
            "period": v.period,
            "threshold": t,
            "created_at": ts,
            "payload": payload(v, t, now),
            "attempts": 0,
            "next_at": ts,
        }
        for v, t in alerts
    ]
    if not rows:
        return 0
    with engine.begin() as conn:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        stmt = dialect.insert(_A).on_conflict_do_nothing(
            index_elements=["budget_id", "period", "threshold"]
        )
        inserted = 0
        for row in rows:
            inserted += conn.execute(stmt.values(**row)).rowcount
    return inserted


def known(engine: Engine, periods: Iterable[str]) -> set[AlertKey]:
    """The alerts recorded for these periods (a replica's memory after a restart)."""
    wanted = sorted(set(periods))
    if not wanted:
        return set()
    with engine.connect() as conn:
        rows = conn.execute(
            select(_A.c.budget_id, _A.c.period, _A.c.threshold).where(_A.c.period.in_(wanted))
        )
        return {AlertKey(*r) for r in rows}


def claim(engine: Engine, now: float, lease_s: float, limit: int = 20) -> list[Due]:
    """Take up to `limit` due deliveries for `lease_s` seconds (each one counts an attempt)."""
    ts = _dt(now)
    free = or_(_A.c.claimed_until.is_(None), _A.c.claimed_until < ts)
    due = and_(_A.c.sent_at.is_(None), _A.c.failed_at.is_(None), _A.c.next_at <= ts, free)
    out: list[Due] = []
    with engine.begin() as conn:
        rows = conn.execute(
            select(_A.c.budget_id, _A.c.period, _A.c.threshold, _A.c.payload, _A.c.attempts)
            .where(due)
            .order_by(_A.c.next_at, _A.c.budget_id, _A.c.threshold)
            .limit(limit)
        ).all()
    for bid, period, threshold, body, attempts in rows:
        with engine.begin() as conn:
            took = conn.execute(
                update(_A)
                .where(_pk(bid, period, threshold), due)
                .values(claimed_until=ts + timedelta(seconds=lease_s), attempts=attempts + 1)
            )
        if took.rowcount == 1:
            out.append(Due(AlertKey(bid, period, threshold), body, attempts + 1))
    return out


def mark_sent(engine: Engine, key: AlertKey, now: float) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(_A)
            .where(_pk(key.budget_id, key.period, key.threshold))
            .values(sent_at=_dt(now), claimed_until=None, last_error=None)
        )


def mark_failed(
    engine: Engine, key: AlertKey, now: float, error: str, retry_at: float | None
) -> None:
    """A failed attempt: tried again at `retry_at`, or given up for good when None."""
    values: dict[str, object] = {"claimed_until": None, "last_error": error[:64]}
    if retry_at is None:
        values["failed_at"] = _dt(now)
    else:
        values["next_at"] = _dt(retry_at)
    with engine.begin() as conn:
        conn.execute(
            update(_A).where(_pk(key.budget_id, key.period, key.threshold)).values(**values)
        )


def _pk(bid: str, period: str, threshold: int) -> ColumnElement[bool]:
    return and_(_A.c.budget_id == bid, _A.c.period == period, _A.c.threshold == threshold)


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)
