"""The dashboard's budget banner: the budgets the signed-in user can see that are at least 80 %
spent in their running period, or exhausted (no room for another request). Pure HTML from
figures; every name is escaped (a tenant, key, alias or tag value is anybody's text)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from html import escape

from gateway.usage.budgets import BudgetView

WARN_AT = Decimal("0.8")
_STYLE = {
    "exhausted": "background: #fee2e2; border: 1px solid #dc2626; color: #7f1d1d",
    "low": "background: #fef3c7; border: 1px solid #f59e0b; color: #78350f",
}
MAX_SHOWN = 20


def level(view: BudgetView, now: float) -> str | None:
    """`exhausted`, `low` (>= 80 % spent) or None."""
    if view.exhausted(now) or view.used_fraction(now) >= 1:
        return "exhausted"
    return "low" if view.used_fraction(now) >= WARN_AT else None


def banner(views: Sequence[BudgetView], now: float) -> str:
    flagged = [(lv, v) for v in views if (lv := level(v, now)) is not None]
    if not flagged:
        return ""
    flagged.sort(key=lambda p: (p[0] != "exhausted", -p[1].used_fraction(now), p[1].id))
    worst = flagged[0][0]
    items = "".join(_item(lv, v, now) for lv, v in flagged[:MAX_SHOWN])
    more = len(flagged) - MAX_SHOWN
    tail = f"<li>and {more} more (gateway budgets list)</li>" if more > 0 else ""
    title = "Budget exhausted" if worst == "exhausted" else "Budget running low"
    return (
        f'<div class="budget-banner" data-level="{worst}" role="alert" '
        f'style="{_STYLE[worst]}; padding: .6rem 1rem; border-radius: 6px; margin: .5rem 0">'
        f"<b>⚠ {title}</b><ul>{items}{tail}</ul></div>"
    )


def _item(lv: str, v: BudgetView, now: float) -> str:
    pct = v.used_fraction(now) * 100
    state = "exhausted" if lv == "exhausted" else f"{pct:.0f}% spent"
    return (
        f'<li data-budget="{escape(v.id, quote=True)}">{escape(v.describe())}: {state} '
        f"({v.spent:.2f} of {v.limit:.2f} {escape(v.currency)}, period {escape(v.period)})</li>"
    )
