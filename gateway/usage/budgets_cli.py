"""`gateway budgets create | list | delete`: budgets per tenant, app, key, alias or tag over a
day, an ISO week (UTC) or a month. The work is usage/budget_admin.py's, shared with the admin
console; bad input is one line on stderr and exit code 2."""

from __future__ import annotations

import argparse
import time

from sqlalchemy.engine import Engine

from gateway.cli_support import CommandError
from gateway.settings import Settings
from gateway.usage import budget_admin
from gateway.usage.budget_periods import SPANS
from gateway.usage.budgets import BudgetView
from gateway.usage.db import make_engine, migrate, require_database_url

_SCOPES = (
    ("--tenant", "a tenant"),
    ("--app", "an app, as TENANT/APP"),
    ("--key", "an API key, by its id"),
    ("--alias", "a model alias"),
    ("--tag", "a cost-attribution tag, as NAME=VALUE"),
)


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("budgets", help="budgets per tenant, app, key, alias or tag")
    bsub = p.add_subparsers(dest="budgets_command", required=True)
    c = bsub.add_parser("create", help="create a budget, or change the limit of one")
    who = c.add_mutually_exclusive_group(required=True)
    for flag, what in _SCOPES:
        who.add_argument(flag, dest=flag[2:], help=f"the budget of {what}")
    c.add_argument("amount", help="e.g. 500 or '500 TRY', '20 USD'")
    c.add_argument("--period", default="month", help="day | week (ISO, UTC) | month")
    c.set_defaults(func=_create)
    ls = bsub.add_parser("list", help="list budgets with their spend in the running period")
    ls.add_argument("--tenant", help="only this tenant's budgets")
    ls.set_defaults(func=_list)
    d = bsub.add_parser("delete", help="delete a budget by its id (as `list` shows it)")
    d.add_argument("budget_id")
    d.set_defaults(func=_delete)
    for q in (c, ls, d):
        q.add_argument(
            "--database-url",
            dest="database_url",
            help="ledger database URL (env GECIT_DATABASE_URL)",
        )


def _engine(args: argparse.Namespace) -> Engine:
    settings = Settings.from_env(database_url=args.database_url)
    require_database_url(settings.database_url)
    engine = make_engine(settings.database_url)
    migrate(engine)
    return engine


def _create(args: argparse.Namespace) -> int:
    if args.period not in SPANS:
        raise CommandError(f"--period is day, week or month, got {args.period!r}")
    scope, subject = next(
        (f[2:], getattr(args, f[2:])) for f, _ in _SCOPES if getattr(args, f[2:]) is not None
    )
    req = budget_admin.BudgetRequest(scope, subject, args.amount, args.period)
    engine = _engine(args)
    try:
        view = budget_admin.create_budget(engine, req, time.time())
    except budget_admin.BudgetInputError as exc:
        raise CommandError(str(exc)) from None
    finally:
        engine.dispose()
    print(f"{view.id}: {view.describe()}")
    return 0


def _list(args: argparse.Namespace) -> int:
    engine = _engine(args)
    try:
        views = budget_admin.list_budgets(engine, tenant=args.tenant)
    finally:
        engine.dispose()
    print(f"{'id':<40} {'period':<6} {'running':<10} {'spent':>14} {'limit':>14} cur  used")
    for v in views:
        print(_line(v))
    return 0


def _line(v: BudgetView) -> str:
    used = f"{v.spent / v.limit * 100:.0f}%" if v.limit > 0 else "-"
    return (
        f"{v.id:<40} {v.span:<6} {v.period:<10} {v.spent:>14.2f} {v.limit:>14.2f} "
        f"{v.currency}  {used}"
    )


def _delete(args: argparse.Namespace) -> int:
    engine = _engine(args)
    try:
        view = budget_admin.delete_budget(engine, args.budget_id)
    except budget_admin.BudgetInputError as exc:
        raise CommandError(str(exc)) from None
    finally:
        engine.dispose()
    print(f"deleted {view.id}: {view.describe()}")
    return 0
