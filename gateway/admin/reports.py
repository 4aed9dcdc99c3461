"""`GET /admin/reports/cost`, `GET /admin/reports/nodes` (per node of pooled on-prem backends,
as `gateway report --group-by node`) and `GET /admin/dashboard`.

The admin scope (the admin key or an admin-scope key, as a bearer or through a browser session)
reads every tenant; a tenant's own API key reads only its tenant's figures (asking for another
tenant is refused, not silently narrowed). The dashboard answers a browser that is not signed in
with a page that links to `/admin/login`."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime

import orjson
from fastapi import APIRouter, Request
from starlette.responses import Response

from gateway.admin import dashboard, pages
from gateway.admin.auth import principal
from gateway.core.errors import GatewayError, InvalidRequest, PermissionDenied
from gateway.policy.schema import Policy
from gateway.usage import node_report_format
from gateway.usage.cloud_reference import PolicyCloudReference
from gateway.usage.node_report import NodeQuery, run_node_report
from gateway.usage.report_format import FORMATS, to_csv, to_json, to_table
from gateway.usage.reports import Rates, ReportError, ReportQuery, run_report

ADMIN = "*"
# no script at all; the page's own <style> and the warning card's style attribute
DASHBOARD_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
DEFAULT_MAX_DAYS = 366


async def reader_scope(request: Request) -> str:
    """ADMIN for the admin scope (the admin key or an admin-scope key, by bearer or session),
    else the tenant of the key."""
    who = await principal(request)
    return ADMIN if who.is_admin else str(who.tenant)


def _day(request: Request, name: str, default: date) -> date:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise InvalidRequest(f"'{name}' must be a date YYYY-MM-DD", param=name) from None


def _query(request: Request, scope: str, group_by: str) -> ReportQuery:
    rt = request.app.state.runtime
    today = datetime.fromtimestamp(rt.clock.now(), UTC).date()
    asked = request.query_params.get("tenant") or None
    if scope != ADMIN:
        if asked is not None and asked != scope:
            raise PermissionDenied(
                "a tenant key may read only its own tenant's report", code="tenant_scope"
            )
        asked = scope
    raw = request.query_params.get("group_by") or group_by
    start, end = _day(request, "from", today.replace(day=1)), _day(request, "to", today)
    try:
        q = ReportQuery(
            start=start,
            end=end,
            group_by=tuple(g.strip() for g in raw.split(",") if g.strip()),
            tenant=asked,
        )
    except ReportError as exc:
        raise InvalidRequest(str(exc), param=exc.param) from None
    settings = rt.settings
    limit = int(getattr(settings, "report_max_days", DEFAULT_MAX_DAYS))
    days = end.toordinal() - start.toordinal() + 1
    if days > limit:  # the work (rows, per-day chart columns) grows with the range
        raise InvalidRequest(
            f"the range 'from'..'to' covers {days} days; at most {limit}",
            param="to",
            code="range_too_long",
        )
    return q


def _policy(request: Request) -> Policy:
    policy: Policy = request.app.state.runtime.policy.policy  # the running (reloaded) one
    return policy


def _reference(request: Request) -> PolicyCloudReference:
    rt = request.app.state.runtime
    return PolicyCloudReference(
        _policy(request), datetime.fromtimestamp(rt.clock.now(), UTC).date()
    )


def _rates(request: Request) -> Rates:
    """The billing rates of the policy in force (a PUT /admin/policy applies at once)."""
    return Rates.of(_policy(request).billing)


def build_router() -> APIRouter:
    router = APIRouter()

    @router.get("/admin/reports/cost")
    async def cost_report(request: Request) -> Response:
        scope = await reader_scope(request)
        fmt = request.query_params.get("format", "json")
        if fmt not in FORMATS:
            raise InvalidRequest(f"format must be one of {', '.join(FORMATS)}", param="format")
        q = _query(request, scope, "tenant")
        engine = request.app.state.runtime.engine
        reference, rates = _reference(request), _rates(request)
        formatter = {"csv": to_csv, "table": to_table}.get(fmt)

        def body() -> bytes | str:  # the query and its formatting, both off the event loop
            report = run_report(engine, q, reference, rates)
            return formatter(report) if formatter else orjson.dumps(to_json(report))

        content = await asyncio.to_thread(body)
        if fmt == "csv":
            name = f"gecit-cost-{q.start.isoformat()}-{q.end.isoformat()}.csv"
            return Response(
                content,
                media_type="text/csv; charset=utf-8",
                headers={"content-disposition": f'attachment; filename="{name}"'},
            )
        if fmt == "table":
            return Response(content, media_type="text/plain; charset=utf-8")
        return Response(content, media_type="application/json")

    @router.get("/admin/reports/nodes")
    async def node_report(request: Request) -> Response:
        scope = await reader_scope(request)
        fmt = request.query_params.get("format", "json")
        if fmt not in FORMATS:
            raise InvalidRequest(f"format must be one of {', '.join(FORMATS)}", param="format")
        q = _query(request, scope, "tenant")  # the range, the tenant scope and the day limit
        query = NodeQuery(q.start, q.end, q.tenant)
        engine, reference = request.app.state.runtime.engine, _reference(request)
        out = node_report_format

        def body() -> bytes | str:  # the ledger query and its formatting, off the event loop
            report = run_node_report(engine, query, reference)
            if fmt == "json":
                return orjson.dumps(out.to_json(report))
            return out.to_csv(report) if fmt == "csv" else out.to_table(report)

        content = await asyncio.to_thread(body)
        media = {"json": "application/json", "csv": "text/csv; charset=utf-8"}
        return Response(content, media_type=media.get(fmt, "text/plain; charset=utf-8"))

    @router.get("/admin/dashboard")
    async def dashboard_page(request: Request) -> Response:
        try:
            who = await principal(request)
        except GatewayError as exc:
            return pages.refused(exc)
        q = _query(request, ADMIN if who.is_admin else str(who.tenant), "tenant")
        engine = request.app.state.runtime.engine
        reference, rates = _reference(request), _rates(request)
        now = request.app.state.runtime.clock.now()
        tags = tuple(_policy(request).tags.keys)  # a section per tag the policy names

        def page() -> str:  # the queries and the charts, both off the event loop
            data = dashboard.load(engine, q.start, q.end, q.tenant, reference, rates, now, tags)
            return dashboard.render(data, pages.nav(who))

        return pages.html(await asyncio.to_thread(page), csp=DASHBOARD_CSP)

    return router
