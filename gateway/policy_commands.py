"""The `gateway policy` verbs: those of gateway.policy.cli, and `simulate`, which replays the
ledger (gateway.usage) and so cannot live in the policy package."""

from __future__ import annotations

import argparse

from gateway.policy import cli as policy_cli
from gateway.usage import simulate_cli


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    simulate_cli.add_parser(policy_cli.add_parser(sub))
