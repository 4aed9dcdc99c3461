"""`gateway audit verify`: walk the hash chain and name the first broken entry.
`gateway audit quarantine`: the ledger rows the database refused (see usage/quarantine.py),
and `--replay` to write them once the cause is fixed."""

from __future__ import annotations

import argparse
import sys

from gateway.settings import Settings


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("audit", help="the hash-chained audit log of routing decisions")
    audit_sub = p.add_subparsers(dest="audit_command", required=True)
    v = audit_sub.add_parser(
        "verify",
        help="check the chain; exit 1 and name the first broken entry when it does not hold",
    )
    v.add_argument(
        "--database-url", dest="database_url", help="ledger database URL (env GECIT_DATABASE_URL)"
    )
    v.set_defaults(func=_verify)
    q = audit_sub.add_parser(
        "quarantine",
        help="list ledger rows the database refused "
        "(kept beside the journal); --replay writes them again",
    )
    q.add_argument(
        "--database-url", dest="database_url", help="ledger database URL (env GECIT_DATABASE_URL)"
    )
    q.add_argument(
        "--journal-path",
        dest="journal_path",
        help="the gateway's journal directory (env GECIT_JOURNAL_PATH)",
    )
    q.add_argument(
        "--port",
        type=int,
        help="the gateway's port, when the journal directory is the default one (env GECIT_PORT)",
    )
    q.add_argument(
        "--replay",
        action="store_true",
        help="write the quarantined rows now; those still refused stay",
    )
    q.set_defaults(func=_quarantine)


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


def _quarantine(args: argparse.Namespace) -> int:
    from gateway.usage.quarantine import FILE_NAME, Quarantine
    from gateway.usage.wiring import journal_dir

    try:
        settings = Settings.from_env(
            database_url=args.database_url, journal_path=args.journal_path, port=args.port
        )
    except ValueError as exc:
        print(f"gateway audit: {exc}", file=sys.stderr)
        return 2
    quarantine = Quarantine(
        journal_dir(settings.journal_path, settings.database_url, settings.port) / FILE_NAME
    )
    lines = list(quarantine.lines())
    if args.replay:
        return _replay(settings.database_url, quarantine, lines)
    for line in lines:
        e = line.get("entry") or {}
        print(
            f"{e.get('id')}\t{line.get('reason')}\ttenant={e.get('tenant')}\t"
            f"alias={str(e.get('alias'))[:64]}\tstatus={e.get('status')}"
        )
    print(f"{len(lines)} quarantined row(s) in {quarantine.path}", file=sys.stderr)
    return 0


def _replay(database_url: str, quarantine: object, lines: list[dict[str, object]]) -> int:
    from gateway.usage import budgets
    from gateway.usage.db import make_engine
    from gateway.usage.fit import fit_entry
    from gateway.usage.ledger import write_entries
    from gateway.usage.quarantine import Quarantine, reason_of

    assert isinstance(quarantine, Quarantine)
    engine = make_engine(database_url)
    keep: list[dict[str, object]] = []
    try:
        for line in lines:
            entry = line.get("entry")
            if not isinstance(entry, dict):
                continue
            try:
                write_entries(engine, [fit_entry(entry)], budgets.settle)
            except Exception as exc:
                keep.append({**line, "reason": reason_of(exc)})
    finally:
        engine.dispose()
    quarantine.replace(keep)
    print(
        f"{len(lines) - len(keep)} row(s) written, {len(keep)} still quarantined", file=sys.stderr
    )
    return 0 if not keep else 1
