"""`gateway audit verify`: walk the hash chain and name the first broken entry."""

from __future__ import annotations

import argparse
import sys

from gateway.settings import Settings


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("audit", help="the hash-chained audit log of routing decisions")
    audit_sub = p.add_subparsers(dest="audit_command", required=True)
    v = audit_sub.add_parser("verify", help="check the chain; exit 1 and name the first "
                             "broken entry when it does not hold")
    v.add_argument("--database-url", dest="database_url",
                   help="ledger database URL (env GECIT_DATABASE_URL)")
    v.set_defaults(func=_verify)


def _verify(args: argparse.Namespace) -> int:
    from gateway.usage.audit import AuditLog
    from gateway.usage.db import open_ledger

    settings = Settings.from_env(database_url=args.database_url)
    engine = open_ledger(settings.database_url)
    try:
        result = AuditLog(engine).verify()
    finally:
        engine.dispose()
    print(result.message(), file=sys.stdout if result.ok else sys.stderr)
    return 0 if result.ok else 1
