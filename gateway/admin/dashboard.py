"""`GET /admin/dashboard`: one server-rendered HTML page of SVG charts over the daily rollups.

When some requests in the range had no known price (their cost is NULL in the ledger), the page
opens with a warning naming the backends concerned, and the cost cards say "incomplete": the cost
charts and figures leave those requests out (an unknown cost is shown as unknown, never as a
silent zero)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from html import escape
from importlib import resources
from string import Template
from urllib.parse import urlencode

from sqlalchemy.engine import Engine

from gateway.admin import charts
from gateway.admin.budget_banner import banner
from gateway.usage.budget_admin import list_budgets
from gateway.usage.budgets import BudgetView
from gateway.usage.node_report import NodeQuery, NodeReport, run_node_report
from gateway.usage.node_report_format import shown_rows
from gateway.usage.report_format import NOT_SET, cents, money, rates_line, unpriced_line
from gateway.usage.reports import (
    CloudReference,
    Rates,
    Report,
    ReportQuery,
    ReportRow,
    run_report,
)

TOP_APPS = 10
INCOMPLETE = " (incomplete)"
WARNING_STYLE = "flex-basis: 100%; background: #fef3c7; border-color: #f59e0b; color: #78350f"


@dataclass(frozen=True)
class DashboardData:
    start: date
    end: date
    tenant: str | None
    by_day_backend: Report
    by_backend: Report
    by_data_class: Report
    by_app: Report
    nodes: NodeReport
    budgets: tuple[BudgetView, ...] = ()  # the ones the signed-in user may see
    now: float = 0.0
    by_tag: tuple[tuple[str, Report], ...] = ()  # (tag name, report grouped by its value)


def load(
    engine: Engine,
    start: date,
    end: date,
    tenant: str | None,
    reference: CloudReference,
    rates: Rates | None = None,
    now: float = 0.0,
    tag_keys: Sequence[str] = (),
) -> DashboardData:
    def rep(*group: str) -> Report:
        return run_report(engine, ReportQuery(start, end, group, tenant), reference, rates)

    nodes = run_node_report(engine, NodeQuery(start, end, tenant), reference)
    return DashboardData(
        start,
        end,
        tenant,
        rep("day", "backend"),
        rep("backend"),
        rep("data_class"),
        rep("app"),
        nodes,
        tuple(list_budgets(engine, tenant=tenant)),
        now,
        tuple((key, rep(f"tag:{key}")) for key in tag_keys),
    )


def _usd(rows: list[ReportRow]) -> list[ReportRow]:
    return [r for r in rows if r.currency == "USD"]


def _days(start: date, end: date) -> list[str]:
    return [date.fromordinal(d).isoformat() for d in range(start.toordinal(), end.toordinal() + 1)]


def cost_per_day(report: Report, start: date, end: date) -> str:
    labels = _days(start, end)
    index = {d: i for i, d in enumerate(labels)}
    series: dict[str, list[float]] = {}
    for r in _usd(report.rows):
        name = r.group["backend"] or "(blocked)"
        series.setdefault(name, [0.0] * len(labels))[index[r.group["day"]]] += float(r.cost)
    ordered = dict(sorted(series.items(), key=lambda kv: -sum(kv[1])))
    return charts.stacked_columns("cost per day by backend", labels, ordered, "$")


def zone_share(report: Report) -> str:
    on_prem = sum(t.on_prem_requests for t in report.totals)
    served = sum(r.requests for r in report.rows if r.group["backend"])
    return charts.share_bar("on-prem vs cloud", [("on-prem", on_prem), ("cloud", served - on_prem)])


def data_class_mix(report: Report) -> str:
    order = {"public": 0, "personal": 1, "special": 2}
    rows = sorted(report.rows, key=lambda r: order.get(r.group["data_class"], 3))
    return charts.share_bar(
        "data-class mix", [(r.group["data_class"] or "unknown", r.requests) for r in rows]
    )


def ttft_per_backend(report: Report) -> str:
    items = [(r.group["backend"], r.p95_ttft_ms or 0.0) for r in report.rows if r.group["backend"]]
    return charts.horizontal_bars(
        "p95 TTFT per backend", sorted(items, key=lambda kv: -kv[1]), " ms"
    )


def top_apps(report: Report) -> str:
    items = sorted(
        ((r.group["app"], float(r.cost)) for r in _usd(report.rows)), key=lambda kv: -kv[1]
    )[:TOP_APPS]
    return charts.horizontal_bars("top apps by cost", items, "$")


def cost_by_tag(d: DashboardData) -> str:
    """One section per tag the policy names: its values by cost (USD), with the CSV."""
    sections = []
    for key, report in d.by_tag:
        items = sorted(
            ((r.group[f"tag:{key}"], float(r.cost)) for r in _usd(report.rows)),
            key=lambda kv: -kv[1],
        )[:TOP_APPS]
        chart = (
            charts.horizontal_bars(f"cost by {key}", items, "$")
            if items
            else '<p class="note">No tagged request in this range.</p>'
        )
        ident = escape(f"cost-by-tag-{key}", quote=True)
        sections.append(
            f'<section id="{ident}"><h2>Cost by {escape(key)} (USD)<a class="csv" '
            f'href="{_csv_link(d, f"tag:{key}")}">CSV</a></h2>{chart}</section>'
        )
    return "".join(sections)


def unpriced_warning(report: Report) -> str:
    """A visible warning when some requests had no known price (by-backend report), else ""."""
    line = unpriced_line(report)
    if line is None:
        return ""
    backends = ", ".join(
        f"{r.group['backend'] or '(no backend)'} ({r.unpriced_requests:,})"
        for r in sorted(report.rows, key=lambda r: -r.unpriced_requests)
        if r.unpriced_requests and "backend" in r.group
    )
    where = f" Backends without a known price: {backends}." if backends else ""
    return (
        f'<div class="card warning" data-metric="unpriced" role="alert" '
        f'style="{WARNING_STYLE}">⚠ Cost incomplete<b>{escape(line[:1].upper() + line[1:])}'
        f".{escape(where)}</b></div>"
    )


def _cards(report: Report) -> str:
    cards: list[tuple[str, str]] = []
    for t in report.totals:
        bill = t.billing(report.rates)
        mark = "" if t.cost_complete else INCOMPLETE

        def shown(v: str | None, mark: str = mark) -> str:
            return NOT_SET if v is None else v + mark

        cards += [
            ("requests", f"{t.requests:,}"),
            (f"cost ({t.currency})", shown(money(t.cost))),
            ("cost before KDV (TRY)", shown(cents(bill.net_try))),
            ("KDV (TRY)", shown(cents(bill.kdv_try))),
            ("total with KDV (TRY)", shown(cents(bill.gross_try))),
            ("error rate", f"{t.error_rate:.2%}"),
            ("on-prem share", f"{t.on_prem_share:.1%}"),
            (f"saving vs cloud ({t.currency})", shown(money(t.saving))),
        ]
        if not t.cost_complete:
            cards.append((f"unpriced requests ({t.currency})", f"{t.unpriced_requests:,}"))
    if not cards:
        cards = [("requests", "0")]
    cards.append(("rates", rates_line(report.rates).removeprefix("rates: ")))
    return unpriced_warning(report) + "".join(
        f'<div class="card" data-metric="{escape(k)}">{escape(k)}<b>{escape(v)}</b></div>'
        for k, v in cards
    )


# (column in the node report, heading) of the dashboard's on-prem node table
NODE_COLUMNS = (
    ("requests", "requests"),
    ("tokens_per_s", "tokens/s"),
    ("utilisation", "utilisation"),
    ("cost_usd", "cost (USD)"),
    ("cost_per_mtok_usd", "USD / Mtok"),
    ("cloud_per_mtok_usd", "cheapest allowed cloud, USD / Mtok"),
    ("saving_usd", "saving vs that cloud (USD)"),
)


def node_table(report: NodeReport) -> str:
    """Per on-prem node: use, speed, cost per million output tokens and the break-even
    against the cheapest cloud the policy allows for the same traffic."""
    rows = shown_rows(report)
    if not rows:
        return '<p class="note">No request in this range was served by a node of a pool.</p>'
    head = "".join(f"<th>{escape(h)}</th>" for _, h in NODE_COLUMNS)
    body = "".join(
        f'<tr data-node="{escape(str(r["node"]), quote=True)}"><td>{escape(str(r["backend"]))}'
        f" / {escape(str(r['node']))}</td>"
        + "".join(f"<td>{escape('-' if r[k] is None else str(r[k]))}</td>" for k, _ in NODE_COLUMNS)
        + "</tr>"
        for r in rows
    )
    return f"<table><tr><th>backend / node</th>{head}</tr>{body}</table>"


def _csv_link(d: DashboardData, group_by: str) -> str:
    query = {
        "from": d.start.isoformat(),
        "to": d.end.isoformat(),
        "group_by": group_by,
        "format": "csv",
    }
    if d.tenant:
        query["tenant"] = d.tenant
    path = "/admin/reports/nodes?" if group_by == "node" else "/admin/reports/cost?"
    if group_by == "node":
        del query["group_by"]
    return escape(path + urlencode(query), quote=True)


def render(d: DashboardData, nav: str = "") -> str:
    """The page; `nav` is the signed-in bar (who, links, the sign-out form), already HTML."""
    page = Template(
        resources.files("gateway.admin")
        .joinpath("templates/dashboard.html")
        .read_text(encoding="utf-8")
    )
    return page.substitute(
        nav=nav,
        budget_banner=banner(d.budgets, d.now),
        scope=escape(f"tenant {d.tenant}" if d.tenant else "all tenants"),
        start=d.start.isoformat(),
        end=d.end.isoformat(),
        cards=_cards(d.by_backend),
        chart_cost_per_day=cost_per_day(d.by_day_backend, d.start, d.end),
        chart_zone=zone_share(d.by_backend),
        chart_data_class=data_class_mix(d.by_data_class),
        chart_ttft=ttft_per_backend(d.by_backend),
        chart_apps=top_apps(d.by_app),
        tag_sections=cost_by_tag(d),
        table_nodes=node_table(d.nodes),
        csv_nodes=_csv_link(d, "node"),
        csv_day_backend=_csv_link(d, "day,backend"),
        csv_backend=_csv_link(d, "backend"),
        csv_data_class=_csv_link(d, "data_class"),
        csv_app=_csv_link(d, "app"),
    )
