"""Render a `Report` as JSON-ready records, CSV or an aligned text table.

Money is written as strings, never floats. JSON keeps every amount at full precision (the exact
Decimal, trailing zeros dropped). CSV and table show `cost`, `cost_try`, `cloud_equivalent` and
`saving` with 6 decimals and the billing figures (net / KDV / gross, USD and TRY) rounded half-up
to the cent / kuruş; both are rounded from the exact figure, so a displayed total may differ
from the sum of the displayed rows by the rounding. CSV and table end with one TOTAL row per
currency, in the first group column. The rates used (the policy's `billing.usd_try` and
`billing.kdv_rate`) are printed in the table's first line, in CSV columns and in the JSON
`rates` and `notes`; a rate the policy does not set is said to be missing, never shown as zero.
"""

from __future__ import annotations

import csv
import io
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from gateway.usage.reports import Money, Rates, Report, ReportRow

FORMATS = ("table", "csv", "json")
BILLING: tuple[str, ...] = Money.FIELDS
METRICS: tuple[str, ...] = ("currency", "requests", "errors", "error_rate", "prompt_tokens",
                            "completion_tokens", "total_tokens", "cost", "cost_try", *BILLING,
                            "on_prem_share", "p95_ttft_ms", "cloud_equivalent", "saving")
RATE_COLUMNS: tuple[str, ...] = ("usd_try", "kdv_rate")  # CSV only: the rates used, per row
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
    return {"currency": row.currency, "requests": row.requests, "errors": row.errors,
            "error_rate": round(row.error_rate, 6), "prompt_tokens": row.prompt_tokens,
            "completion_tokens": row.completion_tokens, "total_tokens": row.total_tokens,
            "cost": six(row.cost), "cost_try": six(row.cost_try),
            **{k: tax(v) for k, v in figures.items()},
            "on_prem_share": round(row.on_prem_share, 6),
            "p95_ttft_ms": None if p95 is None else round(p95, 1),
            "cloud_equivalent": six(row.cloud_equivalent), "saving": six(row.saving)}


def rates_line(rates: Rates) -> str:
    """The rates used, in words, for the table header and the dashboard."""
    fx = (f"1 USD = {rate_text(rates.usd_try)} TRY (policy billing.usd_try)"
          if rates.usd_try is not None
          else "TRY: no rate, billing.usd_try is not set in the policy (TRY figures not shown)")
    kdv = (f"KDV {percent(rates.kdv_rate)} (policy billing.kdv_rate)"
           if rates.kdv_rate is not None
           else "KDV: no rate, billing.kdv_rate is not set in the policy "
                "(KDV and totals with KDV not shown)")
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
        "usd_try": (f"net_try, kdv_try and gross_try use 1 USD = {format(fx, 'f')} TRY, the "
                    "policy's billing.usd_try when the report was made" if fx is not None else
                    "billing.usd_try is not set in the policy: the TRY figures are null, "
                    "not zero"),
        "kdv": (f"KDV at {percent(kdv)} (the policy's billing.kdv_rate) of the cost before "
                "tax, shown separately: gross = net + kdv" if kdv is not None else
                "billing.kdv_rate is not set in the policy: kdv_* and gross_* are null, "
                "not zero"),
        "money": "exact decimal strings; the CSV and table round half-up to the cent / kuruş",
    }


def to_json(report: Report) -> dict[str, Any]:
    q = report.query
    rates = report.rates
    return {
        "from": q.start.isoformat(), "to": q.end.isoformat(), "group_by": list(q.group_by),
        "tenant": q.tenant,
        "rates": {"usd_try": _as_written(rates.usd_try),
                  "kdv_rate": _as_written(rates.kdv_rate),
                  "source": "policy billing"},
        "rows": [{**r.group, **metrics(r, rates, full=True)} for r in report.rows],
        "totals": [metrics(t, rates, full=True) for t in report.totals],
        "notes": _notes(rates),
    }


def _records(report: Report, with_rates: bool) -> tuple[list[str], list[list[Any]]]:
    rates = report.rates
    extra = [rate_text(rates.usd_try), rate_text(rates.kdv_rate)] if with_rates else []
    header = [*report.query.group_by, *METRICS, *(RATE_COLUMNS if with_rates else ())]
    lines: list[list[Any]] = []
    for r in report.rows:
        m = metrics(r, rates)
        lines.append([r.group[g] for g in report.query.group_by] + [m[k] for k in METRICS]
                     + extra)
    for t in report.totals:
        m = metrics(t, rates)
        blanks = [""] * (len(report.query.group_by) - 1)
        lines.append(["TOTAL", *blanks] + [m[k] for k in METRICS] + extra)
    return header, lines


def to_csv(report: Report) -> str:
    header, lines = _records(report, with_rates=True)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(header)
    for line in lines:
        w.writerow(["" if v is None else v for v in line])
    return buf.getvalue()


def to_table(report: Report) -> str:
    header, lines = _records(report, with_rates=False)
    cells = [header] + [["-" if v is None else str(v) for v in line] for line in lines]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    n_keys = len(report.query.group_by)

    def fmt(row: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < n_keys else c.rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths, strict=True)))

    out = [rates_line(report.rates), fmt(cells[0]), "  ".join("-" * w for w in widths)]
    out += [fmt(r) for r in cells[1:]]
    q = report.query
    scope = f" tenant={q.tenant}" if q.tenant else ""
    out.append(f"({q.start.isoformat()} .. {q.end.isoformat()} UTC{scope}; p95 TTFT from "
               "bucketed rollups; net/kdv/gross rounded half-up to the cent/kuruş)")
    return "\n".join(out) + "\n"
