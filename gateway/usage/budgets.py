"""Monthly budgets: atomic reservations before a call, settlement in the ledger transaction.

Reserve: one transaction that, for each budget of the request, rolls the counters over when a
new month began, then `UPDATE budgets SET reserved = reserved + :a WHERE id = :id AND
spent + reserved + :a <= amount_limit` (a row-locking conditional update, so replicas sharing
the database can never both take the last room) and inserts a hold per budget. If any budget
has no room the whole reservation is rolled back and the exhausted budgets are returned.

Settle: inside `write_entries`' transaction, each new ledger row turns its holds into spend
(`reserved -= hold`, `spent += real cost`), so a replayed journal settles nothing twice.
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

from gateway.usage.ledger import Entry, entry_cost
from gateway.usage.pricing import money
from gateway.usage.tables import BudgetHoldRow, BudgetRow

_B = BudgetRow.__table__  # type: ignore[attr-defined]
_H = BudgetHoldRow.__table__  # type: ignore[attr-defined]


def period_of(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m")


def budget_id(scope: str, subject: str) -> str:
    return f"{scope}:{subject}"


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

    @property
    def remaining(self) -> Decimal:
        return self.limit - self.spent - self.reserved

    def describe(self) -> str:
        who = f"tenant '{self.subject}'" if self.scope == "tenant" else f"key '{self.subject}'"
        return f"monthly budget of {who} ({self.limit.normalize():f} {self.currency})"


def _view(row: object) -> BudgetView:
    r = row._mapping  # type: ignore[attr-defined]
    return BudgetView(r["id"], r["scope"], r["subject"], r["currency"], r["amount_limit"],
                      r["spent"], r["reserved"], r["period"])


def set_budget(engine: Engine, scope: str, subject: str, amount: Decimal, currency: str,
               now: float) -> None:
    """Create or change a budget's limit (the counters of the running month are kept)."""
    bid = budget_id(scope, subject)
    ts = datetime.fromtimestamp(now, UTC)
    with engine.begin() as conn:
        found = conn.execute(select(_B.c.id).where(_B.c.id == bid)).first()
        if found is None:
            conn.execute(_B.insert().values(
                id=bid, scope=scope, subject=subject, currency=currency, amount_limit=amount,
                period=period_of(now), spent=Decimal(0), reserved=Decimal(0), updated_at=ts))
        else:
            conn.execute(update(_B).where(_B.c.id == bid).values(
                amount_limit=amount, currency=currency, updated_at=ts))


def load_budgets(engine: Engine, ids: Sequence[str]) -> list[BudgetView]:
    if not ids:
        return []
    with engine.connect() as conn:
        return [_view(r) for r in conn.execute(select(_B).where(_B.c.id.in_(list(ids))))]


def all_budgets(engine: Engine) -> list[BudgetView]:
    with engine.connect() as conn:
        return [_view(r) for r in conn.execute(select(_B).order_by(_B.c.id))]


def reserve(engine: Engine, request_id: str, amounts: dict[str, Decimal], now: float
            ) -> list[BudgetView]:
    """Hold `amounts[budget_id]` on each budget; [] on success, else the budgets without room
    (and nothing is held)."""
    period = period_of(now)
    ts = datetime.fromtimestamp(now, UTC)
    with engine.begin() as conn:
        exhausted: list[BudgetView] = []
        for bid in sorted(amounts):  # a fixed order: no deadlock between replicas
            amount = money(amounts[bid])
            conn.execute(update(_B).where(_B.c.id == bid, _B.c.period != period).values(
                period=period, spent=Decimal(0), reserved=Decimal(0), updated_at=ts))
            took = conn.execute(update(_B).where(
                _B.c.id == bid, _B.c.spent + _B.c.reserved + amount <= _B.c.amount_limit,
            ).values(reserved=_B.c.reserved + amount, updated_at=ts))
            if took.rowcount != 1:
                row = conn.execute(select(_B).where(_B.c.id == bid)).first()
                if row is not None:
                    exhausted.append(_view(row))
                continue
            conn.execute(_H.insert().values(request_id=request_id, budget_id=bid,
                                            period=period, amount=amount, created_at=ts))
        if exhausted:
            conn.rollback()
    return exhausted


def release(engine: Engine, request_id: str) -> None:
    """Give back a request's holds without spending (it was refused before any call)."""
    with engine.begin() as conn:
        _settle_one(conn, request_id, None)


def settle(conn: Connection, entries: Sequence[Entry]) -> None:
    """Turn the holds of newly written ledger rows into spend (called by write_entries).
    One query finds which rows of the batch hold anything (most hold nothing when no budget
    applies), instead of one query per row: on the 2-core CI machine that per-row query was
    the largest single cost of the ledger writer (bench/, issue 7)."""
    by_id = {str(e["id"]): e for e in entries}
    ids = list(by_id)
    holding: set[str] = set()
    for i in range(0, len(ids), 500):
        holding.update(conn.execute(select(_H.c.request_id).where(
            _H.c.request_id.in_(ids[i:i + 500]))).scalars())
    for rid in ids:
        if rid in holding:
            _settle_one(conn, rid, by_id[rid])


def _settle_one(conn: Connection, request_id: str, entry: Entry | None) -> None:
    holds = conn.execute(select(_H).where(_H.c.request_id == request_id)).all()
    if not holds:
        return
    for h in holds:
        hold = h._mapping
        row = conn.execute(select(_B.c.currency).where(_B.c.id == hold["budget_id"])).first()
        spend = Decimal(0) if entry is None else _spend_in(entry, row[0] if row else "USD",
                                                          hold["amount"])
        conn.execute(update(_B).where(_B.c.id == hold["budget_id"],
                                      _B.c.period == hold["period"]).values(
            reserved=_B.c.reserved - hold["amount"], spent=_B.c.spent + spend))
    conn.execute(delete(_H).where(_H.c.request_id == request_id))


def _spend_in(entry: Entry, currency: str, held: Decimal) -> Decimal:
    """The request's real cost in the budget's currency; the held amount when unknown."""
    cost = entry_cost(entry, "cost_try" if currency == "TRY" else "cost")
    return held if cost is None else cost


def sweep_stale_holds(engine: Engine, older_than: float, now: float) -> int:
    """Release holds of requests that never produced a ledger row (their process died)."""
    cutoff = datetime.fromtimestamp(now - older_than, UTC)
    with engine.begin() as conn:
        ids = [r[0] for r in conn.execute(select(_H.c.request_id).where(
            _H.c.created_at < cutoff).distinct())]
        for rid in ids:
            _settle_one(conn, rid, None)
    return len(ids)
