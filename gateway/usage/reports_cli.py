"""`gateway report --from --to --group-by ... --format table|csv|json` and
`gateway report rebuild` (recompute the daily rollups from the ledger)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, date, datetime

import orjson

from gateway.settings import Settings


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("report", help="cost report from the daily rollups")
    p.add_argument(
        "--from", dest="start", type=_day, help="first UTC day (default: the 1st of this month)"
    )
    p.add_argument("--to", dest="end", type=_day, help="last UTC day, inclusive (default: today)")
    p.add_argument(
        "--group-by",
        dest="group_by",
        default="tenant",
        help="comma list of tenant,app,backend,model,data_class,day and at most one "
        "tag:NAME (a cost-attribution tag the policy names); or `node` alone: per node of "
        "pooled on-prem backends, from the ledger",
    )
    p.add_argument("--format", choices=("table", "csv", "json"), default="table")
    p.add_argument("--tenant", help="only this tenant's traffic")
    p.add_argument("--database-url", dest="database_url", help="env GECIT_DATABASE_URL")
    p.add_argument(
        "--policy",
        help="policy YAML for the cloud reference and the billing rates "
        "(USD->TRY, KDV) (env GECIT_POLICY)",
    )
    p.add_argument(
        "--rebuild",
        action="store_true",
        help="recompute the rollups of the range from the ledger first",
    )
    p.set_defaults(func=_report)


def _report(args: argparse.Namespace) -> int:
    from gateway.policy.limits import limits_from
    from gateway.policy.loader import PolicyError, load_file
    from gateway.usage.cloud_reference import PolicyCloudReference, zones_of
    from gateway.usage.db import open_ledger
    from gateway.usage.report_format import to_csv, to_json, to_table
    from gateway.usage.reports import Rates, ReportError, ReportQuery, run_report
    from gateway.usage.rollup_rebuild import rebuild
    from gateway.usage.rollups import zone_resolver

    settings = Settings.from_env(database_url=args.database_url, policy=args.policy)
    today = datetime.now(UTC).date()
    if "node" in (g.strip() for g in args.group_by.split(",")):
        return _node_report(args, settings, today)
    try:
        query = ReportQuery(
            start=args.start or today.replace(day=1),
            end=args.end or today,
            group_by=tuple(g.strip() for g in args.group_by.split(",") if g.strip()),
            tenant=args.tenant,
        )
        policy = load_file(settings.policy, limits_from(settings)).policy
    except (ReportError, PolicyError) as exc:
        print(f"gateway report: {exc}", file=sys.stderr)
        return 2
    engine = open_ledger(settings.database_url)
    try:
        if args.rebuild:
            rebuild(engine, zone_resolver(zones_of(policy)), query.start, query.end)
        report = run_report(
            engine, query, PolicyCloudReference(policy, today), Rates.of(policy.billing)
        )
    finally:
        engine.dispose()
    if args.format == "json":
        sys.stdout.write(orjson.dumps(to_json(report), option=orjson.OPT_INDENT_2).decode() + "\n")
    elif args.format == "csv":
        sys.stdout.write(to_csv(report))
    else:
        sys.stdout.write(to_table(report))
    return 0


def _node_report(args: argparse.Namespace, settings: Settings, today: date) -> int:
    from gateway.policy.limits import limits_from
    from gateway.policy.loader import PolicyError, load_file
    from gateway.usage.cloud_reference import PolicyCloudReference
    from gateway.usage.db import open_ledger
    from gateway.usage.node_report import NodeQuery, run_node_report
    from gateway.usage.node_report_format import to_csv, to_json, to_table
    from gateway.usage.reports import ReportError

    try:
        if [g.strip() for g in args.group_by.split(",") if g.strip()] != ["node"]:
            raise ReportError("group by node alone (per-node figures come from the ledger)")
        if args.rebuild:
            raise ReportError("--rebuild recomputes rollups; the node report reads the ledger")
        query = NodeQuery(args.start or today.replace(day=1), args.end or today, args.tenant)
        policy = load_file(settings.policy, limits_from(settings)).policy
    except (ReportError, PolicyError) as exc:
        print(f"gateway report: {exc}", file=sys.stderr)
        return 2
    engine = open_ledger(settings.database_url)
    try:
        report = run_node_report(engine, query, PolicyCloudReference(policy, today))
    finally:
        engine.dispose()
    if args.format == "json":
        sys.stdout.write(orjson.dumps(to_json(report), option=orjson.OPT_INDENT_2).decode() + "\n")
    elif args.format == "csv":
        sys.stdout.write(to_csv(report))
    else:
        sys.stdout.write(to_table(report))
    return 0
