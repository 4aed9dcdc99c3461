"""`gateway policy simulate NEW.yaml --from --to [--tenant]`: replay the ledger's recorded
requests under another policy and print what would change (gateway/usage/simulate.py)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, date, datetime
from typing import Any

from gateway.settings import Settings


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def add_parser(psub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = psub.add_parser(
        "simulate", help="replay the ledger's requests under a policy: cost, refusals, SLO"
    )
    p.add_argument("file", help="the policy to try")
    p.add_argument("--from", dest="start", type=_day, help="first UTC day (default: 1st of month)")
    p.add_argument("--to", dest="end", type=_day, help="last UTC day, inclusive (default: today)")
    p.add_argument("--tenant", help="only this tenant's requests")
    p.add_argument("--database-url", dest="database_url", help="env GECIT_DATABASE_URL")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=_simulate)


def _simulate(args: argparse.Namespace) -> int:
    import orjson

    from gateway.policy.limits import limits_from
    from gateway.policy.loader import PolicyError, load_file
    from gateway.usage.db import open_ledger
    from gateway.usage.pricing import Pricer, load_catalog
    from gateway.usage.simulate import SimQuery, SimulationError, simulate

    settings = Settings.from_env(database_url=args.database_url)
    today = datetime.now(UTC).date()
    try:
        query = SimQuery(args.start or today.replace(day=1), args.end or today, args.tenant)
        policy = load_file(args.file, limits_from(settings)).policy
    except SimulationError as exc:
        print(f"gateway policy simulate: {exc}", file=sys.stderr)
        return 2
    except PolicyError as exc:
        first = exc.problems[0] if exc.problems else "refused"
        print(f"{args.file}: {first} ({len(exc.problems)} problem(s))", file=sys.stderr)
        return 2
    engine = open_ledger(settings.database_url)
    try:
        result = simulate(engine, policy, Pricer(lambda: policy, load_catalog()), query)
    finally:
        engine.dispose()
    out = result.as_dict()
    if args.format == "json":
        sys.stdout.write(orjson.dumps(out, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        sys.stdout.write(to_table(out))
    return 0


def to_table(out: dict[str, Any]) -> str:
    rec, pred = out["recorded"], out["predicted"]
    lines = [
        f"{out['rows']} recorded requests, {out['from']} .. {out['to']}"
        + (f", tenant {out['tenant']}" if out["tenant"] else ""),
        f"{'':28}{'recorded':>18}{'predicted':>18}",
    ]
    for label, key in (
        ("cost USD (net)", "cost_usd"),
        ("cost TRY (net)", "net_try"),
        ("KDV TRY", "kdv_try"),
        ("cost TRY with KDV", "gross_try"),
        ("cost USD with KDV", "gross_usd"),
        ("requests refused", "refused"),
        ("requests unpriced", "unpriced_requests"),
        ("on-prem share", "on_prem_share"),
        ("SLO misses", "slo_misses"),
    ):
        lines.append(f"{label:28}{_cell(rec[key]):>18}{_cell(pred[key]):>18}")
    lines.append("traffic per backend (recorded -> predicted, change):")
    for backend, change in out["traffic_change"].items():
        before, after = rec["backends"].get(backend, 0), pred["backends"].get(backend, 0)
        lines.append(f"  {backend:26}{before:>10} -> {after:<10}{change:+d}")
    lines.append(
        f"{out['changed_backend']} requests change backend; "
        f"{out['served_without_tokens']} refused before would be served (cost unknown)"
    )
    return "\n".join(lines) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return "n/a (rate not set)"
    if isinstance(value, str):
        try:
            return f"{float(value):,.4f}"
        except ValueError:
            return value
    return str(value)
