"""The policy page in-process over a real SQLite ledger: Validate lists every problem with its
line exactly as `gateway policy check` prints it, Diff, Explain (class, rule, candidates,
dropped reasons), Apply (the running policy swaps, the change is recorded with its actor and
audited, the document is stored for the other replicas) and Roll back to an earlier version."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from sqlalchemy import text

from gateway.cli import main as gateway_cli
from gateway.emulators.base import EmulatorServer
from gateway.usage.db import make_engine
from tests.api.admin_console import ADMIN, Browser, Console, console, policy_yaml, prepare, sign_in

BROKEN_ALIAS = "  chat2: {backends: [nowhere]}\n  chat3: {backends: [elsewhere]}\n"


@pytest.fixture
def gw(tmp_path: Path, openai_emulator: EmulatorServer) -> Iterator[Console]:
    with console(prepare(tmp_path), tmp_path, openai_emulator.url) as c:
        yield c


@pytest.fixture
def admin(gw: Console) -> Browser:
    _r, browser = sign_in(gw.client, ADMIN)
    assert browser is not None
    return browser


def _running(gw: Console) -> str:
    r = gw.client.get("/admin/policy", headers={"authorization": f"Bearer {ADMIN}"})
    return str(r.json()["sha256"])


def test_the_page_shows_the_running_policy_and_its_text(gw: Console, admin: Browser) -> None:
    page = admin.get("/admin/console/policy")
    assert page.status_code == 200
    assert _running(gw) in page.text and "gpu-local" in page.text
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "<script>" not in page.text
    js = gw.client.get("/admin/static/editor.js")
    assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
    assert gw.client.get("/admin/static/../templates/login.html").status_code == 404


def test_validate_lists_every_problem_with_its_line_as_policy_check_does(
    gw: Console, admin: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = policy_yaml("http://127.0.0.1:9/v1", BROKEN_ALIAS)
    page = admin.post(
        "/admin/console/policy", {"csrf": admin.csrf, "op": "validate", "text": broken}
    )
    assert page.status_code == 200
    shown = [
        unescape(m) for m in re.findall(r'<li class="problem"[^>]*>.*?</a> (.*?)</li>', page.text)
    ]
    lines = [int(n) for n in re.findall(r'<li class="problem" data-line="(\d+)"', page.text)]
    (tmp_path / "broken.yaml").write_text(broken)
    assert gateway_cli(["policy", "check", str(tmp_path / "broken.yaml")]) == 2
    printed = [ln.split(": ", 1)[1] for ln in capsys.readouterr().err.splitlines() if ln]
    assert shown == printed and len(shown) >= 2
    aliases = [
        n + 1 for n, ln in enumerate(broken.splitlines()) if ln.startswith(("  chat2", "  chat3"))
    ]
    assert lines == aliases
    assert f'data-bad="{",".join(map(str, sorted(set(lines))))}"' in page.text
    assert f'<span class="bad">{lines[0]}</span>' in page.text
    assert _running(gw) not in broken  # nothing applied


def test_diff_against_the_running_policy(admin: Browser) -> None:
    new = policy_yaml("http://127.0.0.1:9/v1", "  chat2: {backends: [gpu-local]}\n")
    page = admin.post("/admin/console/policy", {"csrf": admin.csrf, "op": "diff", "text": new})
    diff = unescape(page.text.split('id="diff-result"', 1)[1].split("</pre>", 1)[0])
    assert "+  chat2: {backends: [gpu-local]}" in diff and "--- running" in diff


def test_explain_shows_class_rule_candidates_and_dropped_reasons(admin: Browser) -> None:
    form = {
        "csrf": admin.csrf,
        "op": "explain",
        "text": policy_yaml("http://127.0.0.1:9/v1"),
        "model": "chat",
        "prompt": "Hastanın TCKN 10000000146, diyabet tanısı var",
        "tenant": "acme",
        "app": "web",
    }
    page = admin.post("/admin/console/policy", form)
    result = page.text.split('id="explain-result"', 1)[1]
    assert re.search(r'id="explain-class">special<', result)
    assert "<td>gpu-local</td><td>on_prem</td>" in result
    assert 'id="explain-dropped"' in result and 'id="explain-rule"' in result


def test_apply_swaps_records_and_shares_then_roll_back(
    gw: Console, admin: Browser, openai_emulator: EmulatorServer
) -> None:
    before = _running(gw)
    new = policy_yaml(openai_emulator.url, "  chat2: {backends: [gpu-local]}\n")
    page = admin.post("/admin/console/policy", {"csrf": admin.csrf, "op": "apply", "text": new})
    assert 'class="ok"' in page.text and "applied" in page.text
    after = _running(gw)
    assert after != before and after in page.text
    models = gw.client.get("/v1/models").json()["data"]
    assert "chat2" in {m["id"] for m in models}
    docs = _rows(gw, "SELECT id, sha256, actor FROM policy_documents ORDER BY id")
    assert docs[-1][1:] == (after, "admin") and docs[0][1] == before
    changes = _wait(gw, "SELECT actor, source, sha256 FROM policy_changes ORDER BY id", 2)
    assert changes[-1] == ("admin", "admin-console", after)
    assert gateway_cli(["audit", "verify", "--database-url", gw.ledger.db]) == 0
    # what version N changed, and a roll back to the first version
    version = admin.get("/admin/console/policy", version=str(docs[-1][0]))
    assert "+  chat2: {backends: [gpu-local]}" in unescape(version.text)
    back = admin.post(
        "/admin/console/policy/rollback", {"csrf": admin.csrf, "version": str(docs[0][0])}
    )
    assert back.status_code == 200 and "rolled back to #" in back.text
    assert _running(gw) == before
    assert "chat2" not in {m["id"] for m in gw.client.get("/v1/models").json()["data"]}
    docs = _rows(gw, "SELECT sha256, actor FROM policy_documents ORDER BY id")
    assert docs[-1] == (before, "admin") and len(docs) == 3


def test_apply_refuses_a_broken_policy_and_keeps_the_running_one(
    gw: Console, admin: Browser
) -> None:
    before = _running(gw)
    broken = policy_yaml("http://127.0.0.1:9/v1", BROKEN_ALIAS)
    page = admin.post("/admin/console/policy", {"csrf": admin.csrf, "op": "apply", "text": broken})
    assert "refused" in page.text and 'data-line="' in page.text
    assert _running(gw) == before
    bad = admin.post("/admin/console/policy/rollback", {"csrf": admin.csrf, "version": "99999"})
    assert "no stored version" in bad.text and _running(gw) == before


def _rows(gw: Console, sql: str) -> list[tuple[object, ...]]:
    engine = make_engine(gw.ledger.db)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql))]
    finally:
        engine.dispose()


def _wait(gw: Console, sql: str, n: int) -> list[tuple[object, ...]]:
    deadline = time.monotonic() + 5
    while True:
        rows = _rows(gw, sql)
        if len(rows) >= n or time.monotonic() > deadline:
            return rows
        time.sleep(0.05)


def test_the_editor_reads_the_policy_schema_from_the_gateway(gw: Console, admin: Browser) -> None:
    page = admin.get("/admin/console/policy").text
    for name in ("codemirror.js", "codemirror-yaml.js", "codemirror-show-hint.js", "editor.js"):
        assert f'<script src="/admin/static/{name}" defer></script>' in page
    schema = admin.get("/admin/console/policy/schema.json")
    committed = json.loads((Path(__file__).parents[2] / "policies" / "schema.json").read_text())
    assert schema.status_code == 200 and schema.json() == committed
    _r, acme = sign_in(gw.client, gw.ledger.keys["acme"])
    assert acme is not None and acme.get("/admin/console/policy/schema.json").status_code == 403
    gw.client.cookies.clear()
    assert gw.client.get("/admin/console/policy/schema.json").status_code == 401
