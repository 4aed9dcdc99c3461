"""What every `gateway` verb shares at its edge: bad input (a missing file, a ledger that was
never written, a wrong argument) is answered with ONE line on stderr and exit code 2, never a
traceback. Verbs raise `CommandError` for what they find wrong themselves; `run` turns that and
the usual outside failures (files, databases) into that one line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn

USAGE_ERROR = 2  # bad input: the caller's to fix
FAILED = 1  # anything else that went wrong


class CommandError(Exception):
    """A verb's one-line complaint about its input (exit code 2)."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, whose errors are one line (it prints the whole usage first by default); the
    sub-parsers it creates are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: {_first_line(message)} (see {self.prog} -h)\n")


def run(prog: str, func: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run one verb; what it raises becomes one line on stderr and an exit code."""
    try:
        return int(func(args))
    except CommandError as exc:
        return _say(prog, str(exc), USAGE_ERROR)
    except OSError as exc:  # a file that is missing, unreadable, a directory...
        where = f": {exc.filename}" if exc.filename else ""
        return _say(prog, f"{exc.strerror or exc}{where}", USAGE_ERROR)
    except Exception as exc:
        if type(exc).__module__.split(".")[0] == "sqlalchemy":  # the ledger database said no
            # the driver's own message, never the statement or its parameters
            reason = str(getattr(exc, "orig", None) or type(exc).__name__)
            return _say(prog, f"ledger database error: {reason}", USAGE_ERROR)
        return _say(prog, f"failed ({type(exc).__name__}): {exc}", FAILED)


def _say(prog: str, message: str, code: int) -> int:
    print(f"{prog}: {_first_line(message)}", file=sys.stderr)
    return code


def _first_line(text: str) -> str:
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    return lines[0] if lines else "error"
