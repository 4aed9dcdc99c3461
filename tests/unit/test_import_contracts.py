"""The import contracts (pyproject's [tool.importlinter], run by `make lint`) hold for the
package, and a module that imports across a layer breaks them: `lint-imports` then fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter not installed")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _copy(tmp: Path) -> Path:
    shutil.copytree(
        ROOT / "gateway",
        tmp / "gateway",
        ignore=shutil.ignore_patterns("__pycache__", "*.gguf", "data"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp / "pyproject.toml")
    return tmp


def test_the_package_keeps_every_contract() -> None:
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("core/clock.py", "import gateway.service.chat", "layers"),
        ("policy/engine.py", "import gateway.openai_api.errors", "layers"),
        (
            "providers/ollama/errors.py",
            "import gateway.providers.vertex.errors",
            "a provider never imports another provider",
        ),
        ("service/chat.py", "import fastapi", "FastAPI only in app, openai_api and admin"),
        ("service/chat.py", "import sqlmodel", "SQLModel only in usage"),
        (
            "openai_api/handlers.py",
            "import gateway.providers.ollama.adapter",
            "a handler never imports a concrete provider",
        ),
        ("service/dispatcher.py", "import boto3", "a vendor SDK only inside its own provider"),
    ],
)
def test_an_import_across_a_boundary_breaks_its_contract(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    root = _copy(tmp_path)
    target = root / "gateway" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    result = _lint(root)
    assert result.returncode != 0
    assert "1 broken" in result.stdout, result.stdout[-3000:]
    assert contract in result.stdout.split("Broken contracts", 1)[1], result.stdout[-3000:]
