"""The per-node report as JSON (exact figures), CSV and an aligned table (display-rounded)."""

from __future__ import annotations

import csv
import io
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from gateway.usage.node_report import NodeReport, NodeRow
from gateway.usage.report_format import exact, money

_Q3 = Decimal("0.001")
_Q1 = Decimal("0.1")

COLUMNS = (
    "backend",
    "node",
    "requests",
    "errors",
    "prompt_tokens",
    "completion_tokens",
    "busy_seconds",
    "utilisation",
    "tokens_per_s",
    "cost_usd",
    "cost_per_mtok_usd",
    "cloud_equivalent_usd",
    "cloud_per_mtok_usd",
    "saving_usd",
    "unpriced_requests",
)


def _round(v: Decimal | None, q: Decimal) -> str | None:
    return None if v is None else str(v.quantize(q, rounding=ROUND_HALF_UP))


def _figures(row: NodeRow, hours: int, full: bool) -> dict[str, Any]:
    def m(v: Decimal | None) -> str | None:
        return exact(v) if full or v is None else money(v)

    def q(v: Decimal | None, step: Decimal) -> str | None:
        return exact(v) if full else _round(v, step)

    return {
        "backend": row.backend,
        "node": row.node,
        "requests": row.requests,
        "errors": row.errors,
        "prompt_tokens": row.prompt_tokens,
        "completion_tokens": row.completion_tokens,
        "busy_seconds": q(row.busy_seconds, _Q3),
        "utilisation": q(row.utilisation(hours), Decimal("0.0001")),
        "tokens_per_s": q(row.tokens_per_s, _Q1),
        "cost_usd": m(row.cost),
        "cost_per_mtok_usd": m(row.cost_per_mtok),
        "cloud_equivalent_usd": m(row.cloud_equivalent),
        "cloud_per_mtok_usd": m(row.cloud_per_mtok),
        "saving_usd": m(row.saving),
        "unpriced_requests": row.unpriced_requests,
    }


def to_json(report: NodeReport) -> dict[str, Any]:
    q = report.query
    return {
        "from": q.start.isoformat(),
        "to": q.end.isoformat(),
        "tenant": q.tenant,
        "hours": q.hours,
        "nodes": [_figures(r, q.hours, full=True) for r in report.rows],
    }


def to_csv(report: NodeReport) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in report.rows:
        f = _figures(r, report.query.hours, full=True)
        w.writerow(["" if f[c] is None else f[c] for c in COLUMNS])
    return out.getvalue()


def shown_rows(report: NodeReport) -> list[dict[str, Any]]:
    """Each node's figures as people read them (money to the cent, rates rounded): the
    table below and the dashboard's node section."""
    return [_figures(r, report.query.hours, full=False) for r in report.rows]


def to_table(report: NodeReport) -> str:
    cells = [list(COLUMNS)]
    for f in shown_rows(report):
        cells.append(["-" if f[c] is None else str(f[c]) for c in COLUMNS])
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS))]

    def fmt(row: list[str]) -> str:
        pairs = enumerate(zip(row, widths, strict=True))
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in pairs)

    q = report.query
    scope = f" tenant={q.tenant}" if q.tenant else ""
    out = [fmt(cells[0]), "  ".join("-" * w for w in widths), *(fmt(r) for r in cells[1:])]
    out.append(
        f"({q.start.isoformat()} .. {q.end.isoformat()} UTC{scope}, {q.hours} h; busy = sum of "
        "latencies, utilisation = busy / hours; per Mtok = per million output tokens; cloud = "
        "the cheapest cloud backend the policy allows for the same traffic)"
    )
    return "\n".join(out) + "\n"
