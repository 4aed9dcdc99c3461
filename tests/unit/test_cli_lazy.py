"""The CLI imports only the module of the sub-command it runs; the table of names and help
texts in gateway.cli must say what each module registers."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import pytest

from gateway.cli import COMMANDS, build_parser


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_table_matches_the_module(name: str) -> None:
    help_text, module_name = COMMANDS[name]
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    importlib.import_module(module_name).add_parser(sub)
    assert list(sub.choices) == [name]
    [action] = sub._choices_actions
    assert action.help == help_text


def test_every_command_is_listed_without_importing_its_module() -> None:
    code = (
        "import sys; from gateway.cli import COMMANDS, build_parser; "
        "p = build_parser(); "
        "print(sorted(m for _h, m in COMMANDS.values() if m in sys.modules)); "
        "print(sorted(k for k in ('sqlalchemy', 'alembic', 'pydantic', 'fastapi') "
        "if k in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["[]", "[]"]


def test_the_named_command_gets_its_full_parser() -> None:
    args = build_parser("keys").parse_args(["keys", "list", "--tenant", "t"])
    assert args.keys_command == "list" and args.tenant == "t" and callable(args.func)
    help_text = build_parser().format_help()
    for name, (text, _module) in COMMANDS.items():
        assert name in help_text and text in help_text
