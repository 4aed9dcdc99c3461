"""The policy page's HTML: the editor with its line numbers, the verdict of Validate (every
problem with its line, worded as `gateway policy check` prints it), a diff, an Explain trace and
the version history with a Roll back form per version. Pure rendering: every value is escaped."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from gateway.admin import pages
from gateway.openai_api.auth import Principal
from gateway.policy.loader import CompiledPolicy, Problem
from gateway.usage.policy_store import StoredPolicy, Version


@dataclass
class PolicyView:
    """What one rendering of the page shows."""

    running: CompiledPolicy
    text: str
    history: Sequence[Version]
    notice: str = ""
    results: str = ""
    bad_lines: set[int] = field(default_factory=set)
    version: str = ""
    model: str = ""
    tenant: str = "default"
    app: str = "default"
    prompt: str = ""
    sim_from: str = ""  # the Simulate form's range (YYYY-MM-DD) and tenant ("" = every one)
    sim_to: str = ""
    sim_tenant: str = ""


def render(view: PolicyView, who: Principal) -> str:
    return pages.template("policy.html").substitute(
        nav=pages.nav(who),
        sha=escape(view.running.sha256),
        source=escape(view.running.source),
        warnings=_warnings(view.running.warnings),
        notice=view.notice,
        csrf=escape(who.csrf or "", quote=True),
        bad_lines=",".join(str(n) for n in sorted(view.bad_lines)),
        gutter=gutter(view.text, view.bad_lines),
        text=escape(view.text),
        model=escape(view.model or next(iter(view.running.policy.aliases), ""), quote=True),
        tenant=escape(view.tenant, quote=True),
        app=escape(view.app, quote=True),
        prompt=escape(view.prompt),
        sim_from=escape(view.sim_from, quote=True),
        sim_to=escape(view.sim_to, quote=True),
        sim_tenant=escape(view.sim_tenant, quote=True),
        results=view.results,
        history=history(view.history, who),
        version=view.version,
    )


def gutter(text: str, bad: set[int]) -> str:
    """Line numbers for the text as it arrives (editor.js keeps them in step while typing)."""
    count = text.count("\n") + 1
    return "\n".join(
        f'<span class="bad">{n}</span>' if n in bad else str(n) for n in range(1, count + 1)
    )


def _warnings(warnings: Iterable[Problem]) -> str:
    items = "".join(f"<li>warning: {escape(str(w))}</li>" for w in warnings)
    return f"<ul>{items}</ul>" if items else ""


def ok(message: str) -> str:
    return f'<div class="ok" id="notice">{escape(message)}</div>'


def error(message: str) -> str:
    return f'<div class="error" id="notice">{escape(message)}</div>'


def problems(found: Sequence[Problem], warnings: Sequence[Problem] = ()) -> str:
    """Each problem with a link that selects its line in the editor."""
    items = []
    for p in found:
        line = f'<a href="#policy-text" data-goto="{p.line}">line {p.line}</a>' if p.line else ""
        items.append(f'<li class="problem" data-line="{p.line or ""}">{line} {escape(str(p))}</li>')
    items += [f'<li class="warning">warning: {escape(str(w))}</li>' for w in warnings]
    head = f"{len(found)} problem(s)" if found else "valid"
    return (
        f'<section id="problems"><h2>{head}</h2><ul class="problems">{"".join(items)}</ul>'
        "</section>"
    )


def diff(lines: Sequence[str], title: str, anchor: str = "diff-result") -> str:
    def one(line: str) -> str:
        kind = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        return f'<span class="{kind}">{escape(line)}</span>' if kind else escape(line)

    body = "\n".join(one(x) for x in lines) if lines else "(no difference)"
    return (
        f'<section id="{anchor}"><h2>{escape(title)}</h2><pre class="diff">{body}</pre></section>'
    )


def explain(trace: dict[str, Any]) -> str:
    """Class, rule, candidates (in order) and every dropped backend with its reason."""
    cands = "".join(
        f"<tr><td>{escape(str(c['backend']))}</td><td>{escape(str(c.get('zone')))}</td>"
        f"<td>{escape(str(c.get('estimated_usd')))}</td></tr>"
        for c in trace.get("candidates", [])
    )
    dropped = "".join(
        f"<tr><td>{escape(str(d['backend']))}</td><td>{escape(str(d['code']))}</td>"
        f"<td>{escape(str(d['reason']))}</td></tr>"
        for d in trace.get("dropped", [])
    )
    blocked = trace.get("blocked")
    return (
        '<section id="explain-result"><h2>Explain</h2>'
        f'<p>data class <b id="explain-class">{escape(str(trace.get("data_class")))}</b>, '
        f'rule <b id="explain-rule">{escape(str(trace.get("rule")))}</b>, '
        f"objective {escape(str(trace.get('objective')))}"
        + (f", blocked: {escape(str(blocked))}" if blocked else "")
        + '</p><h2>Candidates</h2><table id="explain-candidates"><tr><th>backend</th>'
        f"<th>zone</th><th>estimated USD</th></tr>{cands}</table>"
        '<h2>Dropped</h2><table id="explain-dropped"><tr><th>backend</th><th>code</th>'
        f"<th>reason</th></tr>{dropped}</table></section>"
    )


def history(versions: Sequence[Version], who: Principal) -> str:
    csrf = escape(who.csrf or "", quote=True)
    rows = "".join(
        f'<tr data-version="{v.id}"><td><a href="/admin/console/policy?version={v.id}">'
        f"#{v.id}</a></td><td>{escape(v.created_at.isoformat(sep=' ', timespec='seconds'))} UTC"
        f"</td><td>{escape(v.actor)}</td><td><code>{escape(v.sha256[:12])}</code></td><td>"
        f'<form method="post" action="/admin/console/policy/rollback">'
        f'<input type="hidden" name="csrf" value="{csrf}">'
        f'<input type="hidden" name="version" value="{v.id}">'
        f'<button type="submit" id="rollback-{v.id}">Roll back to #{v.id}</button></form>'
        "</td></tr>"
        for v in versions
    )
    if not rows:
        return "<p>No stored versions yet.</p>"
    return (
        "<table><tr><th>version</th><th>when</th><th>who</th><th>sha256</th><th></th></tr>"
        f"{rows}</table>"
    )


def version(doc: StoredPolicy, lines: Sequence[str]) -> str:
    return diff(lines, f"Version #{doc.id} by {doc.actor}: what it changed", "version-diff")
