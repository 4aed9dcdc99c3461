"""`gateway keys create | list | revoke | rotate | budget`: API keys and their monthly budgets
(every scope and period: `gateway budgets`).

`create` and `rotate` print the new key once, alone on the last line of stdout (scripts:
`| tail -n1`).
"""

from __future__ import annotations

import argparse
import sys
import time
from decimal import Decimal

from sqlalchemy.engine import Engine

from gateway.settings import Settings
from gateway.usage import budget_admin, budgets, keys
from gateway.usage.db import make_engine, migrate, require_database_url

CLI_ACTOR = "cli"  # who `gateway keys` is in the audit chain: whoever holds the database URL


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("keys", help="manage API keys and budgets")
    ksub = p.add_subparsers(dest="keys_command", required=True)
    c = ksub.add_parser("create", help="create a key (shown once, on the last line)")
    c.add_argument("--tenant", required=True)
    c.add_argument("--app", default="default")
    c.add_argument("--name")
    c.add_argument("--admin", action="store_true", help="an admin-scope key (admin routes)")
    c.add_argument("--budget", help="monthly budget of this key, e.g. 500 or '500 TRY', '20 USD'")
    c.set_defaults(func=_create)
    ls = ksub.add_parser("list", help="list keys (never the secrets)")
    ls.add_argument("--tenant")
    ls.set_defaults(func=_list)
    r = ksub.add_parser(
        "revoke",
        help="revoke a key (refused within seconds everywhere; its admin sessions end at once)",
    )
    r.add_argument("key_id")
    r.set_defaults(func=_revoke)
    rot = ksub.add_parser(
        "rotate",
        help="a new key with the same tenant, app and scope; the old one revoked (shown once)",
    )
    rot.add_argument("key_id")
    rot.set_defaults(func=_rotate)
    b = ksub.add_parser("budget", help="set a monthly budget of a tenant or a key")
    who = b.add_mutually_exclusive_group(required=True)
    who.add_argument("--tenant")
    who.add_argument("--key", dest="key_id")
    b.add_argument("amount", help="e.g. 500 or '500 TRY', '20 USD'")
    b.set_defaults(func=_budget)
    for q in (c, ls, r, rot, b):
        q.add_argument(
            "--database-url",
            dest="database_url",
            help="ledger database URL (env GECIT_DATABASE_URL)",
        )


def parse_amount(text: str) -> tuple[Decimal, str]:
    return budget_admin.parse_amount(text)


def _engine(args: argparse.Namespace) -> Engine:
    settings = Settings.from_env(database_url=args.database_url)
    require_database_url(settings.database_url)
    engine = make_engine(settings.database_url)
    migrate(engine)
    return engine


def _create(args: argparse.Namespace) -> int:
    try:
        budget = parse_amount(args.budget) if args.budget else None
    except ValueError as exc:
        print(f"gateway keys: {exc}", file=sys.stderr)
        return 2
    engine = _engine(args)
    info, key = keys.create_key(
        engine,
        args.tenant,
        args.app,
        name=args.name,
        scope="admin" if args.admin else "api",
        now=time.time(),
        actor=CLI_ACTOR,
    )
    print(f"key id: {info.id}  tenant: {info.tenant}  app: {info.app}  scope: {info.scope}")
    if budget is not None:
        budgets.set_budget(
            engine, "key", info.id, budget[0], budget[1], time.time(), tenant=info.tenant
        )
        print(f"monthly budget: {budget[0]} {budget[1]}")
    print("the key is shown only once; store it now:")
    print(key)
    engine.dispose()
    return 0


def _list(args: argparse.Namespace) -> int:
    engine = _engine(args)
    rows = keys.list_keys(engine, args.tenant)
    views = {v.id: v for v in budgets.all_budgets(engine)}
    print(f"{'id':<18} {'tenant':<16} {'app':<12} {'scope':<6} {'status':<8} budget")
    for k in rows:
        v = views.get(budgets.budget_id("key", k.id))
        money = f"{v.spent:.2f}/{v.limit:.2f} {v.currency}" if v else "-"
        status = "active" if k.active else "revoked"
        print(f"{k.id:<18} {k.tenant:<16} {k.app:<12} {k.scope:<6} {status:<8} {money}")
    engine.dispose()
    return 0


def _revoke(args: argparse.Namespace) -> int:
    engine = _engine(args)
    done = keys.revoke_key(engine, args.key_id, time.time(), CLI_ACTOR)
    engine.dispose()
    if not done:
        print(f"gateway keys: no active key {args.key_id!r}", file=sys.stderr)
        return 2
    print(f"revoked {args.key_id}")
    return 0


def _rotate(args: argparse.Namespace) -> int:
    engine = _engine(args)
    rotated = keys.rotate_key(engine, args.key_id, time.time(), CLI_ACTOR)
    engine.dispose()
    if rotated is None:
        print(f"gateway keys: no active key {args.key_id!r}", file=sys.stderr)
        return 2
    info, key = rotated
    print(f"revoked {args.key_id}; new key id: {info.id}  tenant: {info.tenant}  app: {info.app}")
    print("the key is shown only once; store it now:")
    print(key)
    return 0


def _budget(args: argparse.Namespace) -> int:
    """A monthly tenant or key budget (`gateway budgets` has every scope and period)."""
    try:
        amount, currency = parse_amount(args.amount)
    except ValueError as exc:
        print(f"gateway keys: {exc}", file=sys.stderr)
        return 2
    engine = _engine(args)
    scope, subject = ("tenant", args.tenant) if args.tenant else ("key", args.key_id)
    try:
        budget_admin.create_budget(
            engine, budget_admin.BudgetRequest(scope, subject, args.amount), time.time()
        )
    except budget_admin.BudgetInputError as exc:
        print(f"gateway keys: {exc}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    print(f"monthly budget of {scope} {subject}: {amount} {currency}")
    return 0
