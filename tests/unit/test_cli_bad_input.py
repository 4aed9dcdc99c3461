"""Every `gateway` verb answers bad input (a missing file, a ledger that was never written, a
wrong argument) with ONE line on stderr and exit code 2, never a traceback. Each case runs the
real command in a subprocess, in an empty directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.settings import DEFAULT_POLICY

ROOT = Path(__file__).resolve().parents[2]

# (id, argv, what the ledger file is: None = absent, "" = an empty file)
CASES: list[tuple[str, list[str], str | None]] = [
    ("no-verb", [], None),
    ("unknown-verb", ["frobnicate"], None),
    ("serve-missing-policy", ["serve", "--policy", "missing.yaml"], None),
    ("serve-bad-port", ["serve", "--port", "eighty"], None),
    ("serve-unknown-flag", ["serve", "--colour"], None),
    (
        "serve-missing-ledger-dir",
        ["serve", "--no-local-engine", "--database-url", "sqlite:///no/such/dir/ledger.db"],
        None,
    ),
    ("serve-bad-database-url", ["serve", "--no-local-engine", "--database-url", "foo://x"], None),
    # nothing listens on port 1: a ledger that does not answer is one line, not a start-up
    # traceback (and the password never shows)
    (
        "serve-unreachable-database",
        [
            "serve",
            "--no-local-engine",
            "--database-url",
            "postgresql://nobody:sekret@127.0.0.1:1/x",
        ],
        None,
    ),
    ("policy-no-subcommand", ["policy"], None),
    ("policy-check-missing", ["policy", "check", "missing.yaml"], None),
    (
        "policy-explain-missing",
        ["policy", "explain", "missing.yaml", "--model", "smollm2", "--text", "merhaba"],
        None,
    ),
    (
        "policy-explain-unknown-model",
        ["policy", "explain", str(DEFAULT_POLICY), "--model", "nope", "--text", "merhaba"],
        None,
    ),
    (
        "policy-explain-no-text",
        ["policy", "explain", str(DEFAULT_POLICY), "--model", "smollm2"],
        None,
    ),
    ("policy-schema-bad-output", ["policy", "schema", "-o", "no/such/dir/schema.json"], None),
    ("policy-simulate-missing", ["policy", "simulate", "missing.yaml"], None),
    ("policy-simulate-bad-policy", ["policy", "simulate", "bad.yaml"], None),
    (
        "policy-simulate-reversed",
        ["policy", "simulate", str(DEFAULT_POLICY), "--from", "2026-02-02", "--to", "2026-02-01"],
        None,
    ),
    (
        "policy-simulate-missing-ledger",
        ["policy", "simulate", str(DEFAULT_POLICY), "--from", "2026-02-01"],
        None,
    ),
    ("policy-simulate-bad-date", ["policy", "simulate", str(DEFAULT_POLICY), "--to", "x"], None),
    ("report-missing-ledger", ["report"], None),
    ("report-never-served-ledger", ["report"], ""),
    ("report-bad-date", ["report", "--from", "yesterday"], None),
    ("report-bad-group", ["report", "--group-by", "colour"], None),
    ("report-missing-policy", ["report", "--policy", "missing.yaml"], None),
    ("classify-nothing", ["classify"], None),
    ("classify-missing-jsonl", ["classify", "--jsonl", "missing.jsonl"], None),
    ("classify-missing-config", ["classify", "merhaba", "--config", "missing.yaml"], None),
    ("classify-bad-config", ["classify", "merhaba", "--config", "bad.yaml"], None),
    ("keys-no-subcommand", ["keys"], None),
    ("keys-create-no-tenant", ["keys", "create"], None),
    ("keys-revoke-unknown", ["keys", "revoke", "key_nope"], None),
    ("keys-rotate-unknown", ["keys", "rotate", "key_nope"], None),
    ("keys-budget-bad-amount", ["keys", "budget", "--tenant", "t", "lots"], None),
    (
        "keys-list-ledger-dir-missing",
        ["keys", "list", "--database-url", "sqlite:///no/such/dir/ledger.db"],
        None,
    ),
    ("keys-list-bad-database-url", ["keys", "list", "--database-url", "mysql+nope://x/y"], None),
    ("budgets-no-subcommand", ["budgets"], None),
    ("budgets-create-no-scope", ["budgets", "create", "5"], None),
    (
        "budgets-create-two-scopes",
        ["budgets", "create", "--tenant", "a", "--alias", "b", "5"],
        None,
    ),
    (
        "budgets-create-bad-period",
        ["budgets", "create", "--tenant", "a", "5", "--period", "year"],
        None,
    ),
    ("budgets-create-bad-amount", ["budgets", "create", "--tenant", "a", "-5 USD"], None),
    ("budgets-create-bad-currency", ["budgets", "create", "--tenant", "a", "5 EUR"], None),
    ("budgets-create-bad-tag", ["budgets", "create", "--tag", "Project", "5"], None),
    ("budgets-create-bad-app", ["budgets", "create", "--app", "noslash", "5"], None),
    ("budgets-create-unknown-key", ["budgets", "create", "--key", "k_nope", "5"], None),
    ("budgets-create-empty-tenant", ["budgets", "create", "--tenant", "", "5"], None),
    ("budgets-delete-unknown", ["budgets", "delete", "tenant:nobody"], None),
    ("audit-no-subcommand", ["audit"], None),
    ("audit-verify-missing-ledger", ["audit", "verify"], None),
    ("audit-verify-never-served-ledger", ["audit", "verify"], ""),
    ("emulate-unknown-kind", ["emulate", "azure"], None),
    ("emulate-bad-port", ["emulate", "openai", "--port", "x"], None),
]


@pytest.mark.parametrize(("argv", "ledger"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, argv: list[str], ledger: str | None
) -> None:
    db = tmp_path / "ledger.db"
    if ledger is not None:
        db.write_text(ledger)
    (tmp_path / "bad.yaml").write_text("sensitivity: {unknown_knob: [1\n")
    env = {
        **os.environ,
        "GECIT_DATABASE_URL": f"sqlite:///{db}",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("GECIT_POLICY", None)
    out = subprocess.run(
        [sys.executable, "-m", "gateway", *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = out.stderr.strip().splitlines()
    assert "Traceback" not in out.stderr, out.stderr
    assert "sekret" not in out.stderr  # a password in a URL is never echoed
    assert len(lines) == 1, out.stderr
    assert out.returncode == 2, (out.returncode, out.stderr)
    if ledger is None and (
        argv[:1] in (["report"], ["audit"]) or argv[:2] == ["policy", "simulate"]
    ):
        assert not db.exists(), "a verb that reads the ledger must not create one"
