"""Ledger sub-commands: `keys` (6a) and, when present, 6b's `report` and `audit`."""

from __future__ import annotations

import argparse
import importlib

_OPTIONAL = ("gateway.usage.reports_cli", "gateway.usage.audit_cli")


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from gateway.usage import keys_cli

    keys_cli.add_parser(sub)
    for name in _OPTIONAL:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue
            raise
        module.add_parser(sub)
