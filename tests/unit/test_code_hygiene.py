"""Comments say why in the code's own terms: none cites a tracker item (an issue number, an
acceptance point, a task label), which means nothing in the repository. Removed dead code
stays removed."""

from __future__ import annotations

import re
from pathlib import Path

from gateway.core.errors import FailureKind
from gateway.providers.ollama.adapter import OllamaProvider
from gateway.providers.openai_compat.adapter import OpenAICompatProvider

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"\b(?:issues? \d+|acceptance \d+\w?\b|\d+[a-z]'s\b)", re.IGNORECASE)
# files other branches were editing when the rest was cleaned; cleaned when they merge
PENDING = {
    "gateway/usage/ledger.py",
    "gateway/httpserver.py",
    "bench/classify.py",
    "tests/e2e/test_vendors_through_gateway.py",
}


def test_no_comment_cites_a_tracker_item() -> None:
    found = []
    for top in ("gateway", "tests", "bench"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in PENDING:
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if CITATION.search(line):
                    found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []


def test_removed_dead_code_stays_removed() -> None:
    assert not hasattr(FailureKind.TIMEOUT, "retryable")  # fallback uses may_fall_back only
    assert not hasattr(OpenAICompatProvider, "list_models")  # /v1/models comes from the policy
    assert "on_timings" not in OllamaProvider.__init__.__code__.co_varnames
