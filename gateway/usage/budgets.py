"""Budgets over a day, an ISO week or a month: atomic reservations before a call, settlement
in the ledger transaction. (Scopes, spans, period keys and ids: usage/budget_periods.py.)

Reserve: one transaction that, for each budget of the request, rolls the counters over when a
new period of its span began, then `UPDATE budgets SET reserved = reserved + :a WHERE id = :id AND
spent + reserved + :a <= amount_limit` (a row-locking conditional update, so replicas sharing
the database can never both take the last room) and inserts a hold per budget. If any budget
has no room the whole reservation is rolled back and the exhausted budgets are returned.

Settle: inside `write_entries`' transaction, each new ledger row turns its holds into spend
(`reserved -= hold`, `spent += real cost`, summed per budget over the batch), so a replayed
journal settles nothing twice.
The reservation is an upper bound of the request's cost (prompt estimate + its output-token
limit at the most expensive candidate), so spend stays within the budget; a request whose
real cost exceeds its estimate is the only way over it, by at most that request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection, Engine

from gateway.usage.budget_periods import ADJECTIVE, budget_id, period_key, span_of_id, who
from gateway.usage.bulk import select_in
from gateway.usage.ledger import Entry, entry_cost
from gateway.usage.pricing import money
from gateway.usage.tables import BudgetAlertRow, BudgetHoldRow, BudgetRow

_B = BudgetRow.__table__  # type: ignore[attr-defined]
_H = BudgetHoldRow.__table__  # type: ignore[attr-defined]

__all__ = ["BudgetView", "budget_id", "period_key"]


@dataclass(frozen=True, slots=True)
class BudgetView:
    id: str
    scope: str
    subject: str
    currency: str
    limit: Decimal
    spent: Decimal
    reserved: Decimal
    period: str
    span: str = "month"
    tenant: str | None = None

    @property
    def remaining(self) -> Decimal:
        return self.limit - self.spent - self.reserved

    def used_fraction(self, now: float) -> Decimal:
        """Spent / limit in the running period (0 once a new period began, before the first
        request of that period rolls the counters over)."""
        if self.period != period_key(self.span, now) or self.limit <= 0:
            return Decimal(0)
        return self.spent / self.limit

    def exhausted(self, now: float) -> bool:
        """No room left in the running period for any request that costs something."""
        return self.period == period_key(self.span, now) and self.remaining <= 0

    def describe(self) -> str:
        adjective = ADJECTIVE.get(self.span, self.span)
        return (
            f"{adjective} budget of {who(self.scope, self.subject)} "
            f"({self.limit.normalize():f} {self.currency})"
        )


# the columns a BudgetView is made of, in the order of its fields
_VIEW_COLUMNS = (
    "id",
    "scope",
    "subject",
    "currency",
    "amount_limit",
    "spent",
    "reserved",
    "period",
    "span",
    "tenant",
)


def _view(row: object) -> BudgetView:
    r = row._mapping  # type: ignore[attr-defined]
    return BudgetView(*(r[c] for c in _VIEW_COLUMNS))


def set_budget(
    engine: Engine,
    scope: str,
    subject: str,
    amount: Decimal,
    currency: str,
    now: float,
    *,
    span: str = "month",
    tenant: str | None = None,
) -> str:
    """Create or change a budget's limit (the counters of the running period are kept);
    returns its id. Callers check scope, subject and span (usage/budget_admin.py)."""
    bid = budget_id(scope, subject, span)
    ts = datetime.fromtimestamp(now, UTC)
    with engine.begin() as conn:
        found = conn.execute(select(_B.c.id).where(_B.c.id == bid)).first()
        if found is None:
            conn.execute(
                _B.insert().values(
                    id=bid,
                    scope=scope,
                    subject=subject,
                    currency=currency,
                    amount_limit=amount,
                    span=span,
                    tenant=tenant,
                    period=period_key(span, now),
                    spent=Decimal(0),
                    reserved=Decimal(0),
                    updated_at=ts,
                )
            )
        else:
            conn.execute(
                update(_B)
                .where(_B.c.id == bid)
                .values(amount_limit=amount, currency=currency, updated_at=ts)
            )
    return bid


def delete_budget(engine: Engine, bid: str) -> bool:
    """Remove a budget (its holds settle into nothing; its alerts go with it)."""
    alerts = BudgetAlertRow.__table__  # type: ignore[attr-defined]
    with engine.begin() as conn:
        gone = conn.execute(delete(_B).where(_B.c.id == bid)).rowcount
        conn.execute(delete(alerts).where(alerts.c.budget_id == bid))
    return gone == 1


def load_budgets(engine: Engine, ids: Sequence[str]) -> list[BudgetView]:
    if not ids:
        return []
    with engine.connect() as conn:
        return [_view(r) for r in conn.execute(select(_B).where(_B.c.id.in_(list(ids))))]


def all_budgets(engine: Engine) -> list[BudgetView]:
    with engine.connect() as conn:
        return [_view(r) for r in conn.execute(select(_B).order_by(_B.c.id))]


def reserve(
    engine: Engine, request_id: str, amounts: dict[str, Decimal], now: float
) -> list[BudgetView]:
    """Hold `amounts[budget_id]` on each budget; [] on success, else the budgets without room
    (and nothing is held)."""
    ts = datetime.fromtimestamp(now, UTC)
    with engine.begin() as conn:
        exhausted: list[BudgetView] = []
        for bid in sorted(amounts):  # a fixed order: no deadlock between replicas
            amount = money(amounts[bid])
            period = period_key(span_of_id(bid), now)
            conn.execute(
                update(_B)
                .where(_B.c.id == bid, _B.c.period != period)
                .values(period=period, spent=Decimal(0), reserved=Decimal(0), updated_at=ts)
            )
            took = conn.execute(
                update(_B)
                .where(
                    _B.c.id == bid,
                    _B.c.spent + _B.c.reserved + amount <= _B.c.amount_limit,
                )
                .values(reserved=_B.c.reserved + amount, updated_at=ts)
            )
            if took.rowcount != 1:
                row = conn.execute(select(_B).where(_B.c.id == bid)).first()
                if row is not None:
                    exhausted.append(_view(row))
                continue
            conn.execute(
                _H.insert().values(
                    request_id=request_id,
                    budget_id=bid,
                    period=period,
                    amount=amount,
                    created_at=ts,
                )
            )
        if exhausted:
            conn.rollback()
    return exhausted


def release(engine: Engine, request_id: str) -> None:
    """Give back a request's holds without spending (it was refused before any call)."""
    with engine.begin() as conn:
        _settle_holds(conn, [request_id], {})


def settle(conn: Connection, entries: Sequence[Entry]) -> None:
    """Turn the holds of newly written ledger rows into spend (called by write_entries).

    Per batch: one query reads every hold of the batch's rows (most rows hold nothing when
    no budget applies), one the currencies of the budgets they hold, then ONE update per
    distinct (budget, period) with the batch's summed release and spend, and one delete of
    the holds. (Before: a query per row, then four statements per holding row; that was the
    ledger writer's largest cost in the hot-path profile.)"""
    by_id = {str(e["id"]): e for e in entries}
    _settle_holds(conn, list(by_id), by_id)


def _settle_holds(conn: Connection, ids: Sequence[str], entries: dict[str, Entry]) -> None:
    """Settle the holds of `ids`: with the real cost where `entries` has the request, else
    released without spend."""
    if len(ids) > 1 and conn.exec_driver_sql("SELECT 1 FROM budget_holds LIMIT 1").first() is None:
        # no hold at all (no budget set, or none in flight): nothing to look up per id. A
        # hold of a request being settled was committed before its request was served, so
        # before this batch; it cannot be missed here.
        return
    holds = select_in(conn, _H, "request_id", ids, ("request_id", "budget_id", "period", "amount"))
    if not holds:
        return
    bids = sorted({h[1] for h in holds})
    currency: dict[str, str] = dict(select_in(conn, _B, "id", bids, ("id", "currency")))
    sums: dict[tuple[str, str], list[Decimal]] = {}
    for rid, bid, period, amount in holds:
        entry = entries.get(rid)
        spend = Decimal(0) if entry is None else _spend_in(entry, currency.get(bid, "USD"), amount)
        acc = sums.setdefault((bid, period), [Decimal(0), Decimal(0)])
        acc[0] += amount
        acc[1] += spend
    # driver SQL, what SQLAlchemy rendered for the Core UPDATE / DELETE (less CPU per batch)
    to_db = _B.c.reserved.type.dialect_impl(conn.dialect).bind_processor(conn.dialect)
    m = "%s" if conn.dialect.name == "postgresql" else "?"
    params = [
        (to_db(spend), to_db(held), bid, period)
        if to_db is not None
        else (spend, held, bid, period)
        for (bid, period), (held, spend) in sorted(sums.items())
    ]  # fixed lock order
    conn.exec_driver_sql(
        f"UPDATE budgets SET spent=(budgets.spent + {m}), "
        f"reserved=(budgets.reserved - {m}) "
        f"WHERE budgets.id = {m} AND budgets.period = {m}",
        params,
    )
    held_ids = sorted({h[0] for h in holds})
    for i in range(0, len(held_ids), 500):
        part = held_ids[i : i + 500]
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("DELETE FROM budget_holds WHERE request_id = ANY(%s)", (part,))
        else:
            conn.exec_driver_sql(
                f"DELETE FROM budget_holds WHERE request_id IN ({', '.join('?' * len(part))})",
                tuple(part),
            )


def _spend_in(entry: Entry, currency: str, held: Decimal) -> Decimal:
    """The request's real cost in the budget's currency; the held amount when unknown."""
    cost = entry_cost(entry, "cost_try" if currency == "TRY" else "cost")
    return held if cost is None else cost


def sweep_stale_holds(engine: Engine, older_than: float, now: float) -> int:
    """Release holds of requests that never produced a ledger row (their process died)."""
    cutoff = datetime.fromtimestamp(now - older_than, UTC)
    with engine.begin() as conn:
        ids = [
            r[0]
            for r in conn.execute(
                select(_H.c.request_id).where(_H.c.created_at < cutoff).distinct()
            )
        ]
        _settle_holds(conn, ids, {})
    return len(ids)
