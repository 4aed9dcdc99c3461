"""The keys page: `GET /admin/console/keys` (the keys, budgets and rate limits the caller may
see) and its forms `POST /admin/console/keys/{create,revoke,rotate,budget,budget-delete}`,
each with the session's CSRF token. A created or rotated key is shown once, in the answer to
that POST (never in a URL, never stored). The admin scope manages every key; a tenant its own
tenant's API keys. The rules are in `service/key_console`, the store is `usage/keys` (as for
`gateway keys`); budgets go through `usage/budget_admin` (as for `gateway budgets`), which
enforces a tenant's reach."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fastapi import APIRouter, Request
from sqlalchemy.engine import Engine
from starlette.responses import Response

from gateway.admin import forms, keys_page, pages
from gateway.admin.auth import principal
from gateway.admin.keys_page import KeysView
from gateway.admin.policy_page import error, ok
from gateway.core.errors import GatewayError
from gateway.openai_api.auth import Principal
from gateway.service import key_console
from gateway.service.key_console import KeyRefused
from gateway.usage.budget_admin import (
    BudgetInputError,
    BudgetRequest,
    create_budget,
    delete_budget,
    list_budgets,
)
from gateway.usage.keys import KeyInfo

Outcome = tuple[str, tuple[KeyInfo, str] | None]  # the notice, a new key to show once


def _create(engine: Engine, who: Principal, form: dict[str, str], now: float) -> Outcome:
    info, key = key_console.create(
        engine,
        who.tenant,
        tenant=form.get("tenant", "").strip(),
        app=form.get("app", "").strip() or "default",
        name=form.get("name", "").strip(),
        admin_scope=form.get("admin") == "1",
        now=now,
        actor=who.actor,
    )
    return ok(f"created {info.id}"), (info, key)


def _revoke(engine: Engine, who: Principal, form: dict[str, str], now: float) -> Outcome:
    key = key_console.revoke(engine, who.tenant, form.get("key_id", ""), now, who.actor)
    return ok(f"revoked {key.id}: it is refused from now on and its sessions have ended"), None


def _rotate(engine: Engine, who: Principal, form: dict[str, str], now: float) -> Outcome:
    old = form.get("key_id", "")
    info, key = key_console.rotate(engine, who.tenant, old, now, who.actor)
    return ok(f"rotated {old[:64]}: revoked; its replacement is {info.id}"), (info, key)


def _set_budget(engine: Engine, who: Principal, form: dict[str, str], now: float) -> Outcome:
    req = BudgetRequest(
        scope=form.get("scope", ""),
        subject=form.get("subject", ""),
        amount=form.get("amount", ""),
        period=form.get("period", "month"),
    )
    view = create_budget(engine, req, now, tenant=who.tenant)
    return ok(f"budget {view.id}: {view.limit:.2f} {view.currency} per {view.span}"), None


def _delete_budget(engine: Engine, who: Principal, form: dict[str, str], now: float) -> Outcome:
    gone = delete_budget(engine, form.get("budget_id", ""), tenant=who.tenant)
    return ok(f"deleted budget {gone.id}"), None


OPS: dict[str, Callable[[Engine, Principal, dict[str, str], float], Outcome]] = {
    "create": _create,
    "revoke": _revoke,
    "rotate": _rotate,
    "budget": _set_budget,
    "budget-delete": _delete_budget,
}


async def _view(request: Request, who: Principal) -> KeysView:
    rt = request.app.state.runtime
    limits = rt.reloader.current().policy.rate_limits

    def read() -> KeysView:
        keys = key_console.visible_keys(rt.engine, who.tenant)
        ids = [k.id for k in keys]
        budgets = list_budgets(rt.engine, tenant=who.tenant)  # a tenant: its tenant, apps, keys
        return KeysView(keys, budgets, key_console.visible_limits(limits, who.tenant, ids))

    return await asyncio.to_thread(read)


def build_router() -> APIRouter:
    router = APIRouter(prefix="/admin/console/keys")

    @router.get("")
    async def page(request: Request) -> Response:
        try:
            who = await principal(request)
        except GatewayError as exc:
            return pages.refused(exc)
        return pages.html(keys_page.render(await _view(request, who), who))

    @router.post("/{op}")
    async def act(request: Request, op: str) -> Response:
        try:
            form = await forms.read_form(request)
            who = await principal(request, form.get("csrf", ""))
        except GatewayError as exc:
            return pages.refused(exc)
        run = OPS.get(op)
        if run is None:
            return pages.html(keys_page.render(await _view(request, who), who), 404)
        status = 200
        try:
            rt = request.app.state.runtime
            notice, new_key = await asyncio.to_thread(run, rt.engine, who, form, rt.clock.now())
        except KeyRefused as exc:
            notice, new_key, status = error(str(exc)), None, exc.status
        except BudgetInputError as exc:
            notice, new_key, status = error(str(exc)), None, 400
        view = await _view(request, who)
        view.notice, view.new_key = notice, new_key
        return pages.html(keys_page.render(view, who), status)

    return router
