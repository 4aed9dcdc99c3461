"""mypy runs strict on the layered packages (pyproject's [[tool.mypy.overrides]], run by
`make typecheck`): an untyped def or an ignore without its error code in one of them fails."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MYPY = Path(sys.executable).parent / "mypy"
STRICT = ("core", "policy", "service", "usage", "providers", "fleet")

pytestmark = pytest.mark.skipif(not MYPY.exists(), reason="mypy not installed")


def _strict_modules() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: set[str] = set()
    for override in config["tool"]["mypy"]["overrides"]:
        if override.get("strict"):
            modules = override["module"]
            found.update([modules] if isinstance(modules, str) else modules)
    return found


def test_the_layered_packages_are_strict() -> None:
    assert {f"gateway.{name}.*" for name in STRICT} <= _strict_modules()


def test_an_untyped_def_in_a_strict_package_fails(tmp_path: Path) -> None:
    # a lone probe module per package under a copy of the config: mypy names each
    # gateway.<package>.probe, so the package's override applies without checking the whole tree
    (tmp_path / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "gateway" / "__init__.py").parent.mkdir()
    (tmp_path / "gateway" / "__init__.py").write_text("", encoding="utf-8")
    for package in STRICT:
        folder = tmp_path / "gateway" / package
        folder.mkdir()
        (folder / "__init__.py").write_text("", encoding="utf-8")
        (folder / "probe.py").write_text(
            "def echo(x):\n    return x\n\n\nlimit: int = 'a'  # type: ignore\n", encoding="utf-8"
        )
    probes = [f"gateway/{package}/probe.py" for package in STRICT]
    result = subprocess.run(
        [str(MYPY), "--no-incremental", *probes],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stdout
    for probe in probes:
        assert f"{probe}:1: error: Function is missing a type annotation" in result.stdout
        assert f'{probe}:5: error: "type: ignore" comment without error code' in result.stdout
