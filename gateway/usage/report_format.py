"""Render a `Report` as JSON-ready records, CSV or an aligned text table.

Money is written as strings, never floats. JSON keeps every amount at full precision (the exact
Decimal, trailing zeros dropped). CSV and table show `cost`, `cost_try`, `cloud_equivalent` and
`saving` with 6 decimals and the billing figures (net / KDV / gross, USD and TRY) rounded half-up
to the cent / kuruş; both are rounded from the exact figure, so a displayed total may differ
from the sum of the displayed rows by the rounding. CSV and table end with one TOTAL row per
currency, in the first group column. The rates used (the policy's `billing.usd_try` and
`billing.kdv_rate`) are printed in the table's first line, in CSV columns and in the JSON
`rates` and `notes`; a rate the policy does not set is said to be missing, never shown as zero.

A row (or total) that includes requests with no known price (`unpriced_requests` > 0) has
incomplete cost figures, and says so: JSON `"cost_complete": false` and a note; CSV a
`cost_complete` column (`true` / `false`); the table marks each of that row's money figures with
`*` and explains the mark in a footnote line under the table.
"""

from __future__ import annotations

import csv
import io
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from gateway.usage.reports import Money, Rates, Report, ReportRow

FORMATS = ("table", "csv", "json")
BILLING: tuple[str, ...] = Money.FIELDS
METRICS: tuple[str, ...] = (
    "currency",
    "requests",
    "errors",
    "error_rate",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "cost",
    "cost_try",
    *BILLING,
    "on_prem_share",
    "p95_ttft_ms",
    "cloud_equivalent",
    "saving",
    "unpriced_requests",
)
UNPRICED_TOKENS: tuple[str, ...] = ("unpriced_prompt_tokens", "unpriced_completion_tokens")
COST_FIGURES: tuple[str, ...] = ("cost", "cost_try", *BILLING, "cloud_equivalent", "saving")
RATE_COLUMNS: tuple[str, ...] = ("usd_try", "kdv_rate")  # CSV only: the rates used, per row
COMPLETE_COLUMN = "cost_complete"  # CSV only; the table marks the figures instead
INCOMPLETE_MARK = "*"
Q6 = Decimal("0.000001")
CENT = Decimal("0.01")
NOT_SET = "not set in policy"


def money(v: Decimal) -> str:
    """6 decimals, half-up (the per-request scale: most requests cost under a cent)."""
    return str(v.quantize(Q6, rounding=ROUND_HALF_UP))


def cents(v: Decimal | None) -> str | None:
    """To the cent / kuruş, half-up; None stays None (a missing rate, not a zero)."""
    return None if v is None else str(v.quantize(CENT, rounding=ROUND_HALF_UP))


def exact(v: Decimal | None) -> str | None:
    """The full-precision fixed-point string of an exact Decimal (no exponent, no trailing
    zeros after the point)."""
    if v is None:
        return None
    text = format(v, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def rate_text(v: Decimal | None) -> str:
    return NOT_SET if v is None else format(v, "f")


def _as_written(v: Decimal | None) -> str | None:
    return None if v is None else format(v, "f")


def percent(v: Decimal) -> str:
    return f"{exact(v * 100)}%"


def metrics(row: ReportRow, rates: Rates, full: bool = False) -> dict[str, Any]:
    """A row's figures; `full` = exact money strings (JSON), else display-rounded."""
    p95 = row.p95_ttft_ms
    six = exact if full else money
    tax = exact if full else cents
    figures = row.billing(rates).as_dict()
    return {
        "currency": row.currency,
        "requests": row.requests,
        "errors": row.errors,
        "error_rate": round(row.error_rate, 6),
        "prompt_tokens": row.prompt_tokens,
        "completion_tokens": row.completion_tokens,
        "total_tokens": row.total_tokens,
        "cost": six(row.cost),
        "cost_try": six(row.cost_try),
        **{k: tax(v) for k, v in figures.items()},
        "on_prem_share": round(row.on_prem_share, 6),
        "p95_ttft_ms": None if p95 is None else round(p95, 1),
        "cloud_equivalent": six(row.cloud_equivalent),
        "saving": six(row.saving),
        "unpriced_requests": row.unpriced_requests,
        "unpriced_prompt_tokens": row.unpriced_prompt_tokens,
        "unpriced_completion_tokens": row.unpriced_completion_tokens,
        "cost_complete": row.cost_complete,
    }


def unpriced_line(report: Report) -> str | None:
    """One sentence on the requests with no known price, or None when every cost is known."""
    n = sum(t.unpriced_requests for t in report.totals)
    if n == 0:
        return None
    total = sum(t.requests for t in report.totals)
    return (
        f"{n:,} of {total:,} requests had no known price (cost unknown, not zero): the "
        "cost, TRY and KDV figures marked incomplete leave them out, and cloud_equivalent "
        "and saving compare the priced requests only"
    )


def rates_line(rates: Rates) -> str:
    """The rates used, in words, for the table header and the dashboard."""
    fx = (
        f"1 USD = {rate_text(rates.usd_try)} TRY (policy billing.usd_try)"
        if rates.usd_try is not None
        else "TRY: no rate, billing.usd_try is not set in the policy (TRY figures not shown)"
    )
    kdv = (
        f"KDV {percent(rates.kdv_rate)} (policy billing.kdv_rate)"
        if rates.kdv_rate is not None
        else "KDV: no rate, billing.kdv_rate is not set in the policy "
        "(KDV and totals with KDV not shown)"
    )
    return f"rates: {fx}; {kdv}"


def _notes(rates: Rates) -> dict[str, str]:
    fx = rates.usd_try
    kdv = rates.kdv_rate
    return {
        "p95_ttft_ms": "upper bound of the fixed histogram bucket holding the 95th "
        "percentile, merged from daily rollups",
        "cloud_equivalent": "the same tokens on the cheapest cloud backend the policy "
        "allows for their data class (USD rows only)",
        "days": "UTC days, both ends inclusive",
        "cost_try": "TRY at the rate each request was priced with (from the ledger)",
        "usd_try": (
            f"net_try, kdv_try and gross_try use 1 USD = {format(fx, 'f')} TRY, the "
            "policy's billing.usd_try when the report was made"
            if fx is not None
            else "billing.usd_try is not set in the policy: the TRY figures are null, not zero"
        ),
        "kdv": (
            f"KDV at {percent(kdv)} (the policy's billing.kdv_rate) of the cost before "
            "tax, shown separately: gross = net + kdv"
            if kdv is not None
            else "billing.kdv_rate is not set in the policy: kdv_* and gross_* are null, not zero"
        ),
        "money": "exact decimal strings; the CSV and table round half-up to the cent / kuruş",
        "cost_complete": "false when unpriced_requests > 0: those requests had no known price "
        "(their cost is unknown, not zero) and are in none of the row's cost "
        "figures, which are therefore incomplete",
    }


def to_json(report: Report) -> dict[str, Any]:
    q = report.query
    rates = report.rates
    notes = _notes(rates)
    line = unpriced_line(report)
    if line is not None:
        notes["unpriced"] = line
    return {
        "from": q.start.isoformat(),
        "to": q.end.isoformat(),
        "group_by": list(q.group_by),
        "tenant": q.tenant,
        "rates": {
            "usd_try": _as_written(rates.usd_try),
            "kdv_rate": _as_written(rates.kdv_rate),
            "source": "policy billing",
        },
        "rows": [{**r.group, **metrics(r, rates, full=True)} for r in report.rows],
        "totals": [metrics(t, rates, full=True) for t in report.totals],
        "cost_complete": all(t.cost_complete for t in report.totals),
        "notes": notes,
    }


def _records(report: Report, csv_only: bool) -> tuple[list[str], list[list[Any]]]:
    """Header and lines; `csv_only` adds the CSV's columns (unpriced tokens, cost_complete,
    rates), else the money figures of an incomplete row carry `INCOMPLETE_MARK`."""
    rates = report.rates
    extra = [rate_text(rates.usd_try), rate_text(rates.kdv_rate)] if csv_only else []
    header = [
        *report.query.group_by,
        *METRICS,
        *((*UNPRICED_TOKENS, COMPLETE_COLUMN, *RATE_COLUMNS) if csv_only else ()),
    ]
    blanks = [""] * (len(report.query.group_by) - 1)
    lines: list[list[Any]] = []
    for r in [*report.rows, *report.totals]:
        m = metrics(r, rates)
        if csv_only:
            tail = [m[k] for k in UNPRICED_TOKENS] + [str(r.cost_complete).lower(), *extra]
        else:
            tail = []
            if not r.cost_complete:
                m.update({k: m[k] + INCOMPLETE_MARK for k in COST_FIGURES if m[k] is not None})
        keys = [r.group[g] for g in report.query.group_by] if r.group else ["TOTAL", *blanks]
        lines.append(keys + [m[k] for k in METRICS] + tail)
    return header, lines


def to_csv(report: Report) -> str:
    header, lines = _records(report, csv_only=True)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(header)
    for line in lines:
        w.writerow(["" if v is None else v for v in line])
    return buf.getvalue()


def to_table(report: Report) -> str:
    header, lines = _records(report, csv_only=False)
    cells = [header] + [["-" if v is None else str(v) for v in line] for line in lines]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    n_keys = len(report.query.group_by)

    def fmt(row: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < n_keys else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )

    out = [rates_line(report.rates), fmt(cells[0]), "  ".join("-" * w for w in widths)]
    out += [fmt(r) for r in cells[1:]]
    line = unpriced_line(report)
    if line is not None:
        out.append(f"{INCOMPLETE_MARK} cost incomplete: {line}")
    q = report.query
    scope = f" tenant={q.tenant}" if q.tenant else ""
    out.append(
        f"({q.start.isoformat()} .. {q.end.isoformat()} UTC{scope}; p95 TTFT from "
        "bucketed rollups; net/kdv/gross rounded half-up to the cent/kuruş)"
    )
    return "\n".join(out) + "\n"
