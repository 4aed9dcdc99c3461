"""The policy page: `GET /admin/console/policy` (the running policy, the editor, the version
history; `?version=N` adds what version N changed; `/schema.json` is the policy's JSON Schema
for the editor's completion) and its forms: `POST /admin/console/policy` (op = validate | diff
| explain | simulate | apply) and `POST /admin/console/policy/rollback`. Admin scope only;
every POST needs the session's CSRF token. The work is in `service/policy_console`."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta
from typing import Any

import orjson
from fastapi import APIRouter, Request
from starlette.responses import Response

from gateway.admin import forms, pages, policy_page, simulate_view
from gateway.admin.auth import admin_only, principal
from gateway.admin.policy_page import PolicyView
from gateway.core.errors import GatewayError
from gateway.openai_api.auth import Principal
from gateway.policy.explain import explain_text
from gateway.policy.loader import PolicyError, json_schema
from gateway.service import policy_console
from gateway.service.policy_sync import file_text
from gateway.usage.simulate import SimulationError

HISTORY = 50  # versions listed on the page
SOURCE = "admin-console"
SIM_DAYS = 30  # the Simulate form's range until the admin picks one: the last 30 UTC days
MAX_TENANT = 128


async def _view(request: Request, text: str | None = None) -> PolicyView:
    rt = request.app.state.runtime
    running = rt.reloader.current()

    def read() -> tuple[list[Any], str]:
        shown = text
        if shown is None:
            shown = policy_console.running_text(rt.engine, rt.reloader) or file_text(running) or ""
        return policy_console.history(rt.engine, HISTORY), shown

    versions, shown = await asyncio.to_thread(read)
    today = datetime.fromtimestamp(rt.clock.now(), UTC).date()
    return PolicyView(
        running=running,
        text=shown,
        history=versions,
        sim_from=(today - timedelta(days=SIM_DAYS - 1)).isoformat(),
        sim_to=today.isoformat(),
    )


async def _version(request: Request, raw: str | None) -> str:
    if not raw or not raw.isdigit() or len(raw) > 12:
        return ""
    found = await asyncio.to_thread(
        policy_console.version_diff, request.app.state.runtime.engine, int(raw)
    )
    return policy_page.version(*found) if found is not None else ""


async def _validate(request: Request, view: PolicyView) -> None:
    reloader = request.app.state.runtime.reloader
    checked = await policy_console.check(reloader, view.text.encode("utf-8"), SOURCE)
    view.results = policy_page.problems(checked.problems, checked.warnings)
    view.bad_lines = {p.line for p in checked.problems if p.line}
    view.notice = (
        policy_page.error(f"{len(checked.problems)} problem(s); nothing was applied")
        if checked.problems
        else policy_page.ok("valid: this text would be accepted")
    )


async def _diff(request: Request, view: PolicyView) -> None:
    limit = request.app.state.runtime.reloader.limits.yaml.max_bytes
    if len(view.text.encode("utf-8")) > limit:  # the diff's work grows with both texts
        view.notice = policy_page.error(f"the text is over {limit} bytes: no diff")
        return
    running = (await _view(request)).text
    lines = await asyncio.to_thread(policy_console.diff, running, view.text, "running", "editor")
    view.results = policy_page.diff(lines, "Diff against the running policy")


async def _apply(request: Request, view: PolicyView, who: Principal) -> None:
    reloader = request.app.state.runtime.reloader
    try:
        new = await policy_console.apply(reloader, view.text.encode("utf-8"), who.actor, SOURCE)
    except PolicyError as exc:
        view.results = policy_page.problems(exc.problems)
        view.bad_lines = {p.line for p in exc.problems if p.line}
        view.notice = policy_page.error("refused: the running policy is unchanged")
        return
    await request.app.state.runtime.policy_sync.flush()  # stored for every replica first
    view.notice = policy_page.ok(f"applied: {new.sha256[:12]} now runs (every replica follows)")


async def _explain(request: Request, view: PolicyView) -> None:
    rt = request.app.state.runtime
    checked = await policy_console.check(rt.reloader, view.text.encode("utf-8"), SOURCE)
    if checked.compiled is None:
        await _validate(request, view)
        return
    if view.model not in checked.compiled.policy.aliases:
        view.notice = policy_page.error(f"unknown model {view.model!r}")
        return
    if len(view.prompt) > rt.settings.max_request_chars:
        view.notice = policy_page.error("the prompt is too long")
        return
    try:
        trace = await asyncio.to_thread(
            explain_text,
            checked.compiled,
            view.model,
            view.prompt,
            tenant=view.tenant,
            app=view.app,
            stats=rt.stats.snapshot(rt.clock.monotonic()),
            disabled=rt.disabled,
        )
    except ValueError as exc:
        view.notice = policy_page.error(str(exc))
        return
    view.results = policy_page.explain(trace)


def _day(raw: str) -> date:
    try:
        if len(raw) != 10:
            raise ValueError
        return date.fromisoformat(raw)
    except ValueError:
        raise SimulationError("a day is YYYY-MM-DD") from None


async def _simulate(request: Request, view: PolicyView) -> None:
    """Replay the ledger under the editor's text (compiled, never applied)."""
    rt = request.app.state.runtime
    try:
        if len(view.sim_tenant) > MAX_TENANT:
            raise SimulationError("the tenant name is too long")
        query = policy_console.sim_query(
            _day(view.sim_from), _day(view.sim_to), view.sim_tenant, rt.settings.report_max_days
        )
        sim = await policy_console.simulate(
            rt.reloader, rt.engine, rt.ledger.pricer, view.text, query
        )
    except SimulationError as exc:
        view.notice = policy_page.error(str(exc))
        return
    except PolicyError as exc:
        view.results = policy_page.problems(exc.problems)
        view.bad_lines = {p.line for p in exc.problems if p.line}
        view.notice = policy_page.error(f"{len(exc.problems)} problem(s): nothing to simulate")
        return
    view.results = simulate_view.render(sim)


async def _admin(request: Request, csrf: str | None = None) -> Principal:
    return admin_only(await principal(request, csrf))


def build_router() -> APIRouter:
    router = APIRouter(prefix="/admin/console/policy")

    @router.get("")
    async def page(request: Request) -> Response:
        try:
            who = await _admin(request)
        except GatewayError as exc:
            return pages.refused(exc)
        view = await _view(request)
        view.version = await _version(request, request.query_params.get("version"))
        return pages.html(policy_page.render(view, who))

    @router.get("/schema.json")
    async def schema(request: Request) -> Response:
        """The policy's JSON Schema, for the editor's completion (as `gateway policy schema`)."""
        try:
            await _admin(request)
        except GatewayError as exc:
            return pages.refused(exc)
        body = await asyncio.to_thread(lambda: orjson.dumps(json_schema()))
        return Response(body, media_type="application/json", headers={"cache-control": "no-cache"})

    @router.post("")
    async def act(request: Request) -> Response:
        try:
            form = await forms.read_form(request)
            who = await _admin(request, form.get("csrf", ""))
        except GatewayError as exc:
            return pages.refused(exc)
        view = await _view(request, form.get("text", "").replace("\r\n", "\n"))
        view.model, view.prompt = form.get("model", ""), form.get("prompt", "")
        view.tenant = form.get("tenant") or "default"
        view.app = form.get("app") or "default"
        view.sim_from = form.get("from", view.sim_from).strip()
        view.sim_to = form.get("to", view.sim_to).strip()
        view.sim_tenant = form.get("sim_tenant", "").strip()
        op = form.get("op", "validate")
        if op == "apply":
            await _apply(request, view, who)
            view = await _refreshed(request, view)
        elif op == "diff":
            await _diff(request, view)
        elif op == "explain":
            await _explain(request, view)
        elif op == "simulate":
            await _simulate(request, view)
        else:
            await _validate(request, view)
        return pages.html(policy_page.render(view, who))

    @router.post("/rollback")
    async def rollback(request: Request) -> Response:
        try:
            form = await forms.read_form(request)
            who = await _admin(request, form.get("csrf", ""))
        except GatewayError as exc:
            return pages.refused(exc)
        raw = form.get("version", "")
        rt = request.app.state.runtime
        notice = policy_page.error(f"no stored version {raw!r}")
        if raw.isdigit() and len(raw) <= 12:
            try:
                new = await policy_console.rollback(rt.reloader, rt.engine, int(raw), who.actor)
                await rt.policy_sync.flush()
                if new is not None:
                    notice = policy_page.ok(f"rolled back to #{raw}: {new.sha256[:12]} now runs")
            except PolicyError as exc:
                notice = policy_page.error(f"version #{raw} no longer validates: {exc}")
        view = await _view(request)
        view.notice = notice
        return pages.html(policy_page.render(view, who))

    return router


async def _refreshed(request: Request, view: PolicyView) -> PolicyView:
    """After an apply: the history as it now is, the notice and results kept."""
    fresh = await _view(request, view.text)
    fresh.notice, fresh.results, fresh.bad_lines = view.notice, view.results, view.bad_lines
    for name in ("model", "prompt", "tenant", "app", "sim_from", "sim_to", "sim_tenant"):
        setattr(fresh, name, getattr(view, name))
    return fresh
