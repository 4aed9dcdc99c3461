"""What an admin does to the policy, for the JSON API (`PUT /admin/policy`) and the policy
page alike: validate a document (every problem with its YAML line, as `gateway policy check`
prints them), diff it against the running one, apply it, list the stored versions and roll back
to one. Applying goes through the reloader, so it is atomic (one swap), audited (its change
sinks write `policy_changes` and the hash-chained audit entry) and shared with every replica
(the policy store). Simulating replays the ledger under a document that is only compiled, never
applied. Nothing here calls a backend."""

from __future__ import annotations

import asyncio
import difflib
from dataclasses import dataclass
from datetime import date

from sqlalchemy.engine import Engine

from gateway.policy.loader import CompiledPolicy, PolicyError, Problem, decode_text, load_text
from gateway.policy.reload import PolicyReloader
from gateway.usage import policy_store
from gateway.usage.pricing import Pricer
from gateway.usage.simulate import SimQuery, Simulation, SimulationError
from gateway.usage.simulate import simulate as replay

MAX_DIFF_LINES = 2000  # a diff of two 1 MB documents could be huge: the page shows this many


@dataclass(frozen=True, slots=True)
class Checked:
    """A document's verdict: the compiled policy when valid, else every problem."""

    compiled: CompiledPolicy | None
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...] = ()


async def check(reloader: PolicyReloader, raw: bytes, source: str) -> Checked:
    """Validate without applying (off the event loop: a large document takes a while). Not a
    reload attempt: the reloader's accepted/rejected counts are left alone."""

    def run() -> Checked:
        try:
            compiled = load_text(decode_text(raw, source, reloader.limits), source, reloader.limits)
        except PolicyError as exc:
            return Checked(None, tuple(exc.problems))
        return Checked(compiled, (), tuple(compiled.warnings))

    return await asyncio.to_thread(run)


async def apply(reloader: PolicyReloader, raw: bytes, actor: str, source: str) -> CompiledPolicy:
    """Validate off the event loop, then swap on it. PolicyError (nothing changes) when bad."""
    text = reloader.decode(raw, source)
    compiled = await asyncio.to_thread(reloader.compile, text, source)
    return reloader.apply_compiled(compiled, text, actor, source)


def diff(old: str, new: str, old_name: str, new_name: str) -> list[str]:
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), old_name, new_name, lineterm="", n=3
    )
    out: list[str] = []
    for line in lines:
        if len(out) == MAX_DIFF_LINES:
            out.append(f"... (diff cut at {MAX_DIFF_LINES} lines)")
            break
        out.append(line)
    return out


def running_text(engine: Engine, reloader: PolicyReloader) -> str | None:
    """The running policy's document: the newest stored one when it is what runs here."""
    head = policy_store.newest(engine)
    if head is None or head.sha256 != reloader.current().sha256:
        return None
    doc = policy_store.load(engine, head.id)
    return doc.text if doc is not None else None


def history(engine: Engine, limit: int) -> list[policy_store.Version]:
    return policy_store.history(engine, limit)


def version_diff(engine: Engine, doc_id: int) -> tuple[policy_store.StoredPolicy, list[str]] | None:
    """A stored version and what it changed against the one before it."""
    doc = policy_store.load(engine, doc_id)
    if doc is None:
        return None
    prev = policy_store.before(engine, doc_id)
    old, name = (prev.text, f"#{prev.id}") if prev is not None else ("", "(none)")
    return doc, diff(old, doc.text, name, f"#{doc.id}")


async def rollback(
    reloader: PolicyReloader, engine: Engine, doc_id: int, actor: str
) -> CompiledPolicy | None:
    """Apply stored version `doc_id` again (it becomes the newest document, so every replica
    takes it). None when there is no such version; PolicyError when it no longer validates."""
    doc = await asyncio.to_thread(policy_store.load, engine, doc_id)
    if doc is None:
        return None
    return await apply(reloader, doc.text.encode("utf-8"), actor, f"rollback-to#{doc.id}")


def sim_query(start: date, end: date, tenant: str | None, max_days: int) -> SimQuery:
    """The range to replay, no longer than a report may cover. SimulationError (one line)."""
    query = SimQuery(start, end, tenant or None)
    if (query.end - query.start).days + 1 > max_days:
        raise SimulationError(f"the range is longer than {max_days} days")
    return query


async def simulate(
    reloader: PolicyReloader, engine: Engine, pricer: Pricer, text: str, query: SimQuery
) -> Simulation:
    """Replay `query`'s recorded requests under `text` (compiled, never applied), off the
    event loop. PolicyError when the text does not compile."""
    compiled = await asyncio.to_thread(load_text, text, "simulate", reloader.limits)
    priced = pricer.for_policy(compiled.policy)
    return await asyncio.to_thread(replay, engine, compiled.policy, priced, query)
