"""The policy page's Simulate result: what the ledger's recorded requests cost and did, against
what the edited text would do with them (cost in USD and TRY with KDV, on-prem share, refused
requests, predicted SLO misses, traffic gained or lost per backend). Pure rendering of a
`Simulation`; every value is escaped."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from html import escape

from gateway.usage.reports import Money
from gateway.usage.simulate import Side, Simulation

UNKNOWN = "—"  # a figure that needs a rate the policy does not set


def _money(v: Decimal | None) -> str:
    return UNKNOWN if v is None else f"{v.quantize(Decimal('0.01')):,}"


def _usd(v: Decimal | None) -> str:
    # cloud prices per request are fractions of a cent: six places show the change
    return UNKNOWN if v is None else f"{v.quantize(Decimal('0.000001')):,}"


def _share(side: Side) -> str:
    served = side.requests - side.refused
    return f"{100 * side.on_prem / served:.1f} %" if served else UNKNOWN


def _delta(old: Decimal | int | None, new: Decimal | int | None, fmt: Callable[..., str]) -> str:
    if old is None or new is None:
        return UNKNOWN
    change = new - old
    return ("+" if change > 0 else "") + fmt(change)


Row = tuple[str, str, str, str, str]  # id, label, recorded, predicted, change


def _rows(sim: Simulation) -> list[Row]:
    """One row per figure."""
    old, new = sim.recorded, sim.predicted
    om, nm = old.billing(sim.rates), new.billing(sim.rates)

    def money_row(key: str, label: str, pick: Callable[[Money], Decimal | None]) -> Row:
        a, b = pick(om), pick(nm)
        fmt = _usd if key == "cost-usd" else _money
        return (key, label, fmt(a), fmt(b), _delta(a, b, fmt))

    def count_row(key: str, label: str, a: int, b: int) -> Row:
        return (key, label, f"{a:,}", f"{b:,}", _delta(a, b, lambda v: f"{v:,}"))

    return [
        count_row("requests", "requests", old.requests, new.requests),
        money_row("cost-usd", "cost USD (net)", lambda m: m.net_usd),
        money_row("cost-try", "cost TRY (net)", lambda m: m.net_try),
        money_row("cost-try-kdv", "cost TRY with KDV", lambda m: m.gross_try),
        ("on-prem", "on-prem share", _share(old), _share(new), ""),
        count_row("refused", "refused requests", old.refused, new.refused),
        count_row("slo-misses", "SLO misses", old.slo_misses, new.slo_misses),
        count_row("unpriced", "requests without a price", old.unpriced, new.unpriced),
    ]


def _traffic(sim: Simulation) -> str:
    old, new = sim.recorded.backends, sim.predicted.backends
    rows = "".join(
        f'<tr data-backend="{escape(b, quote=True)}"><td>{escape(b)}</td>'
        f"<td>{old.get(b, 0):,}</td><td>{new.get(b, 0):,}</td>"
        f"<td>{_delta(old.get(b, 0), new.get(b, 0), lambda v: f'{v:,}')}</td></tr>"
        for b in sorted(set(old) | set(new))
    )
    return (
        '<table id="sim-traffic"><tr><th>backend</th><th>recorded</th><th>predicted</th>'
        f"<th>gained / lost</th></tr>{rows}</table>"
    )


def render(sim: Simulation) -> str:
    q = sim.query
    scope = f"tenant {q.tenant}" if q.tenant else "every tenant"
    rates = sim.rates
    rate = (
        f"USD/TRY {rates.usd_try}, KDV {rates.kdv_rate}"
        if rates.usd_try is not None and rates.kdv_rate is not None
        else "No USD/TRY or KDV rate in the policy's billing section"
    )
    figures = "".join(
        f'<tr id="sim-{key}"><td>{escape(label)}</td><td class="recorded">{escape(a)}</td>'
        f'<td class="predicted">{escape(b)}</td><td>{escape(c)}</td></tr>'
        for key, label, a, b, c in _rows(sim)
    )
    return (
        '<section id="simulate-result"><h2>Simulation: the recorded requests under this text</h2>'
        f"<p>{escape(q.start.isoformat())} … {escape(q.end.isoformat())} (UTC days), "
        f'{escape(scope)}: <b id="sim-rows">{sim.rows:,}</b> recorded requests; '
        f'<b id="sim-changed">{sim.changed_backend:,}</b> would go to another backend; '
        f"{sim.served_without_tokens:,} refused before that would now be served (their cost "
        f"is unknown). {escape(rate)}.</p>"
        '<table id="sim-figures"><tr><th></th><th>recorded</th><th>predicted</th>'
        f"<th>change</th></tr>{figures}</table>"
        f"<h2>Traffic per backend</h2>{_traffic(sim)}</section>"
    )
