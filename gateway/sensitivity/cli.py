"""`gateway classify TEXT` and `gateway classify --jsonl FILE`: offline audit of prompts.
Output carries labels, entity types, counts and categories only — never the values."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

import yaml
from pydantic import ValidationError

from gateway.cli_support import CommandError
from gateway.sensitivity.classifier import Classifier
from gateway.sensitivity.config import SensitivityConfig
from gateway.sensitivity.result import Sensitivity


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("classify", help="classify text for personal/special data")
    p.add_argument("text", nargs="?", help="the text to classify")
    p.add_argument("--jsonl", type=Path, help='file of {"id", "text"} lines ("-" for stdin)')
    p.add_argument(
        "--config", type=Path, help="YAML with a sensitivity: section (or the bare model)"
    )
    p.add_argument("--output", "-o", type=Path, help="write results here instead of stdout")
    p.set_defaults(func=run)


def _load_config(path: Path | None) -> SensitivityConfig:
    if path is None:
        return SensitivityConfig()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if isinstance(data, dict) and "sensitivity" in data:
            data = data["sensitivity"]
        return SensitivityConfig.model_validate(data)
    except (yaml.YAMLError, ValidationError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CommandError(f"{path} is not a sensitivity configuration ({first})") from None


def _record(ident: Any, s: Sensitivity) -> dict[str, Any]:
    rec: dict[str, Any] = {"id": ident, "label": s.data_class}
    rec["entities"] = [{"type": e.type, "count": e.count} for e in s.entities]
    rec["categories"] = list(s.categories)
    rec["band"] = s.band
    rec["stage"] = s.stage
    if s.reason:
        rec["reason"] = s.reason
    return rec


def _classify_jsonl(clf: Classifier, src: TextIO, out: TextIO) -> int:
    bad = 0
    for lineno, line in enumerate(src, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            text = obj["text"]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            print(f"line {lineno}: expected a JSON object with a string 'text'", file=sys.stderr)
            bad += 1
            continue
        rec = _record(obj.get("id", lineno), clf.classify([text]))
        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return 1 if bad else 0


def run(args: argparse.Namespace) -> int:
    if (args.text is None) == (args.jsonl is None):
        print("give either TEXT or --jsonl FILE", file=sys.stderr)
        return 2
    if args.jsonl is not None and str(args.jsonl) != "-" and not args.jsonl.is_file():
        raise CommandError(f"no such file: {args.jsonl}")
    clf = Classifier(_load_config(args.config))
    clf.warm_judge()  # as the gateway does at start-up: the same answers as it gives
    out: TextIO = sys.stdout
    close = False
    if args.output is not None:
        out, close = args.output.open("w", encoding="utf-8"), True
    try:
        if args.text is not None:
            out.write(
                json.dumps(_record(None, clf.classify([args.text])), ensure_ascii=False) + "\n"
            )
            return 0
        if str(args.jsonl) == "-":
            return _classify_jsonl(clf, sys.stdin, out)
        with args.jsonl.open(encoding="utf-8") as src:
            return _classify_jsonl(clf, src, out)
    finally:
        if close:
            out.close()
