"""docs/architecture.md matches the tree: every package of gateway/ has a row, every module
or folder it names exists, it says where to add a kind, an endpoint and a detector, and README
links to it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_package_has_a_row() -> None:
    table = DOC.split("## Packages", 1)[1].split("## Where to add", 1)[0]
    packages = {
        p.name for p in (ROOT / "gateway").iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    for name in packages:
        assert f"`{name}/`" in table, name


def test_every_named_module_exists() -> None:
    named = set(re.findall(r"\b((?:[a-z_]+/)*[a-z_0-9]+\.py)\b", DOC))
    named |= {m for m in re.findall(r"`([a-z_]+/)`", DOC)}
    assert named
    # a path relative to the repository or to gateway/, or a module name found in a package
    missing = [
        n
        for n in sorted(named)
        if not (ROOT / n).exists()
        and not (ROOT / "gateway" / n).exists()
        and not any((ROOT / "gateway").rglob(n))
    ]
    assert missing == []


def test_it_says_where_to_add_things_and_readme_links_it() -> None:
    where = DOC.split("## Where to add", 1)[1]
    for thing in ("**A backend kind.**", "**An endpoint.**", "**A detector.**"):
        assert thing in where
    assert "(docs/architecture.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
