"""The keys page's HTML: the keys (never a secret: the id, the public prefix, tenant, app,
scope, when created or revoked) with a Revoke and a Rotate form each, the create form, a new
key shown once after create or rotate, the budgets and the running policy's rate limits. Pure
rendering: every value is escaped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from gateway.admin import pages
from gateway.openai_api.auth import Principal
from gateway.service.key_console import LimitRow
from gateway.usage.budgets import BudgetView
from gateway.usage.keys import PREFIX, KeyInfo


@dataclass
class KeysView:
    keys: Sequence[KeyInfo]
    budgets: Sequence[BudgetView]
    limits: Sequence[LimitRow]
    notice: str = ""
    new_key: tuple[KeyInfo, str] | None = None  # (its info, the full key): shown this once


def render(view: KeysView, who: Principal) -> str:
    csrf = escape(who.csrf or "", quote=True)
    return pages.template("keys.html").substitute(
        nav=pages.nav(who),
        scope=escape("every tenant" if who.is_admin else f"tenant {who.tenant}"),
        notice=view.notice,
        new_key=_new_key(view.new_key),
        create=_create_form(who, csrf),
        keys=key_table(view.keys, csrf),
        budget_form=_budget_form(who, csrf),
        budgets=budget_table(view.budgets, csrf),
        limits=limit_table(view.limits),
    )


def _when(ts: datetime | None) -> str:
    if ts is None:
        return ""
    if ts.tzinfo is not None:  # PostgreSQL answers with a zone; SQLite stores UTC without one
        ts = ts.astimezone(UTC)
    return ts.strftime("%Y-%m-%d %H:%M:%S") + " UTC"


def prefix(key: KeyInfo) -> str:
    """The public start of the key (`gk_<id>_`), which a user can match to the key they hold."""
    return f"{PREFIX}{key.id[1:]}_…"


def _new_key(found: tuple[KeyInfo, str] | None) -> str:
    if found is None:
        return ""
    info, secret = found
    return (
        '<section id="new-key-box"><h2>New key for tenant '
        f"{escape(info.tenant)}, app {escape(info.app)} ({escape(info.scope)} scope)</h2>"
        "<p>Copy it now: it is shown this once. Geçit keeps only its hash and cannot show it "
        'again.</p><p class="secret" id="new-key">'
        f"{escape(secret)}</p></section>"
    )


def _create_form(who: Principal, csrf: str) -> str:
    if who.is_admin:
        tenant = (
            '<label>tenant <input type="text" name="tenant" id="new-tenant" maxlength="64" '
            "required></label>"
        )
        admin = (
            '<label><input type="checkbox" name="admin" value="1" id="new-admin"> '
            "admin scope</label>"
        )
    else:
        tenant = f"<span>tenant <b>{escape(who.tenant or '')}</b></span>"
        admin = ""
    return (
        '<form method="post" action="/admin/console/keys/create" id="create-form">'
        f'<input type="hidden" name="csrf" value="{csrf}">{tenant}'
        '<label>app <input type="text" name="app" id="new-app" value="default" maxlength="64">'
        '</label><label>name <input type="text" name="name" id="new-name" maxlength="128">'
        f'</label>{admin}<button type="submit" id="create-key">Create key</button></form>'
    )


def _actions(key: KeyInfo, csrf: str) -> str:
    if not key.active:
        return ""
    kid = escape(key.id, quote=True)
    return "".join(
        f'<form method="post" action="/admin/console/keys/{op}" class="inline">'
        f'<input type="hidden" name="csrf" value="{csrf}">'
        f'<input type="hidden" name="key_id" value="{kid}">'
        f'<button type="submit" id="{op}-{kid}">{label}</button></form> '
        for op, label in (("revoke", "Revoke"), ("rotate", "Rotate"))
    )


def key_table(rows: Sequence[KeyInfo], csrf: str) -> str:
    if not rows:
        return "<p>No keys.</p>"
    body = "".join(
        f'<tr data-key="{escape(k.id, quote=True)}" data-status='
        f'"{"active" if k.active else "revoked"}"><td><code>{escape(k.id)}</code></td>'
        f"<td><code>{escape(prefix(k))}</code></td><td>{escape(k.tenant)}</td>"
        f"<td>{escape(k.app)}</td><td>{escape(k.scope)}</td><td>{escape(k.name or '')}</td>"
        f"<td>{_when(k.created_at)}</td><td>{_when(k.revoked_at) or 'active'}</td>"
        f"<td>{_actions(k, csrf)}</td></tr>"
        for k in rows
    )
    return (
        '<table id="keys"><tr><th>id</th><th>prefix</th><th>tenant</th><th>app</th>'
        "<th>scope</th><th>name</th><th>created</th><th>revoked</th><th></th></tr>"
        f"{body}</table>"
    )


def _budget_form(who: Principal, csrf: str) -> str:
    """Set (create, or change the limit of) a budget; alias and tag budgets span tenants, so
    only the admin scope offers them."""
    scopes = ("tenant", "app", "key", "alias", "tag") if who.is_admin else ("tenant", "app", "key")
    hint = "tenant, TENANT/APP, key id" + (", alias, NAME=VALUE" if who.is_admin else "")
    options = "".join(f'<option value="{s}">{s}</option>' for s in scopes)
    periods = "".join(
        f'<option value="{p}"{" selected" if p == "month" else ""}>{p}</option>'
        for p in ("day", "week", "month")
    )
    return (
        '<form method="post" action="/admin/console/keys/budget" id="budget-form">'
        f'<input type="hidden" name="csrf" value="{csrf}">'
        f'<label>scope <select name="scope" id="budget-scope">{options}</select></label>'
        '<label>subject <input type="text" name="subject" id="budget-subject" maxlength="200" '
        f'required placeholder="{escape(hint, quote=True)}"></label>'
        '<label>amount <input type="text" name="amount" id="budget-amount" maxlength="40" '
        'required placeholder="500 TRY"></label>'
        f'<label>every <select name="period" id="budget-period">{periods}</select></label>'
        '<button type="submit" id="set-budget">Set budget</button></form>'
    )


def budget_table(rows: Sequence[BudgetView], csrf: str) -> str:
    """Spent, reserved (held by requests in flight) and the limit of each budget's period;
    every row listed is within the viewer's reach, so each has its Delete form."""
    if not rows:
        return "<p>No budgets.</p>"
    body = "".join(
        f'<tr data-budget="{escape(b.id, quote=True)}">'
        f"<td>{escape(b.scope)}</td><td>{escape(b.subject)}</td><td>{escape(b.span)}</td>"
        f"<td>{escape(b.period)}</td>"
        f"<td>{escape(b.currency)}</td><td>{b.spent:.2f}</td><td>{b.reserved:.2f}</td>"
        f"<td>{b.limit:.2f}</td><td>{b.limit - b.spent - b.reserved:.2f}</td>"
        f"<td>{_budget_delete(b.id, csrf)}</td></tr>"
        for b in rows
    )
    return (
        '<table id="budgets"><tr><th>scope</th><th>subject</th><th>every</th><th>period</th>'
        "<th>currency</th><th>spent</th><th>reserved</th><th>limit</th><th>remaining</th>"
        f"<th></th></tr>{body}</table>"
    )


def _budget_delete(budget_id: str, csrf: str) -> str:
    bid = escape(budget_id, quote=True)
    return (
        '<form method="post" action="/admin/console/keys/budget-delete" class="inline">'
        f'<input type="hidden" name="csrf" value="{csrf}">'
        f'<input type="hidden" name="budget_id" value="{bid}">'
        f'<button type="submit" id="delete-{bid}">Delete</button></form>'
    )


def limit_table(rows: Sequence[LimitRow]) -> str:
    if not rows:
        return "<p>The running policy sets no rate limits.</p>"

    def n(v: int | None) -> str:
        return "—" if v is None else f"{v:,}"

    body = "".join(
        f"<tr><td>{escape(r.kind)}</td><td>{escape(r.subject)}</td>"
        f"<td>{n(r.requests_per_minute)}</td><td>{n(r.tokens_per_minute)}</td></tr>"
        for r in rows
    )
    return (
        '<table id="rate-limits"><tr><th>per</th><th>subject</th><th>requests / min</th>'
        f"<th>tokens / min</th></tr>{body}</table>"
    )
