"""Ledger sub-commands. 6b's `report` and `audit` parsers register here; 6a adds `keys` etc."""

from __future__ import annotations

import argparse

from gateway.usage import audit_cli, reports_cli


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    reports_cli.add_parser(sub)
    audit_cli.add_parser(sub)
