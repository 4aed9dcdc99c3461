"""Render a `Report` as JSON-ready records, CSV or an aligned text table.

Money is written as fixed-point strings (6 decimals), never floats. CSV and table end with one
TOTAL row per currency, in the first group column.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

from gateway.usage.reports import Report, ReportRow

FORMATS = ("table", "csv", "json")
METRICS: tuple[str, ...] = ("currency", "requests", "errors", "error_rate", "prompt_tokens",
                            "completion_tokens", "total_tokens", "cost", "cost_try",
                            "on_prem_share", "p95_ttft_ms", "cloud_equivalent", "saving")
Q6 = Decimal("0.000001")


def money(v: Decimal) -> str:
    return str(v.quantize(Q6))


def metrics(row: ReportRow) -> dict[str, Any]:
    p95 = row.p95_ttft_ms
    return {"currency": row.currency, "requests": row.requests, "errors": row.errors,
            "error_rate": round(row.error_rate, 6), "prompt_tokens": row.prompt_tokens,
            "completion_tokens": row.completion_tokens, "total_tokens": row.total_tokens,
            "cost": money(row.cost), "cost_try": money(row.cost_try),
            "on_prem_share": round(row.on_prem_share, 6),
            "p95_ttft_ms": None if p95 is None else round(p95, 1),
            "cloud_equivalent": money(row.cloud_equivalent), "saving": money(row.saving)}


def to_json(report: Report) -> dict[str, Any]:
    q = report.query
    return {
        "from": q.start.isoformat(), "to": q.end.isoformat(), "group_by": list(q.group_by),
        "tenant": q.tenant,
        "rows": [{**r.group, **metrics(r)} for r in report.rows],
        "totals": [metrics(t) for t in report.totals],
        "notes": {
            "p95_ttft_ms": "upper bound of the fixed histogram bucket holding the 95th "
                           "percentile, merged from daily rollups",
            "cloud_equivalent": "the same tokens on the cheapest cloud backend the policy "
                                "allows for their data class (USD rows only)",
            "days": "UTC days, both ends inclusive",
        },
    }


def _records(report: Report) -> tuple[list[str], list[list[Any]]]:
    header = [*report.query.group_by, *METRICS]
    lines: list[list[Any]] = []
    for r in report.rows:
        m = metrics(r)
        lines.append([r.group[g] for g in report.query.group_by] + [m[k] for k in METRICS])
    for t in report.totals:
        m = metrics(t)
        blanks = [""] * (len(report.query.group_by) - 1)
        lines.append(["TOTAL", *blanks] + [m[k] for k in METRICS])
    return header, lines


def to_csv(report: Report) -> str:
    header, lines = _records(report)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(header)
    for line in lines:
        w.writerow(["" if v is None else v for v in line])
    return buf.getvalue()


def to_table(report: Report) -> str:
    header, lines = _records(report)
    cells = [header] + [["-" if v is None else str(v) for v in line] for line in lines]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    n_keys = len(report.query.group_by)

    def fmt(row: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < n_keys else c.rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths, strict=True)))

    out = [fmt(cells[0]), "  ".join("-" * w for w in widths)]
    out += [fmt(r) for r in cells[1:]]
    q = report.query
    scope = f" tenant={q.tenant}" if q.tenant else ""
    out.append(f"({q.start.isoformat()} .. {q.end.isoformat()} UTC{scope}; p95 TTFT from "
               "bucketed rollups)")
    return "\n".join(out) + "\n"
