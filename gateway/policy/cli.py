"""`gateway policy check FILE`, `gateway policy explain FILE --model A --text "..."`,
`gateway policy schema` — none of them calls a backend (`gateway policy simulate`, which
reads the ledger, is added by gateway/policy_commands.py)."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

from gateway.policy.explain import explain_text
from gateway.policy.limits import limits_from
from gateway.policy.loader import CompiledPolicy, PolicyError, json_schema_text, load_file
from gateway.settings import Settings


def add_parser(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:  # type: ignore[type-arg]
    """The `policy` verbs; returns their sub-parsers so the composition root can add the
    verbs that need the ledger (`simulate`)."""
    p = sub.add_parser("policy", help="check a policy file, explain a routing decision")
    psub: argparse._SubParsersAction = p.add_subparsers(  # type: ignore[type-arg]
        dest="policy_command", required=True
    )
    check = psub.add_parser("check", help="validate a policy; every problem with path and line")
    check.add_argument("file")
    check.set_defaults(func=_check)
    ex = psub.add_parser("explain", help="print the decision trace for a text (no backend call)")
    ex.add_argument("file")
    ex.add_argument("--model", required=True, help="the alias a client would call")
    ex.add_argument("--text", required=True)
    ex.add_argument("--tenant", default="default")
    ex.add_argument("--app", default="default")
    ex.add_argument("--header", action="append", default=[], metavar="NAME=VALUE")
    ex.set_defaults(func=_explain)
    sc = psub.add_parser("schema", help="print the policy JSON Schema")
    sc.add_argument("--output", "-o", help="write to this file instead of stdout")
    sc.set_defaults(func=_schema)
    return psub


def _load(path: str) -> CompiledPolicy | None:
    """The policy, or None after one line per problem on stderr (no traceback, whatever
    the file holds)."""
    try:
        return load_file(path, limits_from(Settings.from_env()))
    except PolicyError as exc:
        for p in exc.problems:
            print(f"{path}: {p}", file=sys.stderr)
    except ValueError as exc:  # a bad GECIT_* setting
        print(f"gateway: {exc}", file=sys.stderr)
    return None


def _check(args: argparse.Namespace) -> int:
    compiled = _load(args.file)
    if compiled is None:
        return 2
    for w in compiled.warnings:
        print(f"warning: {w}", file=sys.stderr)
    p = compiled.policy
    print(
        f"{args.file}: OK (sha256 {compiled.sha256[:12]}; {len(p.backends)} backends, "
        f"{len(p.aliases)} aliases, {len(p.rules)} rules)"
    )
    return 0


def _explain(args: argparse.Namespace) -> int:
    compiled = _load(args.file)
    if compiled is None:
        return 2
    if args.model not in compiled.policy.aliases:
        print(
            f"unknown model '{args.model}'; aliases: {', '.join(compiled.aliases)}", file=sys.stderr
        )
        return 2
    headers = dict(h.split("=", 1) for h in args.header if "=" in h)
    try:
        trace = explain_text(
            compiled,
            args.model,
            args.text,
            tenant=args.tenant,
            app=args.app,
            headers=headers,
            today=date.today(),
        )
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    pooled = [
        c["backend"]
        for c in trace["candidates"]
        if getattr(compiled.policy.backends[c["backend"]], "endpoints", None)
    ]
    if pooled:
        from gateway.core.types import ChatRequest
        from gateway.fleet.explain import explain_nodes

        request = ChatRequest.model_validate(
            {"model": args.model, "messages": [{"role": "user", "content": args.text}]}
        )
        trace["nodes"] = explain_nodes(compiled.policy, pooled, request)
    print(json.dumps(trace, indent=2, ensure_ascii=False))
    return 0


def _schema(args: argparse.Namespace) -> int:
    text = json_schema_text()
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
