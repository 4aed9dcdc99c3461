#!/usr/bin/env python3
"""Fallback for `terraform fmt -check -recursive` when no terraform binary can be installed.

It checks the layout rules of `terraform fmt` that our files rely on: two-space indentation by
nesting depth, `=` aligned within a run of consecutive single-line attributes, one space around
`=`, no tabs, no trailing whitespace, LF line endings and exactly one final newline. It is an
approximation (heredocs are skipped, not reformatted); where terraform exists run.sh uses it.
Exit status 1 and a list of problems when a file is off.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ATTR = re.compile(r"^(\s*)([A-Za-z_][\w-]*)(\s*)=(?!=)(\s*)(.*)$")


def check(text: str, name: str) -> list[str]:
    problems: list[str] = []
    if "\r" in text:
        problems.append(f"{name}: CRLF line endings")
    if "\t" in text:
        problems.append(f"{name}: tab characters")
    if text and (not text.endswith("\n") or text.endswith("\n\n")):
        problems.append(f"{name}: must end with exactly one newline")
    depth = 0
    heredoc: str | None = None
    group: list[tuple[int, int, int]] = []  # (line, indent, column of '=')

    def flush() -> None:
        if len({col for _, _, col in group}) > 1:
            problems.append(
                f"{name}:{group[0][0]}: '=' not aligned in lines {group[0][0]}-{group[-1][0]}"
            )
        group.clear()

    for n, line in enumerate(text.split("\n"), 1):
        if heredoc is not None:
            if line.strip() == heredoc:
                heredoc = None
            continue
        if line != line.rstrip():
            problems.append(f"{name}:{n}: trailing whitespace")
        stripped = line.strip()
        code = re.sub(r'"(\\.|[^"\\])*"', '""', stripped)
        code = re.sub(r"(#|//).*$", "", code).strip()
        closes = len(code) - len(code.lstrip("}])"))
        if stripped:
            # terraform indents one level per line however many brackets open on it
            expected = 2 * max(depth - min(closes, 1), 0)
            indent = len(line) - len(line.lstrip(" "))
            if indent != expected and not stripped.startswith(("#", "//")):
                problems.append(f"{name}:{n}: indent {indent}, expected {expected}")
        m = ATTR.match(line)
        single = (
            m is not None
            and code.count("{") + code.count("[") + code.count("(")
            == code.count("}") + code.count("]") + code.count(")")
            and "<<" not in code
        )
        if m and single:
            if group and group[-1][1] != len(m.group(1)):
                flush()
            if len(m.group(4)) != 1 and m.group(5):
                problems.append(f"{name}:{n}: exactly one space after '='")
            group.append((n, len(m.group(1)), len(m.group(1)) + len(m.group(2)) + len(m.group(3))))
            if len(m.group(3)) < 1:
                problems.append(f"{name}:{n}: space needed before '='")
        else:
            flush()
        hd = re.search(r"<<-?([A-Z_]+)\s*$", code)
        if hd:
            heredoc = hd.group(1)
        net = code.count("{") + code.count("[") + code.count("(")
        net -= code.count("}") + code.count("]") + code.count(")")
        depth += max(-1, min(1, net))
    flush()
    return problems


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [Path("terraform")]
    problems = []
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*.tf"))
        for f in files:
            if ".terraform" in f.parts:
                continue
            problems += check(f.read_text(encoding="utf-8"), str(f))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
